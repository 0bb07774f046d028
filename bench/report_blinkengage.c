/* A feed event report through the C API, each one timed on the caller's thread: the C side of the Swift surface's
 * `SwiftSurfaceBench report` (same user, feed, event type and count).
 *   report_blinkengage ENGAGE_URL COUNT
 * Prints "median_us p99_us count 0". */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include "blinkengage.h"
#include "fetch_common.h"
#include "feed_common.h"

int main(int argc, char **argv) {
    char storage[] = "/tmp/be-report-bench-XXXXXX";
    be_offer_feed *feed;
    be_config *config;
    be_sdk *sdk = NULL;
    be_offer_feed_event *event;
    size_t count, i;
    uint64_t *costs;
    if (!(config = bench_engage_config(argc, argv, storage, &count, &costs))) return 2;
    if (be_sdk_start(config, &sdk) != BE_OK) return 1;
    be_sdk_set_user_identity(sdk, "bench-user");
    if (!(feed = bench_load_feed(sdk))) return 1;
    event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0),
                                               BE_OFFER_FEED_EVENT_DID_TAP);
    for (i = 0; i < count; i++) {
        uint64_t start = bench_now_ns();
        if (be_sdk_report_offer_feed_event(sdk, event) != BE_OK) { fprintf(stderr, "%s\n", be_last_error_message()); return 1; }
        costs[i] = bench_now_ns() - start;
    }
    bench_report(costs, count, (long)count, 0);
    be_offer_feed_event_free(event);
    be_offer_feed_release(feed);
    be_sdk_shutdown(sdk, 0);
    be_config_free(config);
    free(costs);
    return 0;
}
