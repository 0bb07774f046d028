/* Name resolution: a host name is looked up once and reused, and a lookup that hangs holds back no request to
 * another host. This program defines getaddrinfo itself, so libcurl's resolver thread calls it: it counts the
 * lookups of two test names, resolves both to the sandbox's 127.0.0.1, and holds "slow-dns.test" until the
 * test lets it go. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "test_support.h"

#include <dlfcn.h>
#include <netdb.h>

typedef int (*getaddrinfo_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

static pthread_mutex_t dns_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dns_changed = PTHREAD_COND_INITIALIZER;
static int slow_lookups, fast_lookups, slow_released;

static getaddrinfo_fn real_lookup;
static pthread_once_t real_lookup_found = PTHREAD_ONCE_INIT;

static void find_real_lookup(void) { *(void **)(&real_lookup) = dlsym(RTLD_NEXT, "getaddrinfo"); }

static getaddrinfo_fn real_getaddrinfo(void) {
    pthread_once(&real_lookup_found, find_real_lookup);
    return real_lookup;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result) {
    getaddrinfo_fn real = real_getaddrinfo();
    if (node && strcmp(node, "slow-dns.test") == 0) {
        pthread_mutex_lock(&dns_lock);
        slow_lookups++;
        pthread_cond_broadcast(&dns_changed);
        while (!slow_released) pthread_cond_wait(&dns_changed, &dns_lock);
        pthread_mutex_unlock(&dns_lock);
        return real("127.0.0.1", service, hints, result);
    }
    if (node && strcmp(node, "fast-dns.test") == 0) {
        pthread_mutex_lock(&dns_lock);
        fast_lookups++;
        pthread_mutex_unlock(&dns_lock);
        return real("127.0.0.1", service, hints, result);
    }
    return real(node, service, hints, result);
}

/* Waits until the slow name's lookup has begun (60 s at most, like test_result_wait). */
static int wait_for_slow_lookup(void) {
    struct timespec deadline;
    int ok = 1;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&dns_lock);
    while (slow_lookups == 0) {
        if (pthread_cond_timedwait(&dns_changed, &dns_lock, &deadline) == ETIMEDOUT) { ok = 0; break; }
    }
    pthread_mutex_unlock(&dns_lock);
    return ok;
}

static void release_slow_lookups(void) {
    pthread_mutex_lock(&dns_lock);
    slow_released = 1;
    pthread_cond_broadcast(&dns_changed);
    pthread_mutex_unlock(&dns_lock);
}

/* The sandbox's URL with its host replaced by `name` (same port). */
static void url_with_host(char *out, size_t size, const char *name, const char *path) {
    const char *port = strrchr(sandbox_url(), ':');
    snprintf(out, size, "http://%s%s%s", name, port ? port : "", path);
}

static void test_a_hung_lookup_holds_back_no_other_host_and_each_name_is_looked_up_once(void) {
    char moments[256], engage[256];
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    test_result offers, feed, again_offers, again_feed;
    be_config *config = sandbox_config("demo-key");
    url_with_host(moments, sizeof moments, "slow-dns.test", "/native/v4");
    url_with_host(engage, sizeof engage, "fast-dns.test", "");
    CHECK_INT(be_config_set_moments_url(config, moments), BE_OK);
    CHECK_INT(be_config_set_engage_url(config, engage), BE_OK);
    /* No warm-up: its lookup and the fetch's, both begun before the first answer, would be two (libcurl shares
     * answers, not lookups in progress). */
    CHECK_INT(be_config_set_warm_up_at_start(config, 0), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);

    /* The Moments fetch waits on its host's lookup; registration and the feed, on the same transport, go on. */
    test_result_init(&offers);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &offers), BE_OK);
    CHECK(wait_for_slow_lookup());
    CHECK_INT(be_sdk_set_user_identity(sdk, "dns-user"), BE_OK); /* registration, then the feed */
    test_result_init(&feed);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &feed), BE_OK);
    CHECK(test_result_wait(&feed, 1) && !feed.has_error);
    CHECK_INT(offers.calls, 0); /* still waiting on its lookup */
    release_slow_lookups();
    CHECK(test_result_wait(&offers, 1) && !offers.has_error);

    /* Later requests to both hosts reuse what was resolved (and connected). */
    test_result_init(&again_offers);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &again_offers), BE_OK);
    CHECK(test_result_wait(&again_offers, 1) && !again_offers.has_error);
    test_result_init(&again_feed);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &again_feed), BE_OK);
    CHECK(test_result_wait(&again_feed, 1) && !again_feed.has_error);
    CHECK_INT(locked_count(&dns_lock, &slow_lookups), 1);
    CHECK_INT(locked_count(&dns_lock, &fast_lookups), 1);

    test_result_dispose(&offers);
    test_result_dispose(&feed);
    test_result_dispose(&again_offers);
    test_result_dispose(&again_feed);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_a_hung_lookup_holds_back_no_other_host_and_each_name_is_looked_up_once);
    return test_finish();
}
