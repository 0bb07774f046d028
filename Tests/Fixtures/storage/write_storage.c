/* Queues reports, an identity, a feed cache and an image with a real earlier release of the library, then stops
 * with everything still owed: the storage directory it leaves is what an app updating from that release carries.
 * Built by scripts/make-storage-fixtures.sh against that release's header and library; the same source serves
 * 0.1.0 and 0.2.0 (what only 0.2.0 has is under BE_VERSION_MINOR >= 2). Prints the manifest as JSON.
 *
 * usage: write_storage STORAGE_ROOT SANDBOX_URL */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blinkengage.h>

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int calls, failed;
    be_offer_feed *feed;
    be_moments_response *response;
} waiter;

static waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL};

static void finished(int failed) {
    pthread_mutex_lock(&w.lock);
    w.calls++;
    w.failed |= failed;
    pthread_cond_broadcast(&w.done);
    pthread_mutex_unlock(&w.lock);
}

static void wait_calls(int calls) {
    pthread_mutex_lock(&w.lock);
    while (w.calls < calls) pthread_cond_wait(&w.done, &w.lock);
    pthread_mutex_unlock(&w.lock);
    if (w.failed) { fprintf(stderr, "a request failed: %s\n", be_last_error_message()); exit(1); }
}

static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    (void)user_data;
    if (error) fprintf(stderr, "feed: %s\n", error->message);
    if (feed) w.feed = be_offer_feed_retain(feed);
    finished(error != NULL);
}

static void on_moments(be_moments_response *response, const be_error *error, void *user_data) {
    (void)user_data;
    if (error) fprintf(stderr, "moments: %s\n", error->message);
    if (response) w.response = be_moments_response_retain(response);
    finished(error != NULL);
}

#if BE_VERSION_MINOR >= 2
static void on_image(be_image *image, const be_error *error, void *user_data) {
    (void)image;
    (void)user_data;
    if (error) fprintf(stderr, "image: %s\n", error->message);
    finished(error != NULL);
}
#endif

static void check(be_status status, const char *what) {
    if (status != BE_OK) { fprintf(stderr, "%s: %s\n", what, be_last_error_message()); exit(1); }
}

int main(int argc, char **argv) {
    char url[512], image_url[512] = "";
    be_config *config;
    be_sdk *sdk = NULL;
    be_moments_request *request;
    be_offer_screen *screen;
    be_stats stats;
    size_t i, events = 0;
    if (argc != 3) { fprintf(stderr, "usage: write_storage STORAGE_ROOT SANDBOX_URL\n"); return 2; }
    config = be_config_new("demo-key");
    snprintf(url, sizeof url, "%s/native/v4", argv[2]);
    check(be_config_set_moments_url(config, url), "moments url");
    check(be_config_set_engage_url(config, argv[2]), "engage url");
    check(be_config_set_storage_dir(config, argv[1]), "storage dir");
#if BE_VERSION_MINOR >= 2
    check(be_config_set_feed_cache(config, 30u * 86400u), "feed cache");
#endif
    check(be_sdk_start(config, &sdk), "start");
    check(be_sdk_set_user_identity(sdk, "fixture-user"), "identity");
    check(be_sdk_load_offer_feed(sdk, on_feed, NULL), "feed");
    wait_calls(1);
    request = be_moments_request_new();
    check(be_moments_request_set_payload(request, "placement", "checkout"), "payload");
    check(be_sdk_fetch_moments_offers(sdk, request, on_moments, NULL), "moments");
    wait_calls(2);
    /* beacons: each offer shown is an impression, the last one closed */
    screen = be_sdk_moments_screen(sdk, w.response);
    if (!screen) { fprintf(stderr, "no screen\n"); return 1; }
    while (be_offer_screen_has_next(screen)) check(be_offer_screen_show_next(screen), "next");
    check(be_offer_screen_close(screen), "close");
    be_offer_screen_free(screen);
    /* events: every offer of the feed appeared, its first group was opened whole */
    for (i = 0; i < be_offer_feed_group_count(w.feed); i++) {
        const be_offer_group *group = be_offer_feed_group_at(w.feed, i);
        size_t j;
        for (j = 0; j < be_offer_group_offer_count(group); j++) {
            be_offer_feed_event *event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(group, j),
                                                                            BE_OFFER_FEED_EVENT_DID_APPEAR);
            check(be_sdk_report_offer_feed_event(sdk, event), "event");
            be_offer_feed_event_free(event);
            events++;
        }
        if (i == 0) {
            be_offer_feed_event *event = be_offer_feed_event_new_with_group(group, BE_OFFER_FEED_EVENT_VIEW_ALL);
            check(be_sdk_report_offer_feed_event(sdk, event), "group event");
            be_offer_feed_event_free(event);
            events++;
        }
    }
#if BE_VERSION_MINOR >= 2
    /* fresh for ten years: a later start answers it from the disk cache, whatever port the sandbox has then */
    snprintf(image_url, sizeof image_url, "%s/cdn/fixture.png?cache=max-age%%3D315360000", argv[2]);
    check(be_sdk_fetch_image(sdk, image_url, on_image, NULL), "image");
    wait_calls(3);
#endif
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    check(be_sdk_get_stats(sdk, &stats), "stats");
    printf("{\"version\": \"%s\", \"identity\": \"fixture-user\", \"feed_id\": \"%s\", \"events\": %zu, "
           "\"beacons\": %llu, \"queued\": %llu, \"delivered\": %llu, \"image_url\": \"%s\"}\n",
           be_version(), be_offer_feed_id(w.feed), events, (unsigned long long)stats.beacons_queued,
           (unsigned long long)stats.queue_depth,
           (unsigned long long)(stats.beacons_delivered + stats.events_delivered), image_url);
    be_offer_feed_release(w.feed);
    be_moments_response_release(w.response);
    be_moments_request_free(request);
    be_sdk_shutdown(sdk, 0); /* everything still owed stays on disk */
    be_config_free(config);
    return 0;
}
