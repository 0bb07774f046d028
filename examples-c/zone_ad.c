/* zone_ad.c — fetch the legacy one-line ad of a zone, show it if enabled, and record a click.
 *
 *   cc zone_ad.c -o zone_ad $(pkg-config --cflags --libs blinkengage) -lpthread
 *   ./zone_ad ZONE_URL_TEMPLATE [ZONE] [ENGAGE_URL]     e.g. http://host/api/adAPI.php?AdID={zone} 1
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "blinkengage.h"

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int done;
    be_zone_ad *ad; /* retained */
} zone_state;

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    zone_state *state = user_data;
    if (error) {
        fprintf(stderr, "no zone ad: %s (%s %d, HTTP %d)\n", error->message, error->domain, error->code, error->http_status);
    }
    pthread_mutex_lock(&state->lock);
    state->ad = ad ? be_zone_ad_retain(ad) : NULL;
    state->done = 1;
    pthread_cond_signal(&state->changed);
    pthread_mutex_unlock(&state->lock);
}

int main(int argc, char **argv) {
    zone_state state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL};
    const char *zone = argc > 2 ? argv[2] : "1";
    be_config *config;
    be_sdk *sdk = NULL;
    int code = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s ZONE_URL_TEMPLATE [ZONE] [ENGAGE_URL]\n", argv[0]);
        return 2;
    }
    config = be_config_new("demo-key");
    if (!config || be_config_set_zone_ad_url(config, argv[1]) != BE_OK ||
        (argc > 3 && be_config_set_engage_url(config, argv[3]) != BE_OK) || be_sdk_start(config, &sdk) != BE_OK) {
        fprintf(stderr, "cannot start: %s\n", be_last_error_message());
        be_config_free(config);
        return 1;
    }
    be_config_free(config);
    if (be_sdk_fetch_zone_ad(sdk, zone, on_zone_ad, &state) != BE_OK) {
        fprintf(stderr, "fetch refused: %s\n", be_last_error_message());
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }
    pthread_mutex_lock(&state.lock);
    while (!state.done) pthread_cond_wait(&state.changed, &state.lock);
    pthread_mutex_unlock(&state.lock);

    if (!state.ad) {
        code = 1;
    } else if (!be_zone_ad_is_enabled(state.ad)) {
        printf("zone %s: hidden\n", zone);
    } else {
        printf("zone %s: show %s\n", zone, be_zone_ad_image_url(state.ad));
        /* the user clicks: record it first, then open the link */
        if (be_sdk_report_zone_ad_click(sdk, state.ad) != BE_OK) fprintf(stderr, "click not recorded: %s\n", be_last_error_message());
        printf("clicked: open %s\n", be_zone_ad_link_url(state.ad));
    }
    be_zone_ad_release(state.ad);
    be_sdk_shutdown(sdk, 2000);
    return code;
}
