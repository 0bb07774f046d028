/* Helpers for the C host tests: checks that count failures, a sandbox client (over libcurl, which the tests
 * link directly), and waiting on conditions with generous timeouts instead of sleeping. */
#ifndef BE_TEST_SUPPORT_H
#define BE_TEST_SUPPORT_H

#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blinkengage.h"

static int test_failures = 0;
static int test_checks = 0;

#define CHECK(cond)                                                                                    \
    do {                                                                                               \
        test_checks++;                                                                                 \
        if (!(cond)) {                                                                                 \
            test_failures++;                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                  \
        }                                                                                              \
    } while (0)

#define CHECK_STR(actual, expected)                                                                    \
    do {                                                                                               \
        const char *a_ = (actual), *e_ = (expected);                                                   \
        test_checks++;                                                                                 \
        if ((a_ == NULL) != (e_ == NULL) || (a_ && strcmp(a_, e_) != 0)) {                             \
            test_failures++;                                                                           \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual,    \
                    a_ ? a_ : "(null)", e_ ? e_ : "(null)");                                           \
        }                                                                                              \
    } while (0)

#define CHECK_INT(actual, expected)                                                                    \
    do {                                                                                               \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                                \
        test_checks++;                                                                                 \
        if (a_ != e_) {                                                                                \
            test_failures++;                                                                           \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #actual, a_, e_); \
        }                                                                                              \
    } while (0)

/* Built with -DBE_TEST_HOST_TRANSPORT, every sandbox_config() sends through host_transport.h's sockets, and
 * after each test no socket of the process may be one the SDK opened. */
#ifdef BE_TEST_HOST_TRANSPORT
#define TEST_AFTER_EACH() host_transport_scan()
#else
#define TEST_AFTER_EACH() ((void)0)
#endif

#define RUN(test)                                                                                      \
    do {                                                                                               \
        int before_ = test_failures;                                                                   \
        test();                                                                                        \
        TEST_AFTER_EACH();                                                                             \
        printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #test);                          \
        fflush(stdout);                                                                                \
    } while (0)

#ifdef BE_TEST_HOST_TRANSPORT
#include "host_transport.h"
/* Tests that are about libcurl itself (compression, TLS, redirects) run only without the host transport. */
#define LIBCURL_ONLY(test) ((void)(test))
#else
#define LIBCURL_ONLY(test) RUN(test)
#endif

/* The closing line: "N passed, N failed" counts checks. */
static inline int test_finish(void) {
    printf("%d passed, %d failed\n", test_checks - test_failures, test_failures);
    return test_failures == 0 ? 0 : 1;
}

/* ---- the sandbox ------------------------------------------------------------------------------------ */

/* An environment variable the harness must set; its absence ends the test with status 2. */
static inline const char *required_env(const char *name) {
    const char *value = getenv(name);
    if (!value) {
        fprintf(stderr, "%s is not set\n", name);
        exit(2);
    }
    return value;
}

static const char *sandbox_url(void) {
    const char *url = getenv("BE_SANDBOX_URL");
    if (!url) {
        fprintf(stderr, "BE_SANDBOX_URL is not set\n");
        exit(2);
    }
    return url;
}

typedef struct { char *data; size_t size; } test_buffer;

static inline size_t test_buffer_write(char *data, size_t size, size_t count, void *user) {
    test_buffer *buffer = user;
    size_t n = size * count;
    char *grown = realloc(buffer->data, buffer->size + n + 1);
    if (!grown) return 0;
    buffer->data = grown;
    memcpy(buffer->data + buffer->size, data, n);
    buffer->size += n;
    buffer->data[buffer->size] = 0;
    return n;
}

/* Calls a control endpoint; returns the answer's body (free it) or exits on failure. */
static char *sandbox_call(const char *method, const char *path, const char *body) {
    char url[512];
    test_buffer buffer = {NULL, 0};
    CURL *curl = curl_easy_init();
    CURLcode rc;
    snprintf(url, sizeof url, "%s%s", sandbox_url(), path);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, test_buffer_write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &buffer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    if (strcmp(method, "POST") == 0) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body ? body : "");
    rc = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK) {
        fprintf(stderr, "sandbox call %s failed: %s\n", path, curl_easy_strerror(rc));
        exit(2);
    }
    return buffer.data ? buffer.data : calloc(1, 1);
}

static inline void sandbox_reset(void) { free(sandbox_call("POST", "/_sandbox/reset", NULL)); }
static inline void sandbox_fault(const char *json) { free(sandbox_call("POST", "/_sandbox/faults", json)); }
/* Every request the sandbox recorded, as JSON text (free it). */
static char *sandbox_requests(void) { return sandbox_call("GET", "/_sandbox/requests", NULL); }

/* A TCP socket bound to an ephemeral loopback port, which `port` receives (the test ends when there is none). */
static inline int loopback_socket(int *port) {
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
        getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        fprintf(stderr, "cannot bind a loopback port\n");
        exit(2);
    }
    *port = ntohs(address.sin_port);
    return fd;
}

/* A loopback port nothing listens on: bind an ephemeral one, learn it, close it. */
static inline int unused_port(void) {
    int port;
    close(loopback_socket(&port));
    return port;
}

/* Counts occurrences of `needle` in `haystack`. */
static inline int count_occurrences(const char *haystack, const char *needle) {
    int n = 0;
    const char *p = haystack;
    size_t len = strlen(needle);
    while ((p = strstr(p, needle)) != NULL) { n++; p += len; }
    return n;
}

/* A counter other threads write under `lock`, read under it (the programs that interpose a libc or libcurl
 * function count its calls this way). */
static inline int locked_count(pthread_mutex_t *lock, const int *counter) {
    int value;
    pthread_mutex_lock(lock);
    value = *counter;
    pthread_mutex_unlock(lock);
    return value;
}

/* ---- waiting for callbacks ---------------------------------------------------------------------------- */

/* A callback's result, filled on whatever thread the SDK runs callbacks on. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int calls;
    int has_error;
    char domain[64];
    int code;
    int http_status;
    char message[512];
    be_moments_response *response; /* retained */
    be_offer_feed *feed;           /* retained */
    pthread_t thread;
} test_result;

static inline void test_result_init(test_result *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
}

static inline void test_result_record(test_result *r, const be_error *error) {
    pthread_mutex_lock(&r->lock);
    r->calls++;
    r->thread = pthread_self();
    if (error) {
        r->has_error = 1;
        snprintf(r->domain, sizeof r->domain, "%s", error->domain);
        snprintf(r->message, sizeof r->message, "%s", error->message);
        r->code = error->code;
        r->http_status = error->http_status;
    }
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

/* Polls `done(context)` every millisecond until it holds, for at most `max_ms`; whether it held. For conditions
 * nothing signals (a count at the sandbox, a line in the recorder). */
static inline int wait_until(int (*done)(const void *context), const void *context, int max_ms) {
    int i;
    for (i = 0; i < max_ms; i++) {
        struct timespec tick = {0, 1000000};
        if (done(context)) return 1;
        nanosleep(&tick, NULL);
    }
    return done(context);
}

/* Waits until the result has at least `calls` calls; 0 on timeout (60 s: generous, machines are shared). */
static inline int test_result_wait(test_result *r, int calls) {
    struct timespec deadline;
    int ok = 1;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&r->lock);
    while (r->calls < calls) {
        if (pthread_cond_timedwait(&r->changed, &r->lock, &deadline) == ETIMEDOUT) { ok = 0; break; }
    }
    pthread_mutex_unlock(&r->lock);
    return ok;
}

/* Dispatch mode, callbacks run on this thread: polls the dispatch descriptor and dispatches until `r` saw `calls`
 * callbacks (bounded: 600 polls of 100 ms). */
static inline int dispatch_until(be_sdk *sdk, test_result *r, int calls) {
    int rounds;
    for (rounds = 0; r->calls < calls && rounds < 600; rounds++) {
        struct pollfd descriptor = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        if (poll(&descriptor, 1, 100) > 0) be_sdk_dispatch(sdk, 1);
    }
    return r->calls >= calls;
}

static inline void test_result_dispose(test_result *r) {
    be_moments_response_release(r->response);
    be_offer_feed_release(r->feed);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->changed);
}

static inline void on_moments(be_moments_response *response, const be_error *error, void *user_data) {
    test_result *r = user_data;
    if (response) {
        pthread_mutex_lock(&r->lock);
        be_moments_response_release(r->response); /* a result used for several fetches keeps the last */
        r->response = be_moments_response_retain(response);
        pthread_mutex_unlock(&r->lock);
    }
    test_result_record(r, error);
}

/* An image callback that only counts the call into the test_result `user_data`. */
static inline void on_image_recorded(be_image *image, const be_error *error, void *user_data) {
    (void)image;
    test_result_record(user_data, error);
}

static inline void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    test_result *r = user_data;
    pthread_mutex_lock(&r->lock);
    if (feed && !r->feed) r->feed = be_offer_feed_retain(feed);
    pthread_mutex_unlock(&r->lock);
    test_result_record(r, error);
}

/* Counts the requests the sandbox received for `path` (exact match of the "path" field). */
static inline int sandbox_count(const char *path) {
    char needle[256];
    char *requests = sandbox_requests();
    int n;
    snprintf(needle, sizeof needle, "\"path\": \"%s\"", path);
    n = count_occurrences(requests, needle);
    free(requests);
    return n;
}

static inline int warm_ups_seen(const void *count) { return sandbox_count("/") >= *(const int *)count; }

/* Waits until the sandbox has recorded `count` HEADs of "/" (60 s at most), and no more. The sandbox records a
 * HEAD after answering it, so a client that saw the answer may be ahead of the record. */
static inline int wait_for_warm_ups(int count) {
    return wait_until(warm_ups_seen, &count, 60000) && sandbox_count("/") == count;
}

/* The client port of the first request record after `needle` in the sandbox's record; -1 when none. */
static inline long client_port_after(const char *requests, const char *needle) {
    const char *at = strstr(requests, needle), *port;
    if (!at || !(port = strstr(at, "\"client_port\": "))) return -1;
    return strtol(port + 15, NULL, 10);
}

/* A Moments request for the checkout placement (the caller frees it). Not a CHECK: callbacks make them too, on
 * the SDK's thread, and the check counters belong to the test's thread; a request that cannot be made ends the
 * test, as sandbox_config does. */
static inline be_moments_request *placement_request(void) {
    be_moments_request *request = be_moments_request_new();
    if (!request || be_moments_request_set_payload(request, "placement", "checkout") != BE_OK) {
        fprintf(stderr, "cannot make the checkout request: %s\n", be_last_error_message());
        exit(2);
    }
    return request;
}

/* Whether the flight recorder of `sdk` (a be_sdk *, const for wait_until) holds a HEAD: a warm-up's, recorded
 * when it was answered, its connection then kept. */
static inline int warm_up_answered(const void *sdk) {
    char *lines = NULL;
    int seen = be_sdk_recorder_json((be_sdk *)(uintptr_t)sdk, &lines) == BE_OK && lines &&
               strstr(lines, "\"method\":\"HEAD\"") != NULL;
    be_string_free(lines);
    return seen;
}

/* The SDK's counters now. */
static inline be_stats stats_of(be_sdk *sdk) {
    be_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK_INT(be_sdk_get_stats(sdk, &stats), BE_OK);
    return stats;
}

/* Starts an SDK on `config` (a storage left by an earlier one), flushes what it holds, shuts it down, and counts
 * `needle` in the events the sandbox has received. */
static inline int deliver_stored_and_count(be_config *config, const char *needle) {
    be_sdk *sdk = NULL;
    char *events;
    int n;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    n = count_occurrences(events, needle);
    free(events);
    be_sdk_shutdown(sdk, 1000);
    return n;
}

/* A config for the sandbox: its Moments and Engage URLs, the sandbox's key, a fresh temporary storage root. */
static be_config *sandbox_config(const char *api_key) {
    char url[512];
    char storage[] = "/tmp/be-test-XXXXXX";
    be_config *config = be_config_new(api_key);
    snprintf(url, sizeof url, "%s/native/v4", sandbox_url());
#ifdef BE_TEST_HOST_TRANSPORT
    if (host_inherited_count < 0) host_transport_scan(); /* the first call records the runner's sockets */
    be_config_set_http_transport(config, host_transport_send, NULL);
#endif
    if (!config || be_config_set_moments_url(config, url) != BE_OK || !mkdtemp(storage) ||
        be_config_set_storage_dir(config, storage) != BE_OK || be_config_set_engage_url(config, sandbox_url()) != BE_OK) {
        fprintf(stderr, "cannot configure for the sandbox: %s\n", be_last_error_message());
        exit(2);
    }
    return config;
}

#endif
