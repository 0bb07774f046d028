/* Viewable impressions through the C API: the rule applied by the SDK's clock with no further call, beacons at a
 * viewable impression instead of at appearance when asked, the durable event with its feed positions, refused
 * arguments, and a host killed with SIGKILL after its views counted: each view's event arrives, under one id. */
#include "test_support.h"

#include <math.h>
#include <signal.h>
#include <sys/wait.h>

#define PIXEL_4001 "o_id=4001&sess_id=5f2c0001e1&cbuster="

static be_offer_feed *load_feed(be_sdk *sdk) {
    test_result r;
    be_offer_feed *feed;
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    feed = be_offer_feed_retain(r.feed);
    test_result_dispose(&r);
    return feed;
}

typedef struct {
    be_sdk *sdk;
    uint64_t count;
} impressions_wanted;

static int impressions_counted(const void *wanted) {
    const impressions_wanted *w = wanted;
    return stats_of(w->sdk).viewable_impressions >= w->count;
}

/* Waits until the SDK counted `count` viewable impressions (at most 20 s); whether it did, and no more. */
static int wait_for_impressions(be_sdk *sdk, uint64_t count) {
    impressions_wanted wanted = {sdk, count};
    return wait_until(impressions_counted, &wanted, 20000) && stats_of(sdk).viewable_impressions == count;
}

static int pixels_of_4001(be_sdk *sdk) {
    char *requests;
    int n;
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    requests = sandbox_requests();
    n = count_occurrences(requests, PIXEL_4001);
    free(requests);
    return n;
}

static be_sdk *start(be_config *config) {
    be_sdk *sdk = NULL;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "viewer"), BE_OK);
    return sdk;
}

static void test_beacons_wait_for_a_viewable_impression(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk;
    be_offer_feed *feed;
    const be_offer *offer;
    be_offer_feed_event *appeared;
    char *events;
    sandbox_reset();
    CHECK_INT(be_config_set_viewability(config, 0.5, 50), BE_OK);
    CHECK_INT(be_config_set_impression_beacons(config, BE_IMPRESSION_BEACONS_ON_VIEWABLE), BE_OK);
    sdk = start(config);
    feed = load_feed(sdk);
    offer = be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0);
    CHECK_STR(be_offer_id(offer), "4001");
    appeared = be_offer_feed_event_new_with_offer(offer, BE_OFFER_FEED_EVENT_DID_APPEAR);
    CHECK_INT(be_sdk_report_offer_feed_event(sdk, appeared), BE_OK);
    be_offer_feed_event_free(appeared);
    CHECK_INT(pixels_of_4001(sdk), 0); /* the appearance fired nothing */
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 0.4), BE_OK);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 1.0), BE_OK);
    /* no further call: the SDK's clock ends the view */
    CHECK(wait_for_impressions(sdk, 1));
    CHECK_INT(pixels_of_4001(sdk), 1);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 0.8), BE_OK); /* the same view: nothing more */
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 0.0), BE_OK);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 0.9), BE_OK); /* back on screen: a new view */
    CHECK(wait_for_impressions(sdk, 2));
    CHECK_INT(pixels_of_4001(sdk), 2);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK_INT(count_occurrences(events, "\"type\": \"viewable_impression\""), 2);
    CHECK(strstr(events, "\"offer_id\": \"4001\"") != NULL);
    CHECK(strstr(events, "\"group_id\": \"g_entertainment\"") != NULL);
    CHECK(strstr(events, "\"offer_position\": 0") != NULL);
    CHECK(strstr(events, "\"min_visible_percent\": 50") != NULL && strstr(events, "\"min_visible_ms\": 50") != NULL);
    free(events);
    be_offer_feed_release(feed);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

/* The default keeps the header's promise: DID_APPEAR fires the beacons, a viewable impression only records. */
static void test_by_default_appearance_fires_and_a_view_only_records(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk;
    be_offer_feed *feed;
    const be_offer *offer;
    be_offer_feed_event *appeared;
    sandbox_reset();
    CHECK_INT(be_config_set_viewability(config, 0.25, 0), BE_OK);
    sdk = start(config);
    feed = load_feed(sdk);
    offer = be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0);
    appeared = be_offer_feed_event_new_with_offer(offer, BE_OFFER_FEED_EVENT_DID_APPEAR);
    CHECK_INT(be_sdk_report_offer_feed_event(sdk, appeared), BE_OK);
    be_offer_feed_event_free(appeared);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 0.25), BE_OK);
    CHECK_INT(stats_of(sdk).viewable_impressions, 1); /* a zero duration counts within the call */
    CHECK_INT(pixels_of_4001(sdk), 1);
    be_offer_feed_release(feed);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

/* A screen's offers wait too, and a Moments offer has no feed fields. */
static void test_screens_wait_for_a_viewable_impression(void) {
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = be_moments_request_new();
    be_sdk *sdk;
    be_offer_screen *screen;
    test_result r;
    char *requests;
    sandbox_reset();
    CHECK_INT(be_config_set_viewability(config, 0.5, 10), BE_OK);
    CHECK_INT(be_config_set_impression_beacons(config, BE_IMPRESSION_BEACONS_ON_VIEWABLE), BE_OK);
    sdk = start(config);
    be_moments_request_set_payload(request, "placement", "checkout");
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    screen = be_sdk_moments_screen(sdk, r.response);
    CHECK(screen != NULL);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    requests = sandbox_requests();
    CHECK_INT(count_occurrences(requests, "impression"), 0);
    free(requests);
    CHECK_INT(be_sdk_report_visibility(sdk, be_offer_screen_current_offer(screen), 1.0), BE_OK);
    CHECK(wait_for_impressions(sdk, 1));
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    requests = sandbox_call("GET", "/_sandbox/beacons", NULL);
    CHECK(strstr(requests, "\"total\": 0") == NULL);
    free(requests);
    requests = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK_INT(count_occurrences(requests, "\"type\": \"viewable_impression\""), 1);
    CHECK(strstr(requests, "\"feed_id\"") == NULL);
    free(requests);
    be_offer_screen_free(screen);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 2000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_arguments_and_shutdown(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk;
    be_offer_feed *feed;
    const be_offer *offer;
    sandbox_reset();
    CHECK_INT(be_config_set_viewability(NULL, 0.5, 1000), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_viewability(config, 0.0, 1000), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_viewability(config, 1.5, 1000), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_viewability(config, NAN, 1000), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_viewability(config, 0.5, 600001), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_impression_beacons(config, (be_impression_beacons)7), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_impression_beacons(NULL, BE_IMPRESSION_BEACONS_ON_APPEAR), BE_ERR_INVALID_ARGUMENT);
    /* a view in progress at shutdown counts nothing */
    CHECK_INT(be_config_set_viewability(config, 0.5, 600000), BE_OK);
    sdk = start(config);
    feed = load_feed(sdk);
    offer = be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0);
    CHECK_INT(be_sdk_report_visibility(NULL, offer, 1), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_report_visibility(sdk, NULL, 1), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, -0.01), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 1.01), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, NAN), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_report_visibility(sdk, offer, 1), BE_OK);
    CHECK_INT(stats_of(sdk).viewable_impressions, 0);
    {
        /* a forked child's SDK is inert: the call refuses, nothing hangs */
        int status = 0;
        pid_t child;
        fflush(NULL);
        child = fork();
        if (child == 0) _exit(be_sdk_report_visibility(sdk, offer, 1) == BE_ERR_INVALID_STATE ? 0 : 1);
        CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    be_sdk_shutdown(sdk, 2000);
    be_offer_feed_release(feed);
    /* nothing was stored for it either */
    CHECK_INT(deliver_stored_and_count(config, "viewable_impression"), 0);
    be_config_free(config);
}

/* The child counts a view of every offer of the feed, says how many, and is killed before any event is
 * delivered (the sandbox refuses them). The next start delivers each view's event once, under its one id. */
static void test_views_survive_a_kill(void) {
    be_config *config = sandbox_config("demo-key");
    int channel[2], status = 0;
    uint64_t counted = 0;
    pid_t child;
    char *events, needle[64];
    be_sdk *sdk;
    sandbox_reset();
    CHECK_INT(be_config_set_viewability(config, 0.5, 20), BE_OK);
    sandbox_fault("{\"path\": \"/v1/events\", \"status\": 503}");
    CHECK(pipe(channel) == 0);
    fflush(NULL);
    child = fork();
    if (child == 0) {
        be_sdk *own = start(config);
        be_offer_feed *feed = load_feed(own);
        size_t g, o;
        uint64_t views = 0;
        alarm(60);
        for (g = 0; g < be_offer_feed_group_count(feed); g++) {
            const be_offer_group *group = be_offer_feed_group_at(feed, g);
            for (o = 0; o < be_offer_group_offer_count(group); o++, views++)
                if (be_sdk_report_visibility(own, be_offer_group_offer_at(group, o), 1.0) != BE_OK) _exit(3);
        }
        if (!wait_for_impressions(own, views)) _exit(4);
        if (write(channel[1], &views, sizeof views) != (ssize_t)sizeof views) _exit(5);
        for (;;) pause(); /* killed here, its views counted and journaled, none delivered */
    }
    CHECK(child > 0);
    close(channel[1]);
    CHECK(read(channel[0], &counted, sizeof counted) == (ssize_t)sizeof counted);
    close(channel[0]);
    kill(child, SIGKILL);
    CHECK(waitpid(child, &status, 0) == child && WIFSIGNALED(status));
    CHECK(counted >= 3);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK_INT(count_occurrences(events, "viewable_impression"), 0);
    free(events);
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    sdk = start(config);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    /* the sandbox keeps the first copy of each id: as many ids as views, each view once */
    CHECK_INT(count_occurrences(events, "\"type\": \"viewable_impression\""), (int)counted);
    snprintf(needle, sizeof needle, "\"distinct\": %d,", (int)counted);
    CHECK(strstr(events, needle) != NULL);
    free(events);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_beacons_wait_for_a_viewable_impression);
    RUN(test_by_default_appearance_fires_and_a_view_only_records);
    RUN(test_screens_wait_for_a_viewable_impression);
    RUN(test_arguments_and_shutdown);
    RUN(test_views_survive_a_kill);
    return test_finish();
}
