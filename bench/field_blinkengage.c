/* One offer field read through the C API (be_offer_field(offer, "title") of a fetched offer), the C side of the
 * bindings' field-read benchmark: batches of 1,000 reads, each batch timed, reported per read.
 *   field_blinkengage MOMENTS_URL BATCHES
 * Prints "median_us p99_us offers checksum", the times per read in microseconds to three places. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <string.h>
#include "blinkengage.h"
#include "fetch_common.h"

static be_moments_response *fetched;

static void on_offers(be_moments_response *response, const be_error *error, void *user_data) {
    (void)user_data;
    if (error) { fprintf(stderr, "fetch: %s\n", error->message); exit(1); }
    fetched = be_moments_response_retain(response);
}

int main(int argc, char **argv) {
    char storage[] = "/tmp/be-field-bench-XXXXXX";
    be_config *config;
    be_sdk *sdk = NULL;
    be_moments_request *request;
    const be_offer *offer;
    size_t batches, i, k;
    uint64_t *costs;
    unsigned long long sum = 0;
    if (argc < 3 || !mkdtemp(storage)) return 2;
    batches = (size_t)atol(argv[2]);
    if (batches == 0 || !(costs = calloc(batches, sizeof *costs))) return 2;
    config = be_config_new("bench-key");
    be_config_set_moments_url(config, argv[1]);
    be_config_set_storage_dir(config, storage);
    be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH);
    if (be_sdk_start(config, &sdk) != BE_OK) return 1;
    request = be_moments_request_new();
    be_moments_request_set_payload(request, "placement", "checkout");
    if (be_sdk_fetch_moments_offers(sdk, request, on_offers, NULL) != BE_OK) return 1;
    while (!fetched) {
        struct pollfd ready = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        poll(&ready, 1, 1000);
        be_sdk_dispatch(sdk, 0);
    }
    offer = be_moments_response_offer_at(fetched, 0);
    for (i = 0; i < batches; i++) {
        uint64_t start = bench_now_ns();
        for (k = 0; k < 1000; k++) sum += strlen(be_offer_field(offer, "title"));
        costs[i] = bench_now_ns() - start; /* ns per 1,000 reads: ps per read */
    }
    qsort(costs, batches, sizeof *costs, bench_compare);
    printf("%.3f %.3f %ld %llu\n", (double)costs[batches / 2] / 1e6, (double)costs[(size_t)(0.99 * (double)(batches - 1))] / 1e6,
           (long)be_moments_response_offer_count(fetched), sum);
    be_moments_response_release(fetched);
    be_moments_request_free(request);
    be_sdk_shutdown(sdk, 0);
    be_config_free(config);
    free(costs);
    return 0;
}
