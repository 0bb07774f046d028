/* offer_feed.c — the client-side offer feed as a host uses it: load the feed, lay it out, report what is shown,
 * open a group screen and a details screen, walk them, and shut down cleanly.
 *
 *   cc offer_feed.c -o offer_feed $(pkg-config --cflags --libs blinkengage) -lpthread
 *   ./offer_feed ENGAGE_URL [API_KEY] [USER_ID]
 *
 * Callbacks run in dispatch mode on this thread, as in a game loop or UI thread: the loop polls the SDK's
 * descriptor and calls be_sdk_dispatch().
 */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blinkengage.h"

typedef struct {
    int done;
    be_offer_feed *feed; /* retained in the callback */
    char error[512];
} feed_result;

static const char *or_dash(const char *text) { return text ? text : "-"; }

static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    feed_result *result = user_data;
    result->done = 1;
    if (error) {
        if (strcmp(error->domain, BE_OFFER_FEED_ERROR_DOMAIN) == 0 && error->code == BE_OFFER_FEED_ERROR_NO_USER) {
            snprintf(result->error, sizeof result->error, "no user yet: call be_sdk_set_user_identity first");
        } else if (strcmp(error->domain, BE_OFFER_FEED_ERROR_DOMAIN) == 0) {
            /* error 2: the feed is off for now; show nothing and do not retry in a loop */
            snprintf(result->error, sizeof result->error, "feed unavailable: %s", error->message);
        } else {
            snprintf(result->error, sizeof result->error, "%s %d: %s", error->domain, error->code, error->message);
        }
        return;
    }
    result->feed = be_offer_feed_retain(feed);
}

/* The host's loop: wait for the SDK's descriptor, run what is ready, until `done` or 60 s pass. */
static void run_until(be_sdk *sdk, const int *done) {
    int waited_ms = 0;
    while (!*done && waited_ms < 60000) {
        struct pollfd ready;
        ready.fd = be_sdk_dispatch_fd(sdk);
        ready.events = POLLIN;
        if (poll(&ready, 1, 100) > 0) be_sdk_dispatch(sdk, 0);
        else waited_ms += 100;
    }
}

static void print_screen_offer(const char *what, const be_offer_screen *screen) {
    const be_offer *offer = be_offer_screen_current_offer(screen);
    if (offer) {
        printf("  %-9s [%zu/%zu] %s  [%s] [%s]\n", what, be_offer_screen_index(screen) + 1,
               be_offer_screen_offer_count(screen), be_offer_title(offer), or_dash(be_offer_cta_yes(offer)),
               or_dash(be_offer_cta_no(offer)));
    } else {
        printf("  %-9s finished\n", what);
    }
}

static void report(be_sdk *sdk, be_offer_feed_event *event) {
    if (!event || be_sdk_report_offer_feed_event(sdk, event) != BE_OK) {
        fprintf(stderr, "could not report an event: %s\n", be_last_error_message());
    }
    be_offer_feed_event_free(event);
}

int main(int argc, char **argv) {
    const char *engage_url = argc > 1 ? argv[1] : getenv("BE_ENGAGE_URL");
    const char *api_key = argc > 2 ? argv[2] : "demo-key";
    const char *user = argc > 3 ? argv[3] : "example-user-1";
    char storage[] = "/tmp/blinkengage-example-XXXXXX";
    feed_result result;
    be_config *config;
    be_sdk *sdk = NULL;
    be_offer_screen *screen;
    const be_offer_group *group;
    const char *url;
    size_t g, o;
    be_status status;

    if (!engage_url) {
        fprintf(stderr, "usage: %s ENGAGE_URL [API_KEY] [USER_ID]\n", argv[0]);
        return 2;
    }
    config = be_config_new(api_key);
    if (!config || be_config_set_engage_url(config, engage_url) != BE_OK || !mkdtemp(storage) ||
        be_config_set_storage_dir(config, storage) != BE_OK ||
        be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH) != BE_OK) {
        fprintf(stderr, "bad configuration: %s\n", be_last_error_message());
        be_config_free(config);
        return 1;
    }
    status = be_sdk_start(config, &sdk);
    be_config_free(config);
    if (status != BE_OK) {
        fprintf(stderr, "cannot start: %s\n", be_last_error_message());
        return 1;
    }
    /* First launch: registers in the background; the load below waits for it. */
    if (be_sdk_set_user_identity(sdk, user) != BE_OK) {
        fprintf(stderr, "bad user id: %s\n", be_last_error_message());
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }

    memset(&result, 0, sizeof result);
    if (be_sdk_load_offer_feed(sdk, on_feed, &result) != BE_OK) {
        fprintf(stderr, "load refused: %s\n", be_last_error_message());
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }
    run_until(sdk, &result.done);
    if (!result.feed) {
        fprintf(stderr, "%s\n", result.done ? result.error : "no answer in time");
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }

    /* Lay the feed out, and report every offer the user gets to see. */
    printf("feed %s: %zu group(s)\n", be_offer_feed_id(result.feed), be_offer_feed_group_count(result.feed));
    for (g = 0; g < be_offer_feed_group_count(result.feed); g++) {
        group = be_offer_feed_group_at(result.feed, g);
        printf("\n%s\n", or_dash(be_offer_group_title(group)));
        for (o = 0; o < be_offer_group_offer_count(group); o++) {
            const be_offer *offer = be_offer_group_offer_at(group, o);
            printf("  - %s  (%s)\n", be_offer_title(offer), or_dash(be_offer_field(offer, "advertiser_name")));
            report(sdk, be_offer_feed_event_new_with_offer(offer, BE_OFFER_FEED_EVENT_DID_APPEAR));
        }
    }

    /* "View all" on the first group: report it, then let the SDK screen walk its offers. */
    group = be_offer_feed_group_at(result.feed, 0);
    if (group) {
        printf("\ngroup screen: %s\n", be_offer_group_title(group));
        report(sdk, be_offer_feed_event_new_with_group(group, BE_OFFER_FEED_EVENT_VIEW_ALL));
        screen = be_sdk_offer_group_screen(sdk, group);
        if (screen) {
            print_screen_offer("shows", screen);
            if (be_offer_screen_show_next(screen) == BE_OK) print_screen_offer("next", screen);
            if (be_offer_screen_show_previous(screen) == BE_OK) print_screen_offer("previous", screen);
            if (be_offer_screen_decline(screen) == BE_OK) print_screen_offer("declined", screen);
            url = be_offer_screen_accept(screen);
            printf("  accepted: open %s\n", or_dash(url));
            print_screen_offer("then", screen);
            be_offer_screen_free(screen);
        }
    }

    /* A tap on one offer opens its details screen; the user closes it. */
    group = be_offer_feed_group_at(result.feed, be_offer_feed_group_count(result.feed) - 1);
    if (group && be_offer_group_offer_count(group) > 0) {
        const be_offer *offer = be_offer_group_offer_at(group, 0);
        printf("\ndetails screen: %s\n", be_offer_title(offer));
        report(sdk, be_offer_feed_event_new_with_offer(offer, BE_OFFER_FEED_EVENT_DID_TAP));
        screen = be_sdk_offer_details_screen(sdk, offer);
        if (screen) {
            print_screen_offer("shows", screen);
            if (be_offer_screen_close(screen) == BE_OK) print_screen_offer("closed", screen);
            be_offer_screen_free(screen);
        }
    }

    /* Deliver what was reported before leaving; what is left would go out on the next start. */
    status = be_sdk_flush(sdk, 10000);
    printf("\ntracking: %s\n", status == BE_OK ? "delivered" : be_last_error_message());
    be_offer_feed_release(result.feed);
    be_sdk_shutdown(sdk, 2000);
    return 0;
}
