/* Shared by the benchmark programs that need a feed first (report_blinkengage.c, visibility_blinkengage.c): loads
 * the feed of the SDK's user and waits for it. */
#ifndef FEED_COMMON_H
#define FEED_COMMON_H
#include <pthread.h>
#include <stdio.h>
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
