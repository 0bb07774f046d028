/* The client-side offer feed through the C API, against the sandbox: registration, shared loads, the error
 * table of docs/PROTOCOL.md section 2 (error 1 and error 2 each where, and only where, it says). */
#include "test_support.h"

static be_sdk *start(be_config *config) {
    be_sdk *sdk = NULL;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    return sdk;
}

/* Loads and waits; the result is the caller's to dispose. */
static void load(be_sdk *sdk, test_result *r) {
    test_result_init(r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, r), BE_OK);
    CHECK(test_result_wait(r, 1));
}

static void expect_feed_error_at(int line, be_sdk *sdk, int code, int http_status) {
    test_result r;
    load(sdk, &r);
    if (!r.has_error || r.code != code) fprintf(stderr, "line %d: expected feed error %d, got %d (%s)\n", line, code, r.code, r.message);
    CHECK(r.has_error);
    CHECK(r.feed == NULL);
    CHECK_STR(r.domain, BE_OFFER_FEED_ERROR_DOMAIN);
    CHECK_INT(r.code, code);
    CHECK_INT(r.http_status, http_status);
    test_result_dispose(&r);
}

#define expect_feed_error(sdk, code, status) expect_feed_error_at(__LINE__, sdk, code, status)

static void test_no_engage_url_is_error_2_checked_before_error_1(void) {
    be_config *config = be_config_new("demo-key");
    be_sdk *sdk;
    char storage[] = "/tmp/be-feed-XXXXXX";
    CHECK(mkdtemp(storage) != NULL);
    CHECK_INT(be_config_set_storage_dir(config, storage), BE_OK);
    sdk = start(config);
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0); /* and no identity either */
    /* the identity is stored, nothing is registered, loads still answer 2 */
    sandbox_reset();
    CHECK_INT(be_sdk_set_user_identity(sdk, "alice"), BE_OK);
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0);
    CHECK_INT(sandbox_count("/v1/users"), 0);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_no_user_is_error_1_and_nothing_is_requested(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    sandbox_reset();
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_NO_USER, 0);
    CHECK_INT(sandbox_count("/v1/offer-feed"), 0);
    CHECK_INT(be_sdk_set_user_identity(sdk, ""), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_set_user_identity(sdk, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_load_offer_feed(sdk, NULL, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_load_offer_feed(NULL, on_feed, NULL), BE_ERR_INVALID_ARGUMENT);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_first_launch_registers_once_and_a_returning_user_is_restored(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    const be_offer_group *group;
    char *requests;
    sandbox_reset();
    CHECK_INT(be_sdk_set_user_identity(sdk, "alice"), BE_OK);
    load(sdk, &r);
    CHECK(!r.has_error);
    CHECK_INT(be_offer_feed_group_count(r.feed), 2);
    CHECK(strncmp(be_offer_feed_id(r.feed), "f_", 2) == 0);
    group = be_offer_feed_group_at(r.feed, 0);
    CHECK_STR(be_offer_group_id(group), "g_entertainment");
    CHECK_STR(be_offer_group_title(group), "Entertainment");
    CHECK_INT(be_offer_group_offer_count(group), 2);
    CHECK_STR(be_offer_id(be_offer_group_offer_at(group, 0)), "4001");
    CHECK_STR(be_offer_id(be_offer_group_offer_at(group, 1)), "4003");
    CHECK(be_offer_group_offer_at(group, 2) == NULL);
    group = be_offer_feed_group_at(r.feed, 1);
    CHECK_STR(be_offer_group_title(group), "Food & drink");
    CHECK_STR(be_offer_title(be_offer_group_offer_at(group, 0)), "\xe2\x82\xac" "20 off your first Caf\xc3\xa9 Ol\xc3\xa9 order");
    CHECK(be_offer_feed_group_at(r.feed, 2) == NULL);
    requests = sandbox_requests();
    CHECK(strstr(requests, "\\\"pub_user_id\\\":\\\"alice\\\"") != NULL);
    CHECK(strstr(requests, "\\\"device_id\\\":\\\"") != NULL);
    CHECK(strstr(requests, "\"authorization\": \"Bearer tok-") != NULL);
    free(requests);
    /* the same identity again registers nothing */
    CHECK_INT(be_sdk_set_user_identity(sdk, "alice"), BE_OK);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);

    /* a later launch on the same storage: restored, no new registration, loads work at once */
    sdk = start(config);
    load(sdk, &r);
    CHECK(!r.has_error);
    CHECK_INT(sandbox_count("/v1/users"), 1);
    CHECK_INT(sandbox_count("/v1/offer-feed"), 2);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

typedef struct {
    be_sdk *sdk;
    test_result *result;
    pthread_barrier_t *barrier;
    int status;
} loader;

static void *load_on_thread(void *argument) {
    loader *l = argument;
    pthread_barrier_wait(l->barrier);
    l->status = be_sdk_load_offer_feed(l->sdk, on_feed, l->result);
    return NULL;
}

static void test_32_concurrent_loads_share_one_request(void) {
    enum { N = 32 };
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result warmup, results[N];
    loader loaders[N];
    pthread_t threads[N];
    pthread_barrier_t barrier;
    int i, requests_before;
    CHECK_INT(be_sdk_set_user_identity(sdk, "dave"), BE_OK);
    load(sdk, &warmup); /* registered */
    requests_before = sandbox_count("/v1/offer-feed");
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"gate\": true, \"times\": 1}");
    pthread_barrier_init(&barrier, NULL, N);
    for (i = 0; i < N; i++) {
        test_result_init(&results[i]);
        loaders[i].sdk = sdk;
        loaders[i].result = &results[i];
        loaders[i].barrier = &barrier;
        pthread_create(&threads[i], NULL, load_on_thread, &loaders[i]);
    }
    for (i = 0; i < N; i++) pthread_join(threads[i], NULL);
    /* every call returned while the one request is held at the gate: they all joined it */
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    for (i = 0; i < N; i++) {
        CHECK_INT(loaders[i].status, BE_OK);
        CHECK(test_result_wait(&results[i], 1));
        CHECK_INT(results[i].calls, 1);
        CHECK(!results[i].has_error);
        CHECK(results[i].feed == results[0].feed);
    }
    CHECK_INT(sandbox_count("/v1/offer-feed"), requests_before + 1);
    for (i = 0; i < N; i++) test_result_dispose(&results[i]);
    test_result_dispose(&warmup);
    pthread_barrier_destroy(&barrier);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_load_during_registration_waits_for_it(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    char *requests;
    sandbox_reset();
    sandbox_fault("{\"path\": \"/v1/users\", \"gate\": true, \"times\": 1}");
    CHECK_INT(be_sdk_set_user_identity(sdk, "erin"), BE_OK); /* registration starts, held at the gate */
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    CHECK_INT(be_offer_feed_group_count(r.feed), 2);
    requests = sandbox_requests();
    CHECK(strstr(requests, "/v1/users") < strstr(requests, "/v1/offer-feed"));
    free(requests);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_failed_registration_fails_the_waiting_load_with_2_and_is_retried(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    int attempt;
    sandbox_reset();
    sandbox_fault("{\"path\": \"/v1/users\", \"gate\": true, \"status\": 500, \"times\": 1}");
    CHECK_INT(be_sdk_set_user_identity(sdk, "frank"), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    CHECK(test_result_wait(&r, 1));
    CHECK_STR(r.domain, BE_OFFER_FEED_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_OFFER_FEED_ERROR_UNAVAILABLE); /* never 1: an identity was set */
    test_result_dispose(&r);
    /* not forgotten: the next load (or the background retry) registers and succeeds */
    for (attempt = 0; attempt < 20; attempt++) {
        load(sdk, &r);
        if (!r.has_error) break;
        test_result_dispose(&r);
    }
    CHECK(!r.has_error);
    CHECK(sandbox_count("/v1/users") >= 2);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_remote_states_and_failures(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    const be_offer *offer;
    be_offer_screen *screen;
    CHECK_INT(be_sdk_set_user_identity(sdk, "grace"), BE_OK);
    load(sdk, &r);
    offer = be_offer_group_offer_at(be_offer_feed_group_at(r.feed, 0), 0);
    screen = be_sdk_offer_details_screen(sdk, offer);
    CHECK(screen != NULL);
    be_offer_screen_free(screen);

    /* empty: a success with zero groups */
    free(sandbox_call("POST", "/_sandbox/feed", "{\"mode\": \"empty\"}"));
    {
        test_result empty;
        CHECK_INT(be_sdk_set_user_identity(sdk, "grace2"), BE_OK);
        load(sdk, &empty);
        CHECK(!empty.has_error);
        CHECK(empty.feed != NULL);
        CHECK_INT(be_offer_feed_group_count(empty.feed), 0);
        test_result_dispose(&empty);
    }
    /* the identity changed: the old feed's offers resolve to nothing */
    CHECK(be_sdk_offer_details_screen(sdk, offer) == NULL);
    CHECK_INT(be_sdk_set_user_identity(sdk, "grace"), BE_OK);

    /* disabled remotely: error 2, never an empty feed, and the newest feed is cleared */
    free(sandbox_call("POST", "/_sandbox/feed", "{\"mode\": \"normal\"}"));
    test_result_dispose(&r);
    load(sdk, &r);
    CHECK(!r.has_error);
    offer = be_offer_group_offer_at(be_offer_feed_group_at(r.feed, 0), 0);
    free(sandbox_call("POST", "/_sandbox/feed", "{\"mode\": \"disabled\"}"));
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0);
    CHECK(be_sdk_offer_details_screen(sdk, offer) == NULL);
    free(sandbox_call("POST", "/_sandbox/feed", "{\"mode\": \"normal\"}"));

    /* malformed, failing, dropped: error 2 with the status when there was one */
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"malformed\": true, \"times\": 1}");
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0);
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"status\": 503, \"times\": 1}");
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 503);
    /* every time: libcurl retries by itself when a reused connection dies before any answer */
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"drop\": true}");
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0);
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"status\": 200, \"body\": \"{\\\"enabled\\\": true}\", \"times\": 1}");
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_UNAVAILABLE, 0);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_a_refused_token_registers_again_once(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    CHECK_INT(be_sdk_set_user_identity(sdk, "heidi"), BE_OK);
    load(sdk, &r);
    test_result_dispose(&r);
    sandbox_reset(); /* forgets every token: the next feed call answers 401 */
    load(sdk, &r);
    CHECK(!r.has_error);
    CHECK_INT(sandbox_count("/v1/users"), 1);
    CHECK_INT(sandbox_count("/v1/offer-feed"), 2); /* the 401, then the retry */
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* The feed refuses the token of the identity the load was sent for, while another identity became current meanwhile:
 * the refused identity registers again, not the current one, whose token is good. */
static void test_a_refused_token_is_the_one_the_load_was_sent_with(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk;
    test_result r;
    char *requests;
    sandbox_reset(); /* the waits below count requests: none of an earlier test may satisfy them */
    sdk = start(config);
    CHECK_INT(be_sdk_set_user_identity(sdk, "ivan"), BE_OK);
    sandbox_fault("{\"path\": \"/v1/offer-feed\", \"gate\": true, \"status\": 401, \"times\": 1}");
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    while (sandbox_count("/v1/offer-feed") < 1) sched_yield();
    CHECK_INT(be_sdk_set_user_identity(sdk, "judy"), BE_OK); /* registers judy */
    while (sandbox_count("/v1/users") < 2) sched_yield();
    free(sandbox_call("POST", "/_sandbox/release", NULL)); /* ivan's token is refused */
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    CHECK_INT(be_sdk_flush(sdk, 1000), BE_OK);
    requests = sandbox_requests();
    CHECK_INT(count_occurrences(requests, "judy"), 1); /* her one registration: her good token was kept */
    free(requests);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

static void test_log_out_forgets_identity_and_feed(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    const be_offer_group *group;
    CHECK_INT(be_sdk_set_user_identity(sdk, "ivan"), BE_OK);
    load(sdk, &r);
    group = be_offer_feed_group_at(r.feed, 1);
    CHECK_INT(be_sdk_clear_user_identity(sdk), BE_OK);
    CHECK(be_sdk_offer_group_screen(sdk, group) == NULL);
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_NO_USER, 0);
    be_sdk_shutdown(sdk, 1000);
    /* and it stays logged out across a restart */
    sdk = start(config);
    expect_feed_error(sdk, BE_OFFER_FEED_ERROR_NO_USER, 0);
    /* the feed (retained) outlives its SDK */
    be_sdk_shutdown(sdk, 1000);
    CHECK_STR(be_offer_group_id(group), "g_food");
    CHECK_INT(be_offer_feed_group_count(r.feed), 2);
    test_result_dispose(&r);
    be_config_free(config);
}

static void test_shutdown_cancels_a_load_waiting_for_registration(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = start(config);
    test_result r;
    sandbox_reset();
    sandbox_fault("{\"path\": \"/v1/users\", \"hang\": true, \"times\": 1}");
    CHECK_INT(be_sdk_set_user_identity(sdk, "judy"), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    be_sdk_shutdown(sdk, 1000);
    CHECK_INT(r.calls, 1);
    CHECK_STR(r.domain, BE_CANCELLED_ERROR_DOMAIN);
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL)); /* the hang may not have been reached */
    test_result_dispose(&r);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_no_engage_url_is_error_2_checked_before_error_1);
    RUN(test_no_user_is_error_1_and_nothing_is_requested);
    RUN(test_first_launch_registers_once_and_a_returning_user_is_restored);
    RUN(test_32_concurrent_loads_share_one_request);
    RUN(test_load_during_registration_waits_for_it);
    RUN(test_failed_registration_fails_the_waiting_load_with_2_and_is_retried);
    RUN(test_remote_states_and_failures);
    RUN(test_a_refused_token_registers_again_once);
    RUN(test_a_refused_token_is_the_one_the_load_was_sent_with);
    RUN(test_log_out_forgets_identity_and_feed);
    RUN(test_shutdown_cancels_a_load_waiting_for_registration);
    return test_finish();
}
