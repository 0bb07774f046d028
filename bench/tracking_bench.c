/* Tracking at game-loop speed: the cost of one durable report on the caller's thread, and events per second from
 * report to accepted, for BlinkEngage (through its C API) and for a naive tracker that makes one blocking libcurl
 * POST per event, against the same server in the same run.
 *
 *   tracking_bench ENGAGE_URL [EVENTS]
 *
 * Prints a Markdown table (medians, p99, ratio). Run by `make bench`, which starts nginx on a loopback port. */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "blinkengage.h"

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t percentile(uint64_t *values, size_t count, double p) {
    qsort(values, count, sizeof *values, compare);
    return values[(size_t)(p * (double)(count - 1))];
}

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int finished;
    be_offer_feed *feed;
} feed_wait;

static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    feed_wait *wait = user_data;
    if (error) fprintf(stderr, "feed: %s %d: %s\n", error->domain, error->code, error->message);
    pthread_mutex_lock(&wait->lock);
    if (feed) wait->feed = be_offer_feed_retain(feed);
    wait->finished = 1;
    pthread_cond_broadcast(&wait->done);
    pthread_mutex_unlock(&wait->lock);
}

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

int main(int argc, char **argv) {
    const char *url = argc > 1 ? argv[1] : NULL;
    size_t events = argc > 2 ? (size_t)atol(argv[2]) : 5000, i;
    char storage[] = "/tmp/be-bench-XXXXXX", events_url[512], body[512];
    uint64_t *costs, start, end, median, p99;
    double ours_rate, naive_rate;
    be_config *config;
    be_sdk *sdk = NULL;
    feed_wait wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL};
    be_offer_feed_event *event;
    be_stats stats;
    CURL *curl;
    if (!url || !events || !mkdtemp(storage)) {
        fprintf(stderr, "usage: tracking_bench ENGAGE_URL [EVENTS]\n");
        return 2;
    }
    costs = calloc(events, sizeof *costs);

    /* BlinkEngage: a registered user, a feed, then `events` did_tap reports back to back */
    config = be_config_new("bench-key");
    be_config_set_engage_url(config, url);
    be_config_set_storage_dir(config, storage);
    be_config_set_outbox_limits(config, (uint32_t)events * 2, 86400);
    if (be_sdk_start(config, &sdk) != BE_OK) { fprintf(stderr, "start: %s\n", be_last_error_message()); return 1; }
    be_sdk_set_user_identity(sdk, "bench-user");
    be_sdk_load_offer_feed(sdk, on_feed, &wait);
    pthread_mutex_lock(&wait.lock);
    while (!wait.finished) pthread_cond_wait(&wait.done, &wait.lock);
    pthread_mutex_unlock(&wait.lock);
    if (!wait.feed) return 1;
    event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(wait.feed, 0), 0),
                                               BE_OFFER_FEED_EVENT_DID_TAP);
    start = now_ns();
    for (i = 0; i < events; i++) {
        uint64_t before = now_ns();
        if (be_sdk_report_offer_feed_event(sdk, event) != BE_OK) { fprintf(stderr, "report: %s\n", be_last_error_message()); return 1; }
        costs[i] = now_ns() - before;
    }
    do {
        be_sdk_flush(sdk, 600000);
        memset(&stats, 0, sizeof stats);
        stats.struct_size = sizeof stats;
        be_sdk_get_stats(sdk, &stats);
    } while (stats.queue_depth > 0);
    end = now_ns();
    ours_rate = (double)events / ((double)(end - start) / 1e9);
    median = percentile(costs, events, 0.5);
    p99 = percentile(costs, events, 0.99);
    if (stats.events_delivered != events) { fprintf(stderr, "delivered %llu of %zu\n", (unsigned long long)stats.events_delivered, events); return 1; }
    be_offer_feed_event_free(event);
    be_offer_feed_release(wait.feed);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);

    /* the naive tracker: one blocking POST per event on a reused connection */
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl = curl_easy_init();
    snprintf(events_url, sizeof events_url, "%s/v1/events?api_key=bench-key", url);
    curl_easy_setopt(curl, CURLOPT_URL, events_url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    start = now_ns();
    for (i = 0; i < events; i++) {
        uint64_t before = now_ns();
        snprintf(body, sizeof body, "{\"events\":[{\"id\":\"naive-%zu\",\"type\":\"did_tap\",\"feed_id\":\"f\"}]}", i);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        if (curl_easy_perform(curl) != CURLE_OK) { fprintf(stderr, "naive POST failed\n"); return 1; }
        costs[i] = now_ns() - before;
    }
    end = now_ns();
    naive_rate = (double)events / ((double)(end - start) / 1e9);
    curl_easy_cleanup(curl);

    printf("| %zu did_tap events, nginx on loopback | naive tracker | BlinkEngage | ratio |\n|---|---|---|---|\n", events);
    printf("| events per second, report to accepted | %.0f | %.0f | **%.1fx** |\n", naive_rate, ours_rate, ours_rate / naive_rate);
    printf("| one report on the caller's thread, median | %.1f µs | **%.1f µs** | |\n",
           (double)percentile(costs, events, 0.5) / 1000.0, (double)median / 1000.0);
    printf("| one report on the caller's thread, p99 | %.1f µs | **%.1f µs** | |\n",
           (double)percentile(costs, events, 0.99) / 1000.0, (double)p99 / 1000.0);
    free(costs);
    return 0;
}
