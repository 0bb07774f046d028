/* Privacy and offline through the C API against the sandbox: consent signals on the wire, identifiers and
 * advertiser pixels withheld, bad values refused, erasure that leaves nothing of the user, a feed cache that
 * survives a dead network and a restart, and prefetched offers (issue "Privacy and offline"). */
#define _GNU_SOURCE
#include "test_support.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

static be_moments_request *identified_request(void) {
    be_moments_request *request = placement_request();
    be_moments_request_set_payload(request, "adpx_fp", "fp-123");
    be_moments_request_set_payload(request, "ip", "203.0.113.7");
    be_moments_request_set_payload(request, "pub_user_id", "user-42");
    be_moments_request_set_payload(request, "gdpr", "host-value");
    return request;
}

static be_moments_response *fetch(be_sdk *sdk, be_moments_request *request) {
    test_result r;
    be_moments_response *response;
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    response = be_moments_response_retain(r.response);
    test_result_dispose(&r);
    return response;
}

static void load_feed(be_sdk *sdk, test_result *r) {
    test_result_init(r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, r), BE_OK);
    CHECK(test_result_wait(r, 1));
}

static const char *tcf = "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA.YAAAAAAAAAAA";
static const char *gpp = "DBABM~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA";

static void test_every_signal_travels_on_every_request(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = identified_request();
    be_moments_response *response;
    test_result feed;
    char *requests;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_gdpr(sdk, 1, tcf), BE_OK);
    CHECK_INT(be_sdk_set_us_privacy(sdk, "1YNN"), BE_OK);
    CHECK_INT(be_sdk_set_gpp(sdk, gpp, "7,8"), BE_OK);
    CHECK_INT(be_sdk_set_child_directed(sdk, 0), BE_OK);
    response = fetch(sdk, request);
    CHECK_INT(be_sdk_set_user_identity(sdk, "privacy-user"), BE_OK);
    load_feed(sdk, &feed);
    CHECK(!feed.has_error);
    requests = sandbox_requests();
    /* the Moments payload: every signal, the host's own "gdpr" overridden, identifiers kept (no COPPA) */
    CHECK(strstr(requests, "\\\"gdpr\\\": \\\"1\\\"") || strstr(requests, "\\\"gdpr\\\":\\\"1\\\""));
    CHECK(strstr(requests, "host-value") == NULL);
    CHECK(strstr(requests, "\\\"gdpr_consent\\\":\\\"CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA.YAAAAAAAAAAA\\\"") != NULL);
    CHECK(strstr(requests, "\\\"us_privacy\\\":\\\"1YNN\\\"") != NULL);
    CHECK(strstr(requests, "\\\"gpp_sid\\\":\\\"7,8\\\"") != NULL);
    CHECK(strstr(requests, "\\\"coppa\\\":\\\"0\\\"") != NULL);
    CHECK(strstr(requests, "\\\"adpx_fp\\\":\\\"fp-123\\\"") != NULL);
    CHECK(strstr(requests, "lmt") == NULL);
    /* the Engage calls: registration and feed carry them as query parameters */
    CHECK_INT(count_occurrences(requests, "&gdpr=1&gdpr_consent=CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA.YAAAAAAAAAAA"
                                          "&us_privacy=1YNN&gpp=DBABM~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA&gpp_sid=7%2C8&coppa=0\""), 2);
    CHECK(strstr(requests, "device_id") != NULL);
    free(requests);
    test_result_dispose(&feed);
    be_moments_response_release(response);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_bad_values_are_refused_and_change_nothing(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    be_moments_response *response;
    char *requests;
    const char *bad_us[] = {"1YN", "2YNN", "1YNX", "1YNN-", "", "1ynn"};
    size_t i;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_us_privacy(sdk, "1NYN"), BE_OK);
    CHECK_INT(be_sdk_set_gdpr(sdk, 0, NULL), BE_OK);
    for (i = 0; i < sizeof bad_us / sizeof *bad_us; i++) CHECK_INT(be_sdk_set_us_privacy(sdk, bad_us[i]), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gdpr(sdk, 2, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gdpr(sdk, 1, "not base64url!"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gdpr(sdk, 1, "abc+def/"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, gpp, "7,,8"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, gpp, "7, 8"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, gpp, "x"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, gpp, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, "DB\r\nX", "7"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gpp(sdk, NULL, "7"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_child_directed(sdk, 5), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_limit_tracking(sdk, -1), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_gdpr(NULL, 1, NULL), BE_ERR_INVALID_ARGUMENT);
    response = fetch(sdk, request);
    requests = sandbox_requests();
    CHECK(strstr(requests, "\\\"us_privacy\\\":\\\"1NYN\\\"") != NULL); /* as before the refused calls */
    CHECK(strstr(requests, "\\\"gdpr\\\":\\\"0\\\"") != NULL);
    CHECK(strstr(requests, "gpp") == NULL && strstr(requests, "coppa") == NULL && strstr(requests, "lmt") == NULL);
    free(requests);
    be_moments_response_release(response);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

/* COPPA or limited tracking: identifiers stay home, no device id, advertiser pixels withheld and counted. */
static void restricted(int coppa) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = identified_request();
    be_moments_response *response;
    be_offer_screen *screen;
    test_result feed;
    char *requests, *beacons;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(coppa ? be_sdk_set_child_directed(sdk, 1) : be_sdk_set_limit_tracking(sdk, 1), BE_OK);
    response = fetch(sdk, request);
    CHECK_INT(be_sdk_set_user_identity(sdk, "restricted-user"), BE_OK);
    load_feed(sdk, &feed);
    screen = be_sdk_moments_screen(sdk, response); /* the first offer's pixel fires, its advertiser pixel does not */
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    requests = sandbox_requests();
    CHECK(strstr(requests, "fp-123") == NULL && strstr(requests, "203.0.113.7") == NULL && strstr(requests, "user-42") == NULL);
    CHECK(strstr(requests, "device_id") == NULL);
    CHECK(strstr(requests, coppa ? "\\\"coppa\\\":\\\"1\\\"" : "\\\"lmt\\\":\\\"1\\\"") != NULL);
    CHECK(strstr(requests, coppa ? "&coppa=1\"" : "&lmt=1\"") != NULL);
    free(requests);
    beacons = sandbox_call("GET", "/_sandbox/beacons", NULL);
    CHECK(strstr(beacons, "adv") == NULL);
    CHECK(strstr(beacons, "\"total\": 1") != NULL);
    free(beacons);
    CHECK_INT(stats_of(sdk).dropped_privacy, 1);
    be_offer_screen_free(screen);
    test_result_dispose(&feed);
    be_moments_response_release(response);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_child_directed_withholds_identifiers_and_advertiser_pixels(void) { restricted(1); }
static void test_limit_tracking_withholds_identifiers_and_advertiser_pixels(void) { restricted(0); }

/* ---- erasure ------------------------------------------------------------------------------------------------- */

/* Whether any file under `directory` contains `needle`. */
static int directory_contains(const char *directory, const char *needle) {
    DIR *dir = opendir(directory);
    struct dirent *entry;
    int found = 0;
    while (dir && !found && (entry = readdir(dir)) != NULL) {
        char path[1024];
        FILE *file;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        if (entry->d_type == DT_DIR) { found = directory_contains(path, needle); continue; }
        if ((file = fopen(path, "rb")) != NULL) {
            size_t size, length = strlen(needle), i;
            char *bytes;
            fseek(file, 0, SEEK_END);
            size = (size_t)ftell(file);
            fseek(file, 0, SEEK_SET);
            bytes = malloc(size + 1);
            size = fread(bytes, 1, size, file);
            for (i = 0; i + length <= size && !found; i++) found = memcmp(bytes + i, needle, length) == 0;
            free(bytes);
            fclose(file);
        }
    }
    if (dir) closedir(dir);
    return found;
}

/* The value of `"key": "` in `text`, copied into `out`. */
static void json_value(const char *text, const char *key, char *out, size_t size) {
    char needle[64];
    const char *p;
    size_t n = 0;
    snprintf(needle, sizeof needle, "%s", key);
    out[0] = 0;
    if (!(p = strstr(text, needle))) return;
    p += strlen(needle);
    while (*p && *p != '"' && *p != '\\' && n + 1 < size) out[n++] = *p++;
    out[n] = 0;
}

static void test_erasure_leaves_nothing_of_the_user(void) {
    char storage[] = "/tmp/be-erase-XXXXXX", device[64], token[64], *requests;
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result feed, waiting;
    const be_offer *offer;
    be_offer_feed_event *event;
    be_stats stats;
    int i;
    CHECK(mkdtemp(storage) != NULL);
    be_config_set_storage_dir(config, storage);
    be_config_set_feed_cache(config, 3600);
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "erin-erasable"), BE_OK);
    load_feed(sdk, &feed);
    CHECK(!feed.has_error);
    sandbox_fault("{\"path\": \"/v1/events\", \"status\": 503}");
    sandbox_fault("{\"path\": \"/b/\", \"status\": 503}");
    offer = be_offer_group_offer_at(be_offer_feed_group_at(feed.feed, 0), 0);
    event = be_offer_feed_event_new_with_offer(offer, BE_OFFER_FEED_EVENT_DID_APPEAR);
    for (i = 0; i < 3; i++) CHECK_INT(be_sdk_report_offer_feed_event(sdk, event), BE_OK);
    be_offer_feed_event_free(event);
    CHECK(stats_of(sdk).queue_depth > 0);
    CHECK(directory_contains(storage, "erin-erasable")); /* the search finds the user before erasure */
    /* a load held at the sandbox's gate ends with error 1 */
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"gate\": true, \"times\": 1}");
    test_result_init(&waiting);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &waiting), BE_OK);
    CHECK_INT(be_sdk_delete_user_data(sdk), BE_OK);
    CHECK(test_result_wait(&waiting, 1));
    CHECK_INT(waiting.code, BE_OFFER_FEED_ERROR_NO_USER);
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    stats = stats_of(sdk);
    CHECK_INT(stats.queue_depth, 0);
    CHECK(stats.dropped_privacy >= 3);
    be_sdk_shutdown(sdk, 0);
    requests = sandbox_requests();
    json_value(requests, "\\\"device_id\\\": \\\"", device, sizeof device);
    if (!device[0]) json_value(requests, "\\\"device_id\\\":\\\"", device, sizeof device);
    json_value(requests, "\"authorization\": \"Bearer ", token, sizeof token);
    free(requests);
    CHECK(strlen(device) > 10 && strlen(token) > 4);
    CHECK(!directory_contains(storage, "erin-erasable"));
    CHECK(!directory_contains(storage, device));
    CHECK(!directory_contains(storage, token));
    CHECK(!directory_contains(storage, "did_appear"));
    test_result_dispose(&feed);
    test_result_dispose(&waiting);
    be_config_free(config);
}

/* ---- the feed cache ------------------------------------------------------------------------------------------- */

static void test_a_cached_feed_survives_a_dead_network_and_a_restart(void) {
    char storage[] = "/tmp/be-cache-XXXXXX";
    pid_t child;
    int status = 0;
    CHECK(mkdtemp(storage) != NULL);
    sandbox_reset();
    {
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        test_result feed;
        be_config_set_storage_dir(config, storage);
        be_config_set_feed_cache(config, 3600);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        CHECK_INT(be_sdk_set_user_identity(sdk, "offline-user"), BE_OK);
        load_feed(sdk, &feed);
        CHECK(!feed.has_error && !be_offer_feed_is_cached(feed.feed));
        test_result_dispose(&feed);
        be_sdk_shutdown(sdk, 1000);
        be_config_free(config);
    }
    /* the network dies: every Engage call is reset */
    sandbox_fault("{\"path\": \"/v1/\", \"reset\": true}");
    fflush(NULL);
    child = fork();
    if (child == 0) {
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        test_result feed;
        be_offer_screen *screen;
        be_offer_feed_event *event;
        int ok;
        be_config_set_storage_dir(config, storage);
        be_config_set_feed_cache(config, 3600);
        ok = be_sdk_start(config, &sdk) == BE_OK;
        load_feed(sdk, &feed);
        ok = ok && !feed.has_error && be_offer_feed_is_cached(feed.feed) == 1 && be_offer_feed_age_s(feed.feed) < 3600;
        screen = ok ? be_sdk_offer_group_screen(sdk, be_offer_feed_group_at(feed.feed, 0)) : NULL;
        ok = ok && screen != NULL;
        event = ok ? be_offer_feed_event_new_with_offer(be_offer_screen_current_offer(screen), BE_OFFER_FEED_EVENT_DID_TAP) : NULL;
        ok = ok && be_sdk_report_offer_feed_event(sdk, event) == BE_OK;
        be_offer_feed_event_free(event);
        be_offer_screen_free(screen);
        test_result_dispose(&feed);
        be_sdk_shutdown(sdk, 0);
        be_config_free(config);
        _exit(ok ? 0 : 1);
    }
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* the network returns: the next start delivers what was reported offline */
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    {
        be_config *config = sandbox_config("demo-key");
        be_config_set_storage_dir(config, storage);
        CHECK_INT(deliver_stored_and_count(config, "\"did_tap\""), 1);
        be_config_free(config);
    }
}

static void test_without_a_cache_errors_keep_their_meaning(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result feed;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "no-cache-user"), BE_OK);
    load_feed(sdk, &feed);
    test_result_dispose(&feed);
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"status\": 503, \"times\": 1}");
    load_feed(sdk, &feed);
    CHECK_INT(feed.code, BE_OFFER_FEED_ERROR_UNAVAILABLE);
    test_result_dispose(&feed);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* ---- prefetch ------------------------------------------------------------------------------------------------ */

static int offer_requests(void) { return sandbox_count("/native/v4/offers.json"); }

static void test_a_prefetch_answers_one_fetch(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request(), *other = placement_request();
    be_moments_response *first, *second;
    test_result joined;
    struct timespec start, now;
    be_config_set_prefetch_ttl_s(config, 1);
    CHECK_INT(be_config_set_prefetch_ttl_s(config, 0), BE_ERR_INVALID_ARGUMENT);
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    /* a fetch while the prefetch is in flight joins it */
    sandbox_fault("{\"path\": \"offers.json\", \"gate\": true, \"times\": 1}");
    CHECK_INT(be_sdk_prefetch_moments_offers(sdk, request), BE_OK);
    test_result_init(&joined);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, other, on_moments, &joined), BE_OK); /* equal, not the same object */
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    CHECK(test_result_wait(&joined, 1) && !joined.has_error);
    CHECK_INT(offer_requests(), 1);
    CHECK_INT(stats_of(sdk).prefetch_hits, 1);
    test_result_dispose(&joined);
    /* a prefetch, then a fetch: one request; the answer is consumed, so the next fetch asks again */
    sandbox_reset();
    CHECK_INT(be_sdk_prefetch_moments_offers(sdk, request), BE_OK);
    while (offer_requests() < 1) sched_yield();
    first = fetch(sdk, request);
    CHECK_INT(offer_requests(), 1);
    second = fetch(sdk, request);
    CHECK_INT(offer_requests(), 2);
    CHECK(first != second);
    CHECK_INT(stats_of(sdk).prefetch_hits, 2);
    be_moments_response_release(first);
    be_moments_response_release(second);
    /* after the TTL (1 s here) the prefetched answer is not used */
    sandbox_reset();
    clock_gettime(CLOCK_MONOTONIC, &start);
    CHECK_INT(be_sdk_prefetch_moments_offers(sdk, request), BE_OK);
    do {
        struct timespec tick = {0, 50000000};
        nanosleep(&tick, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (offer_requests() < 1 || (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < 1500);
    first = fetch(sdk, request);
    CHECK_INT(offer_requests(), 2);
    CHECK_INT(stats_of(sdk).prefetch_hits, 2);
    be_moments_response_release(first);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_moments_request_free(other);
    be_config_free(config);
}

/* A cached feed belongs to its identity: after another identity is set, with the network dead, a load is never
 * answered with the first identity's feed, in this SDK or after a restart; nor after switching back (a new
 * identity deletes the cache). */
static void test_a_cached_feed_is_never_shown_to_another_identity(void) {
    char storage[] = "/tmp/be-cache-identity-XXXXXX";
    const char *identities[] = {"user-b", "user-a"};
    int round;
    CHECK(mkdtemp(storage) != NULL);
    sandbox_reset();
    for (round = 0; round < 3; round++) {
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        test_result feed;
        be_config_set_storage_dir(config, storage);
        be_config_set_feed_cache(config, 3600);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        if (round == 0) {
            CHECK_INT(be_sdk_set_user_identity(sdk, "user-a"), BE_OK);
            load_feed(sdk, &feed);
            CHECK(!feed.has_error);
            test_result_dispose(&feed);
            sandbox_fault("{\"path\": \"/v1/\", \"reset\": true}"); /* the network dies */
            CHECK_INT(be_sdk_set_user_identity(sdk, identities[0]), BE_OK);
        } else {
            CHECK_INT(be_sdk_set_user_identity(sdk, identities[round - 1]), BE_OK);
        }
        load_feed(sdk, &feed);
        CHECK(feed.has_error); /* never user-a's cached feed */
        CHECK(feed.feed == NULL);
        test_result_dispose(&feed);
        be_sdk_shutdown(sdk, 0);
        be_config_free(config);
    }
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
}

/* Erasure while a prefetch is in flight: its answer, made for the erased user, answers no later fetch. */
static void test_erasure_during_a_prefetch_drops_its_answer(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    be_moments_response *later;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    sandbox_fault("{\"path\": \"offers.json\", \"gate\": true, \"times\": 1}");
    CHECK_INT(be_sdk_prefetch_moments_offers(sdk, request), BE_OK);
    while (offer_requests() < 1) sched_yield();
    CHECK_INT(be_sdk_delete_user_data(sdk), BE_OK);
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    later = fetch(sdk, request);
    CHECK(later != NULL);
    CHECK_INT(offer_requests(), 2); /* asked again: the prefetched answer was dropped */
    CHECK_INT(stats_of(sdk).prefetch_hits, 0);
    be_moments_response_release(later);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    RUN(test_every_signal_travels_on_every_request);
    RUN(test_bad_values_are_refused_and_change_nothing);
    RUN(test_child_directed_withholds_identifiers_and_advertiser_pixels);
    RUN(test_limit_tracking_withholds_identifiers_and_advertiser_pixels);
    RUN(test_erasure_leaves_nothing_of_the_user);
    RUN(test_a_cached_feed_survives_a_dead_network_and_a_restart);
    RUN(test_without_a_cache_errors_keep_their_meaning);
    RUN(test_a_prefetch_answers_one_fetch);
    RUN(test_a_cached_feed_is_never_shown_to_another_identity);
    RUN(test_erasure_during_a_prefetch_drops_its_answer);
    return test_finish();
}
