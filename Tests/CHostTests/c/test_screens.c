/* SDK screens and feed events through the C API: the exact beacons the sandbox receives for each move, stale
 * entry points, and the events (ids, types, feed id, positions) after the host reorders and filters. */
#include "test_support.h"

static be_config *config;
static be_sdk *sdk;

static void start_with_user(const char *user) {
    config = sandbox_config("demo-key");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, user), BE_OK);
}

static void stop(void) {
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

static be_offer_feed *load_feed(void) {
    test_result r;
    be_offer_feed *feed;
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    if (r.has_error) fprintf(stderr, "feed load failed: %s %d: %s\n", r.domain, r.code, r.message);
    CHECK(!r.has_error);
    feed = be_offer_feed_retain(r.feed);
    test_result_dispose(&r);
    return feed;
}

/* The beacons the sandbox received since the last reset, as "path?query" lines with every cache-buster
 * replaced by "N", in arrival order (one host: one at a time, in queue order). Free the result. */
static char *received_beacons(void) {
    char *requests, *out, *p;
    size_t used = 0, capacity = 8192;
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    requests = sandbox_requests();
    out = calloc(capacity, 1);
    for (p = strstr(requests, "\"path\": \"/b/"); p; p = strstr(p + 1, "\"path\": \"/b/")) {
        const char *path = p + 9, *path_end = strchr(path, '"');
        const char *query = strstr(p, "\"raw_query\": \"") + 14, *query_end = strchr(query, '"');
        char line[1024];
        int n = snprintf(line, sizeof line, "%.*s?%.*s\n", (int)(path_end - path), path, (int)(query_end - query), query);
        char *digits;
        /* cbuster=123 and cb=123 become cbuster=N and cb=N */
        for (digits = strstr(line, "cb"); digits; digits = strstr(digits + 1, "cb")) {
            char *eq = strchr(digits, '=');
            if (eq && (eq - digits == 2 || eq - digits == 7) && eq[1] >= '0' && eq[1] <= '9') {
                char *end = eq + 1;
                while (*end >= '0' && *end <= '9') end++;
                memmove(eq + 2, end, strlen(end) + 1);
                eq[1] = 'N';
            }
        }
        n = (int)strlen(line);
        if (used + (size_t)n + 1 > capacity) break;
        memcpy(out + used, line, (size_t)n + 1);
        used += (size_t)n;
    }
    free(requests);
    return out;
}

#define PIXEL(id, sess) "/b/track/sdk/v2/impression/p.png?o_id=" id "&sess_id=" sess "&cbuster=N\n"
#define ADV(id) "/b/adv/imp?o=" id "&cb=N\n"
#define CLOSE(id, sess) "/b/track/event/record/close?o_id=" id "&sess_id=" sess "\n"
#define NO_THANKS(id, sess) "/b/track/event/record/no_thanks_click?o_id=" id "&sess_id=" sess "\n"

static void test_group_screen_fires_the_exact_beacons(void) {
    be_offer_feed *feed;
    be_offer_screen *screen;
    char *beacons;
    const char *url;
    start_with_user("screen-user");
    feed = load_feed();
    sandbox_reset();
    screen = be_sdk_offer_group_screen(sdk, be_offer_feed_group_at(feed, 0)); /* 4001, 4003 */
    CHECK(screen != NULL);
    CHECK_INT(be_offer_screen_offer_count(screen), 2);
    CHECK_STR(be_offer_id(be_offer_screen_current_offer(screen)), "4001");
    CHECK(be_offer_screen_has_next(screen));
    CHECK(!be_offer_screen_has_previous(screen));
    CHECK_INT(be_offer_screen_show_previous(screen), BE_ERR_INVALID_STATE); /* past the start */
    CHECK_INT(be_offer_screen_show_next(screen), BE_OK);
    CHECK_STR(be_offer_id(be_offer_screen_current_offer(screen)), "4003");
    CHECK_INT(be_offer_screen_show_next(screen), BE_ERR_INVALID_STATE); /* past the end */
    CHECK_INT(be_offer_screen_show_previous(screen), BE_OK);
    CHECK_INT(be_offer_screen_index(screen), 0);
    CHECK_INT(be_offer_screen_decline(screen), BE_OK); /* in the middle: no_thanks, then the next offer shows */
    CHECK_STR(be_offer_id(be_offer_screen_current_offer(screen)), "4003");
    url = be_offer_screen_accept(screen); /* on the last: close, finished */
    CHECK_STR(url, "https://track.example.com/sdk/offer_click?o_id=4003&c_id=1203&p_id=1501&sess_id=5f2c0003e1&fp=USER_FP");
    CHECK(be_offer_screen_is_finished(screen));
    CHECK(be_offer_screen_current_offer(screen) == NULL);
    CHECK(be_offer_screen_accept(screen) == NULL);
    CHECK_INT(be_offer_screen_close(screen), BE_ERR_INVALID_STATE);
    CHECK_INT(be_offer_screen_show_next(screen), BE_ERR_INVALID_STATE);
    beacons = received_beacons();
    CHECK_STR(beacons,
              PIXEL("4001", "5f2c0001e1") ADV("4001")     /* open */
              PIXEL("4003", "5f2c0003e1")                 /* next */
              PIXEL("4001", "5f2c0001e1") ADV("4001")     /* previous: another impression */
              NO_THANKS("4001", "5f2c0001e1")             /* decline in the middle */
              PIXEL("4003", "5f2c0003e1")                 /* ... shows the next */
              CLOSE("4003", "5f2c0003e1"));               /* accept on the last */
    free(beacons);
    /* the URL accept returned lives as long as the screen, even after the feed's last other reference */
    be_offer_feed_release(feed);
    CHECK(url != NULL && strncmp(url, "https://track.example.com/", 26) == 0);
    be_offer_screen_free(screen);
    stop();
}

static void test_details_screen_close_and_decline_on_the_last(void) {
    be_offer_feed *feed;
    be_offer_screen *screen;
    char *beacons;
    start_with_user("details-user");
    feed = load_feed();
    sandbox_reset();
    screen = be_sdk_offer_details_screen(sdk, be_offer_group_offer_at(be_offer_feed_group_at(feed, 1), 0)); /* 4002 */
    CHECK_INT(be_offer_screen_offer_count(screen), 1);
    CHECK(!be_offer_screen_has_next(screen));
    CHECK_INT(be_offer_screen_close(screen), BE_OK);
    CHECK(be_offer_screen_is_finished(screen));
    be_offer_screen_free(screen);
    screen = be_sdk_offer_details_screen(sdk, be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 1)); /* 4003 */
    CHECK_INT(be_offer_screen_decline(screen), BE_OK);
    CHECK(be_offer_screen_is_finished(screen));
    be_offer_screen_free(screen);
    /* freeing a screen fires nothing */
    screen = be_sdk_offer_details_screen(sdk, be_offer_group_offer_at(be_offer_feed_group_at(feed, 1), 0));
    be_offer_screen_free(screen);
    beacons = received_beacons();
    CHECK_STR(beacons,
              PIXEL("4002", "5f2c0002e1") CLOSE("4002", "5f2c0002e1")
              PIXEL("4003", "5f2c0003e1") NO_THANKS("4003", "5f2c0003e1") CLOSE("4003", "5f2c0003e1")
              PIXEL("4002", "5f2c0002e1"));
    free(beacons);
    be_offer_feed_release(feed);
    stop();
}

static void test_stale_offers_and_groups_resolve_to_no_screen(void) {
    be_offer_feed *old_feed, *new_feed;
    const be_offer *old_offer;
    be_offer_screen *screen;
    start_with_user("stale-user");
    old_feed = load_feed();
    old_offer = be_offer_group_offer_at(be_offer_feed_group_at(old_feed, 0), 0);
    new_feed = load_feed(); /* a reload: same ids, new objects */
    CHECK(strcmp(be_offer_feed_id(old_feed), be_offer_feed_id(new_feed)) != 0);
    CHECK_STR(be_offer_id(old_offer), "4001");
    CHECK(be_sdk_offer_details_screen(sdk, old_offer) == NULL);
    CHECK(be_sdk_offer_group_screen(sdk, be_offer_feed_group_at(old_feed, 0)) == NULL);
    screen = be_sdk_offer_details_screen(sdk, be_offer_group_offer_at(be_offer_feed_group_at(new_feed, 0), 0));
    CHECK(screen != NULL);
    be_offer_screen_free(screen);
    CHECK(be_sdk_offer_details_screen(sdk, NULL) == NULL);
    CHECK(be_sdk_offer_group_screen(NULL, be_offer_feed_group_at(new_feed, 0)) == NULL);
    be_offer_feed_release(old_feed);
    be_offer_feed_release(new_feed);
    stop();
}

static void test_moments_screen_has_styles_and_outlives_the_sdk(void) {
    test_result r;
    be_moments_request *request = be_moments_request_new();
    be_offer_screen *screen;
    start_with_user("moments-user");
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    screen = be_sdk_moments_screen(sdk, r.response);
    test_result_dispose(&r); /* the screen keeps the response alive */
    CHECK_INT(be_offer_screen_offer_count(screen), 3);
    CHECK_STR(be_offer_screen_style(screen, "offerText.buttonYes.background"), "#1A73E8");
    CHECK_STR(be_offer_screen_style(screen, "settings.show_close"), "true");
    CHECK_INT(be_offer_screen_show_next(screen), BE_OK);
    stop();
    /* after shutdown: getters answer, actions change nothing */
    CHECK_STR(be_offer_id(be_offer_screen_current_offer(screen)), "4002");
    CHECK_INT(be_offer_screen_show_next(screen), BE_ERR_INVALID_STATE);
    CHECK(be_offer_screen_accept(screen) == NULL);
    CHECK_INT(be_offer_screen_close(screen), BE_ERR_INVALID_STATE);
    CHECK_INT(be_offer_screen_index(screen), 1);
    CHECK(!be_offer_screen_is_finished(screen));
    be_offer_screen_free(screen);
    be_moments_request_free(request);
}

/* The value of "key": in the JSON object text starting at `object`, copied into `out`. */
static const char *field(const char *object, const char *key, char *out, size_t size) {
    char needle[64];
    const char *p, *end;
    snprintf(needle, sizeof needle, "\"%s\": ", key);
    p = strstr(object, needle);
    out[0] = 0;
    if (!p || (end = strchr(object, '}')) == NULL || p > end) return out;
    p += strlen(needle);
    if (*p == '"') p++;
    snprintf(out, size, "%.*s", (int)strcspn(p, "\",}"), p);
    return out;
}

static void test_events_carry_ids_types_feed_and_positions(void) {
    be_offer_feed *feed, *newer;
    const be_offer_group *entertainment, *food;
    be_offer_feed_event *events[5];
    char *received, *object;
    char value[128], feed_id[64];
    int i;
    start_with_user("event-user");
    feed = load_feed();
    snprintf(feed_id, sizeof feed_id, "%s", be_offer_feed_id(feed));
    entertainment = be_offer_feed_group_at(feed, 0);
    food = be_offer_feed_group_at(feed, 1);
    /* wrong pairings and foreign offers are refused */
    CHECK(be_offer_feed_event_new_with_offer(be_offer_group_offer_at(food, 0), BE_OFFER_FEED_EVENT_VIEW_ALL) == NULL);
    CHECK(be_offer_feed_event_new_with_group(food, BE_OFFER_FEED_EVENT_DID_TAP) == NULL);
    CHECK(be_offer_feed_event_new_with_group(food, (be_offer_feed_event_type)9) == NULL);
    CHECK(be_offer_feed_event_new_with_offer(NULL, BE_OFFER_FEED_EVENT_DID_TAP) == NULL);
    CHECK_INT(be_sdk_report_offer_feed_event(sdk, NULL), BE_ERR_INVALID_ARGUMENT);
    sandbox_reset();
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    /* the host shows food first and filters out 4001: positions stay those of the feed */
    events[0] = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(food, 0), BE_OFFER_FEED_EVENT_DID_APPEAR);
    events[1] = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(entertainment, 1), BE_OFFER_FEED_EVENT_DID_APPEAR);
    events[2] = be_offer_feed_event_new_with_group(entertainment, BE_OFFER_FEED_EVENT_VIEW_ALL);
    events[3] = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(entertainment, 1), BE_OFFER_FEED_EVENT_DID_TAP);
    /* an offer of a feed that is no longer the newest still records, with its own feed's positions */
    newer = load_feed();
    events[4] = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(food, 0), BE_OFFER_FEED_EVENT_DID_TAP);
    be_offer_feed_release(feed); /* events copied what they need */
    for (i = 0; i < 5; i++) CHECK_INT(be_sdk_report_offer_feed_event(sdk, events[i]), BE_OK);
    CHECK_INT(be_sdk_report_offer_feed_event(sdk, events[3]), BE_OK); /* the same object twice: two events */
    for (i = 0; i < 5; i++) be_offer_feed_event_free(events[i]);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);

    received = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK(strstr(received, "\"distinct\": 6") != NULL);
    object = strstr(received, "\"events\": [") + 11;
    {
        static const char *const types[] = {"did_appear", "did_appear", "view_all", "did_tap", "did_tap", "did_tap"};
        static const char *const groups[] = {"g_food", "g_entertainment", "g_entertainment", "g_entertainment", "g_food", "g_entertainment"};
        static const char *const group_positions[] = {"1", "0", "0", "0", "1", "0"};
        static const char *const offers[] = {"4002", "4003", "", "4003", "4002", "4003"};
        static const char *const offer_positions[] = {"0", "1", "", "1", "0", "1"};
        char ids[6][64];
        for (i = 0; i < 6 && object; i++) {
            CHECK_STR(field(object, "type", value, sizeof value), types[i]);
            CHECK_STR(field(object, "feed_id", value, sizeof value), feed_id);
            CHECK_STR(field(object, "group_id", value, sizeof value), groups[i]);
            CHECK_STR(field(object, "group_position", value, sizeof value), group_positions[i]);
            CHECK_STR(field(object, "offer_id", value, sizeof value), offers[i]);
            CHECK_STR(field(object, "offer_position", value, sizeof value), offer_positions[i]);
            CHECK_INT(strlen(field(object, "id", ids[i], sizeof ids[i])), 36);
            CHECK_INT(strlen(field(object, "occurred_at", value, sizeof value)), 24);
            CHECK(value[10] == 'T' && value[23] == 'Z');
            object = strchr(object, '}');
            object = object ? strchr(object, '{') : NULL;
        }
        CHECK(strcmp(ids[3], ids[5]) != 0); /* reported twice, two ids */
    }
    free(received);
    /* did_appear fired the impressions of 4002 and 4003, and nothing else fired */
    received = sandbox_call("GET", "/_sandbox/beacons", NULL);
    CHECK(strstr(received, "\"total\": 2") != NULL);
    CHECK(strstr(received, "o_id=4002") == NULL); /* hits are keyed by path; the order lists paths */
    free(received);
    received = sandbox_requests();
    CHECK(strstr(received, "o_id=4002&sess_id=5f2c0002e1&cbuster=") != NULL);
    CHECK(strstr(received, "o_id=4003&sess_id=5f2c0003e1&cbuster=") != NULL);
    CHECK(strstr(received, "\"authorization\": \"Bearer tok-") != NULL);
    free(received);
    be_offer_feed_release(newer);
    stop();
}

/* The offer wall: the SDK reports the wall's own events with their positions (did_appear as offers become visible,
 * view_all for a group opened, did_tap for an offer opened), fires the details' beacons, and owns the way back. */
static void test_the_offer_wall_navigates_and_reports_its_own_events(void) {
    be_offer_feed *feed;
    be_offer_wall *wall;
    char *received, *object, *beacons;
    char value[128], feed_id[64];
    const char *url;
    int i;
    start_with_user("wall-user");
    CHECK(be_sdk_offer_wall(sdk) == NULL); /* no feed yet */
    CHECK(strstr(be_last_error_message(), "feed") != NULL);
    feed = load_feed();
    snprintf(feed_id, sizeof feed_id, "%s", be_offer_feed_id(feed));
    sandbox_reset();
    wall = be_sdk_offer_wall(sdk);
    CHECK(wall != NULL);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_WALL);
    CHECK(be_offer_wall_feed(wall) == feed && be_offer_wall_current_group(wall) == NULL && be_offer_wall_current_offer(wall) == NULL);
    /* the host scrolls: 4001 and 4003 come on screen, 4001 again (no new event), 4003 leaves and comes back */
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 0, 1.0), BE_OK);
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 1, 0.4), BE_OK);
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 0, 0.8), BE_OK);
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 1, 0.0), BE_OK);
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 1, 0.6), BE_OK);
    CHECK_INT(be_offer_wall_report_visibility(wall, 2, 0, 1.0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_offer_wall_report_visibility(wall, 1, 1, 1.0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_offer_wall_report_visibility(wall, 1, 0, 1.5), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_offer_wall_report_visibility(NULL, 0, 0, 1.0), BE_ERR_INVALID_ARGUMENT);
    /* a wrong move at the wall level */
    CHECK(be_offer_wall_accept(wall) == NULL);
    CHECK_INT(be_offer_wall_decline(wall), BE_ERR_INVALID_STATE);
    /* into the food group: view_all; its offer comes on screen; another group's is not shown here */
    CHECK_INT(be_offer_wall_open_group(wall, 1), BE_OK);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_GROUP);
    CHECK(be_offer_wall_current_group(wall) == be_offer_feed_group_at(feed, 1));
    CHECK_INT(be_offer_wall_report_visibility(wall, 0, 0, 1.0), BE_ERR_INVALID_STATE);
    CHECK_INT(be_offer_wall_report_visibility(wall, 1, 0, 1.0), BE_OK);
    CHECK_INT(be_offer_wall_open_group(wall, 0), BE_ERR_INVALID_STATE);
    /* its offer's details: did_tap, an impression; accept gives the click URL and goes back to the group */
    CHECK_INT(be_offer_wall_open_offer(wall, 1, 0), BE_OK);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_OFFER);
    CHECK(be_offer_wall_current_offer(wall) == be_offer_group_offer_at(be_offer_feed_group_at(feed, 1), 0));
    CHECK(be_offer_wall_current_group(wall) == be_offer_feed_group_at(feed, 1));
    url = be_offer_wall_accept(wall);
    CHECK(url != NULL && strncmp(url, "https://", 8) == 0);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_GROUP);
    /* back to the wall, then 4003's details from the wall itself, left unanswered: back fires close */
    CHECK_INT(be_offer_wall_back(wall), BE_OK);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_WALL);
    CHECK_INT(be_offer_wall_open_offer(wall, 0, 1), BE_OK);
    CHECK_INT(be_offer_wall_back(wall), BE_OK);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_WALL);
    CHECK_INT(be_offer_wall_close(wall), BE_OK);
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_CLOSED);
    CHECK_INT(be_offer_wall_back(wall), BE_ERR_INVALID_STATE);
    CHECK_INT(be_offer_wall_open_group(wall, 0), BE_ERR_INVALID_STATE);

    beacons = received_beacons(); /* flushes */
    CHECK_STR(beacons, PIXEL("4001", "5f2c0001e1") ADV("4001") PIXEL("4003", "5f2c0003e1") PIXEL("4003", "5f2c0003e1")
                       PIXEL("4002", "5f2c0002e1") PIXEL("4002", "5f2c0002e1") CLOSE("4002", "5f2c0002e1")
                       PIXEL("4003", "5f2c0003e1") CLOSE("4003", "5f2c0003e1"));
    free(beacons);
    /* the events, in any order (a batch sent before the sandbox's reset forgot the token is sent again later) */
    received = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK(strstr(received, "\"distinct\": 7") != NULL);
    object = strstr(received, "\"events\": [") + 11;
    {
        static const char *const expected[] = {"did_appear 0 4001 0", "did_appear 0 4003 1", "did_appear 0 4003 1",
                                               "view_all 1  ", "did_appear 1 4002 0", "did_tap 1 4002 0", "did_tap 0 4003 1"};
        char seen[7][96];
        int used[7] = {0}, j;
        for (i = 0; i < 7 && object; i++) {
            char type[32], group[8], offer[16], position[8];
            CHECK_STR(field(object, "feed_id", value, sizeof value), feed_id);
            snprintf(seen[i], sizeof seen[i], "%s %s %s %s", field(object, "type", type, sizeof type),
                     field(object, "group_position", group, sizeof group), field(object, "offer_id", offer, sizeof offer),
                     field(object, "offer_position", position, sizeof position));
            object = strchr(object, '}');
            object = object ? strchr(object, '{') : NULL;
        }
        for (i = 0; i < 7; i++) { /* each expected event once */
            int found = 0;
            for (j = 0; j < 7 && !found; j++) {
                if (!used[j] && strcmp(seen[j], expected[i]) == 0) used[j] = found = 1;
            }
            if (!found) fprintf(stderr, "missing event: %s\n", expected[i]);
            CHECK(found);
        }
    }
    free(received);
    /* after shutdown: getters answer, actions are refused */
    stop();
    CHECK_INT(be_offer_wall_get_level(wall), BE_OFFER_WALL_LEVEL_CLOSED);
    CHECK(be_offer_wall_feed(wall) == feed);
    be_offer_wall_free(wall);
    be_offer_wall_free(NULL);
    CHECK(be_sdk_offer_wall(NULL) == NULL);
    be_offer_feed_release(feed);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_group_screen_fires_the_exact_beacons);
    RUN(test_details_screen_close_and_decline_on_the_last);
    RUN(test_stale_offers_and_groups_resolve_to_no_screen);
    RUN(test_moments_screen_has_styles_and_outlives_the_sdk);
    RUN(test_events_carry_ids_types_feed_and_positions);
    RUN(test_the_offer_wall_navigates_and_reports_its_own_events);
    return test_finish();
}
