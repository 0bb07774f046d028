/* Tracking at game-loop speed: the cost of one durable report on the caller's thread, and events per second from
 * report to accepted, for BlinkEngage (through its C API) and for a naive tracker that makes one blocking libcurl
 * POST per event, against the same server in the same run.
 *
 *   tracking_bench ENGAGE_URL [EVENTS [ROUNDS]]
 *
 * The contenders take turns for ROUNDS rounds (default 3), each BlinkEngage round on a fresh storage directory, so
 * a noisy moment of the machine hits both. Prints a Markdown table: the median round's rate, the range of rounds,
 * and the median and p99 of every report of every round. Run by `make bench`, which starts nginx on a loopback
 * port. */
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

/* One BlinkEngage round: a registered user, a feed, then `events` did_tap reports back to back (each timed into
 * `costs`), then flushes until the server accepted all of them. Returns events per second, or 0 on failure. */
static double run_ours(const char *url, size_t events, uint64_t *costs) {
    char storage[] = "/tmp/be-bench-XXXXXX";
    uint64_t start, end;
    size_t i;
    be_config *config;
    be_sdk *sdk = NULL;
    feed_wait wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL};
    be_offer_feed_event *event;
    be_stats stats;
    if (!mkdtemp(storage)) return 0;
    config = be_config_new("bench-key");
    be_config_set_engage_url(config, url);
    be_config_set_storage_dir(config, storage);
    be_config_set_outbox_limits(config, (uint32_t)events * 2, 86400);
    if (be_sdk_start(config, &sdk) != BE_OK) { fprintf(stderr, "start: %s\n", be_last_error_message()); return 0; }
    be_sdk_set_user_identity(sdk, "bench-user");
    be_sdk_load_offer_feed(sdk, on_feed, &wait);
    pthread_mutex_lock(&wait.lock);
    while (!wait.finished) pthread_cond_wait(&wait.done, &wait.lock);
    pthread_mutex_unlock(&wait.lock);
    if (!wait.feed) return 0;
    event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(wait.feed, 0), 0),
                                               BE_OFFER_FEED_EVENT_DID_TAP);
    start = now_ns();
    for (i = 0; i < events; i++) {
        uint64_t before = now_ns();
        if (be_sdk_report_offer_feed_event(sdk, event) != BE_OK) { fprintf(stderr, "report: %s\n", be_last_error_message()); return 0; }
        costs[i] = now_ns() - before;
    }
    do {
        be_sdk_flush(sdk, 600000);
        memset(&stats, 0, sizeof stats);
        stats.struct_size = sizeof stats;
        be_sdk_get_stats(sdk, &stats);
    } while (stats.queue_depth > 0);
    end = now_ns();
    if (stats.events_delivered != events) {
        fprintf(stderr, "delivered %llu of %zu\n", (unsigned long long)stats.events_delivered, events);
        return 0;
    }
    be_offer_feed_event_free(event);
    be_offer_feed_release(wait.feed);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    return (double)events / ((double)(end - start) / 1e9);
}

/* One round of the naive tracker: one blocking POST per event on a reused connection. */
static double run_naive(const char *url, size_t events, uint64_t *costs) {
    char events_url[512], body[512];
    uint64_t start, end;
    size_t i;
    CURL *curl = curl_easy_init();
    if (!curl) return 0;
    snprintf(events_url, sizeof events_url, "%s/v1/events?api_key=bench-key", url);
    curl_easy_setopt(curl, CURLOPT_URL, events_url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    start = now_ns();
    for (i = 0; i < events; i++) {
        uint64_t before = now_ns();
        snprintf(body, sizeof body, "{\"events\":[{\"id\":\"naive-%zu\",\"type\":\"did_tap\",\"feed_id\":\"f\"}]}", i);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        if (curl_easy_perform(curl) != CURLE_OK) { fprintf(stderr, "naive POST failed\n"); return 0; }
        costs[i] = now_ns() - before;
    }
    end = now_ns();
    curl_easy_cleanup(curl);
    return (double)events / ((double)(end - start) / 1e9);
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    const char *url = argc > 1 ? argv[1] : NULL;
    size_t events = argc > 2 ? (size_t)atol(argv[2]) : 5000, rounds = argc > 3 ? (size_t)atol(argv[3]) : 3, r;
    uint64_t *ours_costs, *naive_costs;
    double *ours_rates, *naive_rates, ours_rate, naive_rate;
    if (!url || !events || !rounds) {
        fprintf(stderr, "usage: tracking_bench ENGAGE_URL [EVENTS [ROUNDS]]\n");
        return 2;
    }
    ours_costs = calloc(events * rounds, sizeof *ours_costs);
    naive_costs = calloc(events * rounds, sizeof *naive_costs);
    ours_rates = calloc(rounds, sizeof *ours_rates);
    naive_rates = calloc(rounds, sizeof *naive_rates);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    for (r = 0; r < rounds; r++) {
        ours_rates[r] = run_ours(url, events, ours_costs + r * events);
        naive_rates[r] = run_naive(url, events, naive_costs + r * events);
        if (ours_rates[r] <= 0 || naive_rates[r] <= 0) return 1;
    }
    qsort(ours_rates, rounds, sizeof *ours_rates, compare_double);
    qsort(naive_rates, rounds, sizeof *naive_rates, compare_double);
    ours_rate = ours_rates[rounds / 2];
    naive_rate = naive_rates[rounds / 2];

    printf("| %zu did_tap events, nginx on loopback, %zu rounds each, taking turns | naive tracker | BlinkEngage | ratio |\n"
           "|---|---|---|---|\n", events, rounds);
    printf("| events per second, report to accepted (median round) | %.0f | %.0f | **%.1fx** |\n", naive_rate, ours_rate,
           ours_rate / naive_rate);
    printf("| events per second, slowest to fastest round | %.0f–%.0f | %.0f–%.0f | |\n", naive_rates[0],
           naive_rates[rounds - 1], ours_rates[0], ours_rates[rounds - 1]);
    printf("| one report on the caller's thread, median | %.1f µs | **%.1f µs** | |\n",
           (double)percentile(naive_costs, events * rounds, 0.5) / 1000.0, (double)percentile(ours_costs, events * rounds, 0.5) / 1000.0);
    printf("| one report on the caller's thread, p99 | %.1f µs | **%.1f µs** | |\n",
           (double)percentile(naive_costs, events * rounds, 0.99) / 1000.0, (double)percentile(ours_costs, events * rounds, 0.99) / 1000.0);
    free(ours_costs);
    free(naive_costs);
    free(ours_rates);
    free(naive_rates);
    return 0;
}
