/* The round trips a user waits for, through BlinkEngage: one scenario of issue "Offers at checkout in one round
 * trip" per run, against the sandbox over TLS behind bench/latency_proxy.py.
 *   roundtrip_blinkengage SCENARIO BASE_URL CA_FILE STORAGE_ROOT
 * SCENARIO: moments-at-start, moments-at-checkout, moments-at-checkout-cold (be_config_set_warm_up_at_start() off),
 * feed-first-start, feed-later-start, images-20, events-500, did-appear-3-hosts (the event and both pixels of
 * one did_appear, each on a host of its own, until all are accepted).
 * Prints "milliseconds requests_sent" (the time of the scenario's measured span, the SDK's request count). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include "blinkengage.h"
#include "fetch_common.h"

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int calls, failures;
} waiter;

static waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static be_offer_feed *feed;

static void record(const be_error *error) {
    pthread_mutex_lock(&w.lock);
    if (error) {
        w.failures++;
        fprintf(stderr, "%s %d: %s\n", error->domain, error->code, error->message);
    }
    w.calls++;
    pthread_cond_broadcast(&w.done);
    pthread_mutex_unlock(&w.lock);
}
static void on_moments(be_moments_response *response, const be_error *error, void *user_data) {
    (void)response, (void)user_data;
    record(error);
}
static void on_feed(be_offer_feed *loaded, const be_error *error, void *user_data) {
    (void)user_data;
    if (loaded) feed = be_offer_feed_retain(loaded);
    record(error);
}
static void on_image(be_image *image, const be_error *error, void *user_data) {
    (void)image, (void)user_data;
    record(error);
}
static void wait_for(int calls) {
    pthread_mutex_lock(&w.lock);
    while (w.calls < calls) pthread_cond_wait(&w.done, &w.lock);
    pthread_mutex_unlock(&w.lock);
}

static be_sdk *start_with(const char *base, const char *ca, const char *storage, int warm_up_at_start) {
    char url[600];
    be_config *config = be_config_new("demo-key");
    be_sdk *sdk = NULL;
    be_config_set_warm_up_at_start(config, warm_up_at_start);
    snprintf(url, sizeof url, "%s/native/v4", base);
    be_config_set_moments_url(config, url);
    be_config_set_engage_url(config, base);
    be_config_set_ca_file(config, ca);
    be_config_set_storage_dir(config, storage);
    if (be_sdk_start(config, &sdk) != BE_OK) {
        fprintf(stderr, "start: %s\n", be_last_error_message());
        exit(1);
    }
    be_config_free(config);
    return sdk;
}

static be_sdk *start(const char *base, const char *ca, const char *storage) { return start_with(base, ca, storage, 1); }

static uint64_t requests(be_sdk *sdk) {
    be_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    be_sdk_get_stats(sdk, &stats);
    return stats.requests_sent;
}

static void fetch(be_sdk *sdk) {
    be_moments_request *request = be_moments_request_new();
    be_moments_request_set_payload(request, "placement", "checkout");
    if (be_sdk_fetch_moments_offers(sdk, request, on_moments, NULL) != BE_OK) exit(1);
    be_moments_request_free(request);
}

int main(int argc, char **argv) {
    const char *scenario, *base, *ca, *storage;
    be_sdk *sdk;
    uint64_t started, elapsed;
    int i;
    if (argc < 5) return 2;
    scenario = argv[1], base = argv[2], ca = argv[3], storage = argv[4];
    started = bench_now_ns();
    if (strcmp(scenario, "moments-at-start") == 0) {
        sdk = start(base, ca, storage);
        fetch(sdk);
        wait_for(1);
    } else if (strcmp(scenario, "moments-at-checkout") == 0 || strcmp(scenario, "moments-at-checkout-cold") == 0) {
        struct timespec app = {2, 0};
        sdk = start_with(base, ca, storage, strcmp(scenario, "moments-at-checkout") == 0);
        nanosleep(&app, NULL); /* the app runs; the SDK had time */
        started = bench_now_ns();
        fetch(sdk);
        wait_for(1);
    } else if (strcmp(scenario, "feed-first-start") == 0 || strcmp(scenario, "feed-later-start") == 0) {
        sdk = start(base, ca, storage);
        be_sdk_set_user_identity(sdk, "roundtrip-user");
        be_sdk_load_offer_feed(sdk, on_feed, NULL);
        wait_for(1);
    } else if (strcmp(scenario, "images-20") == 0) {
        sdk = start(base, ca, storage);
        for (i = 0; i < 20; i++) {
            char url[700];
            snprintf(url, sizeof url, "%s/cdn/c/%d.png", base, 9000 + i);
            if (be_sdk_fetch_image(sdk, url, on_image, NULL) != BE_OK) return 1;
        }
        wait_for(20);
    } else if (strcmp(scenario, "did-appear-3-hosts") == 0) {
        be_offer_feed_event *event;
        sdk = start(base, ca, storage);
        be_sdk_set_user_identity(sdk, "roundtrip-user");
        be_sdk_load_offer_feed(sdk, on_feed, NULL);
        wait_for(1);
        if (!feed) return 1;
        started = bench_now_ns();
        event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0),
                                                   BE_OFFER_FEED_EVENT_DID_APPEAR);
        be_sdk_report_offer_feed_event(sdk, event);
        be_offer_feed_event_free(event);
        if (be_sdk_flush(sdk, 60000) != BE_OK) return 1;
    } else if (strcmp(scenario, "events-500") == 0) {
        /* 500 events over 10 s after a feed load, then all of them accepted (a flush) */
        struct timespec gap = {0, 20000000};
        uint64_t before;
        sdk = start(base, ca, storage);
        be_sdk_set_user_identity(sdk, "roundtrip-user");
        be_sdk_load_offer_feed(sdk, on_feed, NULL);
        wait_for(1);
        if (!feed) return 1;
        before = requests(sdk);
        started = bench_now_ns();
        for (i = 0; i < 500; i++) {
            be_offer_feed_event *event = be_offer_feed_event_new_with_offer(
                be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0), BE_OFFER_FEED_EVENT_DID_TAP);
            be_sdk_report_offer_feed_event(sdk, event);
            be_offer_feed_event_free(event);
            nanosleep(&gap, NULL);
        }
        if (be_sdk_flush(sdk, 60000) != BE_OK) return 1;
        elapsed = bench_now_ns() - started;
        printf("%.1f %llu\n", (double)elapsed / 1e6, (unsigned long long)(requests(sdk) - before));
        be_sdk_shutdown(sdk, 1000);
        return 0;
    } else {
        return 2;
    }
    elapsed = bench_now_ns() - started;
    if (w.failures) return 1;
    printf("%.1f %llu\n", (double)elapsed / 1e6, (unsigned long long)requests(sdk));
    be_sdk_shutdown(sdk, 1000);
    return 0;
}
