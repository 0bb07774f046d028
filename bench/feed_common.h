/* Shared by the benchmark programs that report about a feed's offer (report_blinkengage.c,
 * visibility_blinkengage.c): their arguments, their configuration, and the feed load they wait for. */
#ifndef FEED_COMMON_H
#define FEED_COMMON_H
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "blinkengage.h"

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    be_offer_feed *feed;
    int finished;
} bench_feed_wait;

static void bench_on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    bench_feed_wait *wait = user_data;
    if (error) fprintf(stderr, "feed: %s\n", error->message);
    pthread_mutex_lock(&wait->lock);
    wait->feed = feed ? be_offer_feed_retain(feed) : NULL;
    wait->finished = 1;
    pthread_cond_signal(&wait->done);
    pthread_mutex_unlock(&wait->lock);
}

/* "ENGAGE_URL COUNT": the configuration (Engage at ENGAGE_URL, storage in a new directory made from `storage`,
 * a mkdtemp template), the count and `count` zeroed timings into `*costs`; NULL for bad arguments. */
static be_config *bench_engage_config(int argc, char **argv, char *storage, size_t *count, uint64_t **costs) {
    be_config *config;
    if (argc < 3 || !mkdtemp(storage)) return NULL;
    *count = (size_t)atol(argv[2]);
    if (*count == 0 || !(*costs = calloc(*count, sizeof **costs))) return NULL;
    config = be_config_new("bench-key");
    be_config_set_engage_url(config, argv[1]);
    be_config_set_storage_dir(config, storage);
    return config;
}

/* The feed of `sdk`'s user (retained: release it), or NULL when the load failed. */
static be_offer_feed *bench_load_feed(be_sdk *sdk) {
    bench_feed_wait wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0};
    if (be_sdk_load_offer_feed(sdk, bench_on_feed, &wait) != BE_OK) return NULL;
    pthread_mutex_lock(&wait.lock);
    while (!wait.finished) pthread_cond_wait(&wait.done, &wait.lock);
    pthread_mutex_unlock(&wait.lock);
    return wait.feed;
}
#endif
