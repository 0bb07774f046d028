/* BlinkEngage through its C API, from a C host in dispatch mode (callbacks on this thread): fetch, then read
 * every field of every offer the API exposes; nested containers (beacons, creatives, tags) through
 * be_offer_json, as a host wanting them would. With "dispatch-io" the fetches' I/O runs in be_sdk_dispatch
 * too (BE_FETCH_IO_ON_DISPATCH); without it, on the SDK's transport thread. With "sdk-callbacks" the callbacks
 * and the fetches' I/O run on the SDK's callback thread (the default mode), and this one waits on a condition
 * variable (what an `await` does).
 *   fetch_blinkengage MOMENTS_URL CALLS [dispatch-io | sdk-callbacks] */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include "blinkengage.h"
#include "fetch_common.h"

static const char *const scalar_keys[] = {
    "campaign_id", "mini_text", "pixel", "adv_pixel_url", "useraction_cta", "useraction_url", "short_headline",
    "short_description", "advertiser_name", "is_loyaltyboost", "loyaltyboost_requirements", "save_for_later_url",
    "offer_description", "offerwall_url", "qr_code_img",
};

typedef struct {
    int done;
    long offers;
    unsigned long long sum;
    pthread_mutex_t lock; /* sdk-callbacks only */
    pthread_cond_t finished;
} result;

static size_t length(const char *text) { return text ? strlen(text) : 0; }

static void on_offers(be_moments_response *response, const be_error *error, void *user_data) {
    result *r = user_data;
    size_t i, k;
    if (error || !response) { fprintf(stderr, "fetch: %s\n", error ? error->message : "?"); exit(1); }
    r->offers = (long)be_moments_response_offer_count(response);
    for (i = 0; i < (size_t)r->offers; i++) {
        const be_offer *offer = be_moments_response_offer_at(response, i);
        r->sum += length(be_offer_id(offer)) + length(be_offer_title(offer)) + length(be_offer_description(offer)) +
                  length(be_offer_image_url(offer)) + length(be_offer_click_url(offer)) + length(be_offer_cta_yes(offer)) +
                  length(be_offer_cta_no(offer)) + length(be_offer_terms_html(offer));
        for (k = 0; k < sizeof scalar_keys / sizeof *scalar_keys; k++) r->sum += length(be_offer_field(offer, scalar_keys[k]));
        r->sum += length(be_offer_json(offer));
    }
    pthread_mutex_lock(&r->lock);
    r->done = 1;
    pthread_cond_signal(&r->finished);
    pthread_mutex_unlock(&r->lock);
}

int main(int argc, char **argv) {
    be_config *config;
    be_sdk *sdk = NULL;
    be_moments_request *request;
    char storage[] = "/tmp/be-fetch-bench-XXXXXX";
    size_t calls, i;
    uint64_t *costs;
    result r = {0, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    int on_sdk_thread;
    if (argc < 3 || !mkdtemp(storage)) return 2;
    calls = (size_t)atol(argv[2]);
    costs = calloc(calls, sizeof *costs);
    config = be_config_new("bench-key");
    be_config_set_moments_url(config, argv[1]);
    be_config_set_storage_dir(config, storage);
    on_sdk_thread = argc > 3 && strcmp(argv[3], "sdk-callbacks") == 0;
    be_config_set_callback_mode(config, on_sdk_thread ? BE_CALLBACKS_ON_SDK_THREAD : BE_CALLBACKS_ON_DISPATCH);
    if (argc > 3 && strcmp(argv[3], "dispatch-io") == 0) be_config_set_fetch_io(config, BE_FETCH_IO_ON_DISPATCH);
    if (be_sdk_start(config, &sdk) != BE_OK) return 1;
    request = be_moments_request_new();
    be_moments_request_set_payload(request, "placement", "checkout");
    for (i = 0; i < calls; i++) {
        uint64_t start = bench_now_ns();
        struct pollfd ready = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        r.done = 0;
        if (be_sdk_fetch_moments_offers(sdk, request, on_offers, &r) != BE_OK) return 1;
        if (on_sdk_thread) {
            pthread_mutex_lock(&r.lock);
            while (!r.done) pthread_cond_wait(&r.finished, &r.lock);
            pthread_mutex_unlock(&r.lock);
        }
        while (!r.done) {
            poll(&ready, 1, 1000);
            be_sdk_dispatch(sdk, 0);
        }
        costs[i] = bench_now_ns() - start;
    }
    bench_report(costs, calls, r.offers, r.sum);
    be_moments_request_free(request);
    be_sdk_shutdown(sdk, 0);
    be_config_free(config);
    free(costs);
    return 0;
}
