/* be_sdk_start leaves libcurl's global initialisation (OpenSSL's under it: about 2.3M instructions and a read of
 * its configuration) to the SDK's threads where the loaded libcurl makes it thread-safe (7.84 and later), and
 * makes it itself, as libcurl's documentation asks, where not. This program defines curl_global_init, records
 * the threads that call it and hands the call to libcurl's. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "test_support.h"

#include <dlfcn.h>

typedef CURLcode (*global_init_fn)(long);

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_calls, init_calls_here;
static pthread_t test_thread;

CURLcode curl_global_init(long flags) {
    global_init_fn real;
    *(void **)(&real) = dlsym(RTLD_NEXT, "curl_global_init");
    pthread_mutex_lock(&init_lock);
    init_calls++;
    if (pthread_equal(pthread_self(), test_thread)) init_calls_here++;
    pthread_mutex_unlock(&init_lock);
    return real(flags);
}

static void test_the_start_leaves_libcurls_initialisation_to_the_sdks_threads(void) {
    const int thread_safe = (curl_version_info(CURLVERSION_NOW)->features & CURL_VERSION_THREADSAFE) != 0;
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = placement_request();
    be_sdk *sdk = NULL;
    test_result offers;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(locked_count(&init_lock, &init_calls_here), thread_safe ? 0 : 1);
    /* A fetch works: by its answer an SDK thread has made the initialisation (this one never did). */
    test_result_init(&offers);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &offers), BE_OK);
    CHECK(test_result_wait(&offers, 1) && !offers.has_error && be_moments_response_offer_count(offers.response) > 0);
    CHECK(locked_count(&init_lock, &init_calls) >= 1);
    CHECK_INT(locked_count(&init_lock, &init_calls_here), thread_safe ? 0 : 1);
    printf("# libcurl %s: initialised %d time(s), %d on the starting thread\n", curl_version_info(CURLVERSION_NOW)->version,
           locked_count(&init_lock, &init_calls), locked_count(&init_lock, &init_calls_here));
    test_result_dispose(&offers);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
}

int main(void) {
    test_thread = pthread_self();
    RUN(test_the_start_leaves_libcurls_initialisation_to_the_sdks_threads);
    return test_finish();
}
