/* be_sdk_report_visibility() on the caller's thread, each call timed: a view in progress whose fraction changes
 * every call (0.6, 0.7, ...), as a scrolling host reports it. Beside it in make bench: a feed event report
 * (report_blinkengage), the other way a host says "seen".
 *   visibility_blinkengage ENGAGE_URL COUNT
 * Prints "median_us p99_us count 0"; fails when a timed call allocated on the caller's thread. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include "blinkengage.h"
#include "fetch_common.h"
#include "feed_common.h"
#include "thread_allocations.h"

int main(int argc, char **argv) {
    char storage[] = "/tmp/be-visibility-bench-XXXXXX";
    be_offer_feed *feed;
    be_config *config;
    be_sdk *sdk = NULL;
    const be_offer *offer;
    size_t count, i;
    uint64_t *costs;
    unsigned long allocations;
    if (!(config = bench_engage_config(argc, argv, storage, &count, &costs))) return 2;
    be_config_set_viewability(config, 0.5, 600000); /* the view stays in progress for the whole run */
    if (be_sdk_start(config, &sdk) != BE_OK) return 1;
    be_sdk_set_user_identity(sdk, "bench-user");
    if (!(feed = bench_load_feed(sdk))) return 1;
    offer = be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0);
    if (be_sdk_report_visibility(sdk, offer, 0.55) != BE_OK) return 1; /* the view begins (its check is scheduled) */
    allocations = thread_allocations;
    for (i = 0; i < count; i++) {
        uint64_t start = bench_now_ns();
        if (be_sdk_report_visibility(sdk, offer, i % 2 ? 0.7 : 0.6) != BE_OK) { fprintf(stderr, "%s\n", be_last_error_message()); return 1; }
        costs[i] = bench_now_ns() - start;
    }
    allocations = thread_allocations - allocations;
    bench_report(costs, count, (long)count, 0);
    if (allocations) { fprintf(stderr, "%lu allocations in %zu calls\n", allocations, count); return 1; }
    be_offer_feed_release(feed);
    be_sdk_shutdown(sdk, 0);
    be_config_free(config);
    free(costs);
    return 0;
}
