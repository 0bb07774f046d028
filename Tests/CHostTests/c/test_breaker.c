/* The crash-loop breaker through the C API: hosts killed with SIGKILL inside the first answer's window three
 * times, then a start in safe mode that works; the reports the killed runs acknowledged delivered at the next
 * normal start; safe mode killed too, then an inert start and safe mode again. */
#include "test_support.h"

#include <signal.h>
#include <sys/wait.h>

static be_offer_feed *feed; /* loaded once by the parent; forked children inherit it */

/* An image callback an inert SDK never calls: its fetch is refused. */
static void no_image(be_image *image, const be_error *error, void *user_data) {
    (void)image, (void)error, (void)user_data;
}

static int requests_of_offers(void) { return sandbox_count("/native/v4/offers.json"); }
static int offers_requested_since(const void *before) { return requests_of_offers() > *(const int *)before; }

/* A child starts on `config`, reports one feed event (acknowledged: BE_OK), and sends its first Moments request,
 * which the sandbox holds; the parent kills it there, inside the window. Returns the crash_loop_mode it had. */
static int killed_in_the_window(be_config *config) {
    int channel[2], status = 0, before = requests_of_offers();
    uint64_t mode = 99;
    pid_t child;
    CHECK(pipe(channel) == 0);
    fflush(NULL);
    child = fork();
    if (child == 0) {
        be_sdk *sdk = NULL;
        be_moments_request *request = be_moments_request_new();
        be_offer_feed_event *event =
            be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(feed, 0), 0), BE_OFFER_FEED_EVENT_DID_TAP);
        alarm(60);
        if (be_sdk_start(config, &sdk) != BE_OK || be_sdk_set_user_identity(sdk, "breaker") != BE_OK) _exit(3);
        mode = stats_of(sdk).crash_loop_mode;
        if (be_sdk_report_offer_feed_event(sdk, event) != BE_OK) _exit(4);
        be_moments_request_set_payload(request, "placement", "checkout");
        if (be_sdk_fetch_moments_offers(sdk, request, on_moments, NULL) != BE_OK) _exit(5);
        if (write(channel[1], &mode, sizeof mode) != (ssize_t)sizeof mode) _exit(6);
        for (;;) pause();
    }
    close(channel[1]);
    CHECK(read(channel[0], &mode, sizeof mode) == (ssize_t)sizeof mode);
    close(channel[0]);
    CHECK(wait_until(offers_requested_since, &before, 20000)); /* the request is at the sandbox: inside */
    kill(child, SIGKILL);
    CHECK(waitpid(child, &status, 0) == child && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return (int)mode;
}

static void hold_moments(int hold) {
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    if (hold) sandbox_fault("{\"path\": \"offers.json\", \"gate\": true}");
}

static int fetch_works(be_sdk *sdk) {
    be_moments_request *request = be_moments_request_new();
    test_result r;
    int ok;
    be_moments_request_set_payload(request, "placement", "checkout");
    test_result_init(&r);
    ok = be_sdk_fetch_moments_offers(sdk, request, on_moments, &r) == BE_OK && test_result_wait(&r, 1) && !r.has_error;
    test_result_dispose(&r);
    be_moments_request_free(request);
    return ok;
}

static void test_three_deaths_in_the_window_then_safe_mode_then_everything_back(void) {
    be_config *config = sandbox_config("demo-key"), *loader = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    int run;
    char *events;
    sandbox_reset();
    /* the feed the children report about, from an SDK of the parent's on another storage directory */
    CHECK_INT(be_sdk_start(loader, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "breaker"), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    feed = be_offer_feed_retain(r.feed);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    sandbox_reset();
    sandbox_fault("{\"path\": \"/v1/events\", \"status\": 503}"); /* nothing acknowledged is delivered before the end */
    hold_moments(1);
    sandbox_fault("{\"path\": \"/v1/events\", \"status\": 503}");
    for (run = 0; run < 3; run++) CHECK_INT(killed_in_the_window(config), 0);
    /* the fourth start: safe mode, and it works */
    hold_moments(0);
    sandbox_fault("{\"path\": \"/v1/events\", \"status\": 503}");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(stats_of(sdk).crash_loop_mode, 1);
    CHECK(fetch_works(sdk));
    be_sdk_shutdown(sdk, 0);
    /* the next start is normal and brings back what the killed runs acknowledged: three events, once each */
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "breaker"), BE_OK);
    CHECK_INT(stats_of(sdk).crash_loop_mode, 0);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK_INT(count_occurrences(events, "\"type\": \"did_tap\""), 3);
    free(events);
    CHECK(fetch_works(sdk));
    be_sdk_shutdown(sdk, 1000);

    /* three more deaths, then safe mode dies too: inert, then safe mode again */
    hold_moments(1);
    for (run = 0; run < 3; run++) CHECK_INT(killed_in_the_window(config), 0);
    CHECK_INT(killed_in_the_window(config), 1);
    hold_moments(0);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(stats_of(sdk).crash_loop_mode, 2);
    {
        be_moments_request *request = be_moments_request_new();
        CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, NULL), BE_ERR_INVALID_STATE);
        CHECK(strstr(be_last_error_message(), "inert") != NULL);
        CHECK_INT(be_sdk_fetch_image(sdk, "https://cdn.example.com/a.png", no_image, NULL), BE_ERR_INVALID_STATE);
        be_moments_request_free(request);
    }
    be_sdk_shutdown(sdk, 0);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(stats_of(sdk).crash_loop_mode, 1);
    CHECK(fetch_works(sdk));
    be_sdk_shutdown(sdk, 1000);

    /* a live instance inside its window (its first request held) is no crash for the starts beside it: after two
     * deaths, the third start's open window would otherwise make the fourth a safe one */
    hold_moments(1);
    for (run = 0; run < 2; run++) CHECK_INT(killed_in_the_window(config), 0);
    {
        be_sdk *inside = NULL, *beside = NULL;
        be_moments_request *request = be_moments_request_new();
        test_result held;
        int before = requests_of_offers();
        be_moments_request_set_payload(request, "placement", "checkout");
        CHECK_INT(be_sdk_start(config, &inside), BE_OK);
        test_result_init(&held);
        CHECK_INT(be_sdk_fetch_moments_offers(inside, request, on_moments, &held), BE_OK);
        wait_until(offers_requested_since, &before, 20000);
        for (run = 0; run < 4; run++) {
            CHECK_INT(be_sdk_start(config, &beside), BE_OK);
            CHECK_INT(stats_of(beside).crash_loop_mode, 0);
            be_sdk_shutdown(beside, 0);
        }
        hold_moments(0);
        CHECK(test_result_wait(&held, 1));
        be_sdk_shutdown(inside, 1000);
        test_result_dispose(&held);
        be_moments_request_free(request);
    }
    be_offer_feed_release(feed);
    be_config_free(loader);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_three_deaths_in_the_window_then_safe_mode_then_everything_back);
    return test_finish();
}
