/* moments_offers.c — fetch personalised offers for a placement and print them with their styles.
 *
 *   cc moments_offers.c -o moments_offers $(pkg-config --cflags --libs blinkengage) -lpthread
 *   ./moments_offers [MOMENTS_URL] [API_KEY] [PLACEMENT]
 *
 * MOMENTS_URL defaults to $BE_MOMENTS_URL, else the production service. Every error path is handled: a bad
 * configuration, an SDK that cannot start, a fetch that is refused, and each error a fetch can report.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blinkengage.h"

/* The callback runs on the SDK's callback thread; main waits for it on this condition. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done_changed;
    int done;
    int exit_code;
} fetch_state;

static const char *or_dash(const char *text) { return text ? text : "-"; }

static void print_offers(const be_moments_response *response) {
    size_t i, count = be_moments_response_offer_count(response);
    static const char *const styles[] = {
        "header.text", "popup.background", "offerText.textColor", "offerText.buttonYes.background",
        "offerText.buttonYes.color", "offerText.buttonNo.background", "settings.show_close",
    };

    printf("%zu offer%s\n", count, count == 1 ? "" : "s");
    for (i = 0; i < count; i++) {
        const be_offer *offer = be_moments_response_offer_at(response, i);
        printf("\n[%zu] offer %s: %s\n", i + 1, be_offer_id(offer), or_dash(be_offer_title(offer)));
        printf("    %s\n", or_dash(be_offer_description(offer)));
        printf("    advertiser: %s\n", or_dash(be_offer_field(offer, "advertiser_name")));
        printf("    image:      %s\n", or_dash(be_offer_image_url(offer)));
        printf("    buttons:    [%s] [%s]\n", or_dash(be_offer_cta_yes(offer)), or_dash(be_offer_cta_no(offer)));
        printf("    opens:      %s\n", or_dash(be_offer_click_url(offer)));
    }
    printf("\nstyles\n");
    for (i = 0; i < sizeof styles / sizeof styles[0]; i++) {
        printf("    %-32s %s\n", styles[i], or_dash(be_moments_response_style(response, styles[i])));
    }
    printf("privacy: %s\n", or_dash(be_moments_response_privacy_url(response)));
}

static void on_offers(be_moments_response *response, const be_error *error, void *user_data) {
    fetch_state *state = user_data;
    int code = 0;

    if (error) {
        /* Domains are compared by content, never by pointer. */
        if (strcmp(error->domain, BE_MOMENTS_ERROR_DOMAIN) == 0 && error->code == BE_MOMENTS_ERROR_NO_OFFERS) {
            printf("no offers for this placement right now\n"); /* not a failure: show nothing */
        } else if (strcmp(error->domain, BE_CANCELLED_ERROR_DOMAIN) == 0) {
            fprintf(stderr, "cancelled: the SDK shut down first\n");
            code = 1;
        } else if (error->http_status != 0) {
            fprintf(stderr, "the service answered %d: %s (%s %d)\n", error->http_status, error->message, error->domain,
                    error->code);
            code = 1;
        } else {
            fprintf(stderr, "could not fetch offers: %s (%s %d)\n", error->message, error->domain, error->code);
            code = 1;
        }
    } else {
        print_offers(response); /* borrowed: be_moments_response_retain() would keep it after we return */
    }

    pthread_mutex_lock(&state->lock);
    state->done = 1;
    state->exit_code = code;
    pthread_cond_signal(&state->done_changed);
    pthread_mutex_unlock(&state->lock);
}

static void on_log(be_log_level level, const char *message, void *user_data) {
    static const char *const names[] = {"debug", "info", "warning", "error"};
    (void)user_data;
    fprintf(stderr, "blinkengage %s: %s\n", names[level], message);
}

int main(int argc, char **argv) {
    const char *url = argc > 1 ? argv[1] : getenv("BE_MOMENTS_URL");
    const char *api_key = argc > 2 ? argv[2] : "demo-key";
    const char *placement = argc > 3 ? argv[3] : "checkout";
    fetch_state state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    be_config *config;
    be_sdk *sdk = NULL;
    be_moments_request *request;
    be_status status;

    printf("libblinkengage %s\n", be_version());
    config = be_config_new(api_key);
    if (!config) {
        fprintf(stderr, "bad API key: %s\n", be_last_error_message());
        return 1;
    }
    if ((url && be_config_set_moments_url(config, url) != BE_OK) ||
        be_config_set_log_handler(config, on_log, BE_LOG_WARNING, NULL) != BE_OK) {
        fprintf(stderr, "bad configuration: %s\n", be_last_error_message());
        be_config_free(config);
        return 1;
    }
    status = be_sdk_start(config, &sdk);
    be_config_free(config); /* the SDK keeps its own copy */
    if (status != BE_OK) {
        fprintf(stderr, "cannot start: %s: %s\n", be_status_string(status), be_last_error_message());
        return 1;
    }

    request = be_moments_request_new();
    if (!request || be_moments_request_set_payload(request, "placement", placement) != BE_OK ||
        be_moments_request_set_payload(request, "adpx_fp", "example-user-fingerprint") != BE_OK) {
        fprintf(stderr, "bad request: %s\n", be_last_error_message());
        be_moments_request_free(request);
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }
    status = be_sdk_fetch_moments_offers(sdk, request, on_offers, &state);
    be_moments_request_free(request); /* the fetch keeps its own copy */
    if (status != BE_OK) {
        /* The callback will never run. */
        fprintf(stderr, "fetch refused: %s: %s\n", be_status_string(status), be_last_error_message());
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }

    pthread_mutex_lock(&state.lock);
    while (!state.done) pthread_cond_wait(&state.done_changed, &state.lock);
    pthread_mutex_unlock(&state.lock);

    be_sdk_shutdown(sdk, 2000);
    return state.exit_code;
}
