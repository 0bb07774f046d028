/* Typed wrappers for libcurl's variadic calls, which Swift cannot call directly.
 * static inline so they add no symbols to the library. */
#ifndef BLINKENGAGE_CCURL_SHIM_H
#define BLINKENGAGE_CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode be_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode be_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode be_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode be_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode be_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*be_curl_data_fn)(char *data, size_t size, size_t count, void *user_data);
static inline CURLcode be_curl_easy_setopt_data_fn(CURL *handle, CURLoption option, be_curl_data_fn fn) {
    return curl_easy_setopt(handle, option, fn);
}
static inline CURLcode be_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return curl_easy_getinfo(handle, info, out);
}
static inline CURLcode be_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(handle, info, out);
}
static inline CURLcode be_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **out) {
    return curl_easy_getinfo(handle, info, out);
}
static inline CURLMcode be_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/* The multi handle's socket and timer callbacks, for a transport whose sockets the host's own poll watches
 * (DrivenTransport). */
typedef int (*be_curl_socket_fn)(CURL *easy, curl_socket_t socket, int what, void *user_data, void *socket_data);
static inline CURLMcode be_curl_multi_setopt_socket_fn(CURLM *multi, be_curl_socket_fn fn) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, fn);
}
typedef int (*be_curl_timer_fn)(CURLM *multi, long timeout_ms, void *user_data);
static inline CURLMcode be_curl_multi_setopt_timer_fn(CURLM *multi, be_curl_timer_fn fn) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, fn);
}
static inline CURLMcode be_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
/* TLS 1.3 early data (libcurl 8.11 and later), named here so the engine builds against older headers too: a
 * libcurl that does not know them refuses the option or the query, which changes nothing. */
static const long be_curlsslopt_earlydata = 1 << 6;                     /* CURLSSLOPT_EARLYDATA */
static inline CURLcode be_curl_easy_getinfo_earlydata_sent(CURL *handle, curl_off_t *out) {
    return curl_easy_getinfo(handle, (CURLINFO)(CURLINFO_OFF_T + 68), out); /* CURLINFO_EARLYDATA_SENT_T */
}
/* The loaded library's version record (CURLVERSION_NOW is a macro Swift cannot import). */
static inline const curl_version_info_data *be_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
#endif
