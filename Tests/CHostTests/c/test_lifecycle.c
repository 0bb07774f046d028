/* Lifecycle through the C API: both callback modes (the dispatch descriptor polled), shutdown with requests
 * in flight, shutdown from inside a callback, the log handler, storage rules, the library section. */
#include "test_support.h"

#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void test_library_section(void) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", BE_VERSION_MAJOR, BE_VERSION_MINOR, BE_VERSION_PATCH);
    CHECK_STR(be_version(), expected);
    CHECK(BE_VERSION_AT_LEAST(0, 0, 1));
    CHECK(!BE_VERSION_AT_LEAST(BE_VERSION_MAJOR + 1, 0, 0));
    CHECK_STR(be_status_string(BE_OK), "ok");
    CHECK_STR(be_status_string(BE_ERR_TIMEOUT), "timed out");
    CHECK_STR(be_status_string((be_status)42), "unknown status");
    CHECK(be_last_error_message() != NULL);
}

static void *fail_on_another_thread(void *unused) {
    (void)unused;
    be_config_set_timeout_ms(NULL, 5); /* sets that thread's message only */
    return strstr(be_last_error_message(), "config") ? (void *)1 : NULL;
}

static void test_last_error_is_per_thread(void) {
    pthread_t thread;
    void *saw_own = NULL;
    be_config *config = be_config_new("k");
    CHECK_INT(be_config_set_moments_url(config, "ftp://example.com/x"), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "http") != NULL);
    pthread_create(&thread, NULL, fail_on_another_thread, NULL);
    pthread_join(thread, &saw_own);
    CHECK(saw_own != NULL);
    CHECK(strstr(be_last_error_message(), "http") != NULL); /* untouched by the other thread */
    be_config_free(config);
}

static void test_config_setters_validate(void) {
    be_config *config = be_config_new("k");
    static const char bad_utf8[] = {(char)0xFF, 0};
    CHECK(be_config_new(NULL) == NULL);
    CHECK(be_config_new(bad_utf8) == NULL);
    CHECK_INT(be_config_set_moments_url(config, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_moments_url(config, "not a url"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_moments_url(config, "file:///etc/passwd"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_moments_url(config, "https://api.example.com/v4?x=1"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_moments_url(config, "https://api.example.com/native/v4/"), BE_OK);
    CHECK_INT(be_config_set_engage_url(config, "gopher://example.com"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_engage_url(config, "http://127.0.0.1:1"), BE_OK);
    CHECK_INT(be_config_set_zone_ad_url(config, "http://ads.example.com/adAPI.php"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_zone_ad_url(config, "http://ads.example.com/adAPI.php?AdID={zone}"), BE_OK);
    CHECK_INT(be_config_set_timeout_ms(config, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_user_agent(config, "a\r\nX-Injected: 1"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_user_agent(config, bad_utf8), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_callback_mode(config, (be_callback_mode)7), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_log_handler(config, NULL, (be_log_level)9, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_outbox_limits(config, 0, 10), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_outbox_limits(config, 100, 60), BE_OK);
    CHECK_INT(be_config_set_storage_dir(config, ""), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_development(NULL, 1), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_start(NULL, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_start(config, NULL), BE_ERR_INVALID_ARGUMENT);
    be_config_free(config);
    be_config_free(NULL);
}

static void test_storage_directory_rules(void) {
    char root[] = "/tmp/be-storage-XXXXXX";
    char path[256];
    char blocker[300];
    struct stat info;
    be_sdk *sdk = NULL;
    be_config *config = be_config_new("demo-key");
    FILE *file;
    CHECK(mkdtemp(root) != NULL);
    /* a root below a regular file cannot be created: BE_ERR_IO, and no SDK */
    snprintf(blocker, sizeof blocker, "%s/file", root);
    file = fopen(blocker, "w");
    fclose(file);
    snprintf(path, sizeof path, "%s/file/below", root);
    CHECK_INT(be_config_set_storage_dir(config, path), BE_OK);
    sdk = (be_sdk *)config; /* must be reset to NULL on failure */
    CHECK_INT(be_sdk_start(config, &sdk), BE_ERR_IO);
    CHECK(sdk == NULL);
    /* a usable root: the key's directory is the FNV-1a hash of "demo-key", created 0700 */
    snprintf(path, sizeof path, "%s/nested/root", root);
    CHECK_INT(be_config_set_storage_dir(config, path), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    snprintf(path, sizeof path, "%s/nested/root/%s", root, "e2ed41de1f4541a8");
    CHECK(stat(path, &info) == 0 && S_ISDIR(info.st_mode) && (info.st_mode & 0777) == 0700);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* ---- callbacks in dispatch mode ---------------------------------------------------------------------------- */

static void test_dispatch_mode_runs_callbacks_on_the_polling_thread(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    struct pollfd descriptor;
    int fd, ran = 0, rounds = 0;
    CHECK_INT(be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    fd = be_sdk_dispatch_fd(sdk);
    CHECK(fd >= 0);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    /* nothing runs until this thread dispatches */
    while (ran < 2 && rounds++ < 600) {
        descriptor.fd = fd;
        descriptor.events = POLLIN;
        if (poll(&descriptor, 1, 100) > 0) {
            CHECK(descriptor.revents & POLLIN);
            ran += be_sdk_dispatch(sdk, 1);
        }
    }
    CHECK_INT(ran, 2);
    CHECK_INT(r.calls, 2);
    CHECK(pthread_equal(r.thread, pthread_self()));
    /* drained: the descriptor is no longer readable and dispatch finds nothing */
    descriptor.fd = fd;
    descriptor.events = POLLIN;
    CHECK_INT(poll(&descriptor, 1, 0), 0);
    CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

/* ---- fetch I/O in dispatch ------------------------------------------------------------------------------ */

/* How many Moments requests the sandbox received. */
static int offers_requests(void) {
    char *requests = sandbox_requests();
    int seen = count_occurrences(requests, "offers.json");
    free(requests);
    return seen;
}

/* Fetch I/O on dispatch, without the start's warm-up: these tests count what the descriptor does for their own
 * fetches, and a warm-up still under way would be more of it (test_fetch_io_on_dispatch_drives_the_warm_up). */
static be_sdk *start_with_fetch_io_on_dispatch(uint32_t timeout_ms) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    CHECK_INT(be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH), BE_OK);
    CHECK_INT(be_config_set_fetch_io(config, BE_FETCH_IO_ON_DISPATCH), BE_OK);
    CHECK_INT(be_config_set_warm_up_at_start(config, 0), BE_OK);
    if (timeout_ms) CHECK_INT(be_config_set_timeout_ms(config, timeout_ms), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_config_free(config);
    return sdk;
}

/* What a fetch-on-dispatch test starts from: a clean sandbox, an empty result, the placement request (which
 * end_fetch_test frees). */
static be_moments_request *begin_fetch_test(test_result *r) {
    sandbox_reset();
    test_result_init(r);
    return placement_request();
}

/* Shuts the SDK down and frees what a fetch-on-dispatch test made. */
static void end_fetch_test(be_sdk *sdk, be_moments_request *request, test_result *r) {
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    test_result_dispose(r);
    sandbox_reset();
}

static void test_fetch_io_on_dispatch_runs_on_the_polling_thread(void) {
    enum { N = 12 }; /* more than the 4 connections a host gets: the rest wait for one, driven all the same */
    be_sdk *sdk = start_with_fetch_io_on_dispatch(0);
    test_result r;
    struct pollfd descriptor;
    int i;
    be_moments_request *request = begin_fetch_test(&r);
    for (i = 0; i < N; i++) CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    /* no callback runs before this thread dispatches */
    CHECK_INT(r.calls, 0);
    CHECK(dispatch_until(sdk, &r, N));
    CHECK_INT(r.calls, N);
    CHECK(!r.has_error);
    CHECK(pthread_equal(r.thread, pthread_self()));
    CHECK_INT(be_moments_response_offer_count(r.response), 3);
    CHECK_INT(offers_requests(), N);
    /* nothing left to do: the descriptor is not readable and dispatch finds nothing */
    descriptor.fd = be_sdk_dispatch_fd(sdk);
    descriptor.events = POLLIN;
    CHECK_INT(poll(&descriptor, 1, 0), 0);
    CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    end_fetch_test(sdk, request, &r);
}

static void test_fetch_io_on_dispatch_sends_within_the_fetch_call(void) {
    be_sdk *sdk = start_with_fetch_io_on_dispatch(0);
    test_result r;
    int rounds;
    be_moments_request *request = begin_fetch_test(&r);
    /* the first fetch opens a connection, which the SDK keeps */
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(dispatch_until(sdk, &r, 1));
    /* the second goes out on it from the fetch call: the sandbox gets it while this thread never dispatches */
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    for (rounds = 0; rounds < 600 && offers_requests() < 2; rounds++) poll(NULL, 0, 10);
    CHECK_INT(offers_requests(), 2);
    CHECK_INT(r.calls, 1);
    /* the answer is read, and its callback run, by the next dispatch */
    CHECK(dispatch_until(sdk, &r, 2));
    CHECK(!r.has_error);
    CHECK(pthread_equal(r.thread, pthread_self()));
    end_fetch_test(sdk, request, &r);
}

/* A fetch the sandbox answers, run to its callback by dispatching. */
static void fetch_answered(be_sdk *sdk, be_moments_request *request, test_result *r) {
    int calls = r->calls + 1;
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, r), BE_OK);
    CHECK(dispatch_until(sdk, r, calls));
    CHECK(!r->has_error);
}

/* A fetch the sandbox never answers, as the `calls`-th callback of `r`: the timeout's timer makes the descriptor
 * readable, so a host that only polls it gets the network error. */
static void fetch_times_out_through_the_descriptor(be_sdk *sdk, be_moments_request *request, test_result *r, int calls) {
    sandbox_fault("{\"hang\": true}");
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, r), BE_OK);
    CHECK(dispatch_until(sdk, r, calls));
    CHECK_INT(r->calls, calls);
    CHECK_STR(r->domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r->code, BE_MOMENTS_ERROR_NETWORK);
}

static void test_fetch_io_on_dispatch_times_out_through_the_descriptor(void) {
    be_sdk *sdk = start_with_fetch_io_on_dispatch(300);
    test_result r;
    be_moments_request *request = begin_fetch_test(&r);
    fetch_times_out_through_the_descriptor(sdk, request, &r, 1);
    end_fetch_test(sdk, request, &r);
}

/* The timer set for the first fetch's deadline is left as it is for the second's, later one: it expires before
 * that, and the second fetch still times out through the descriptor. */
static void test_fetch_io_on_dispatch_times_out_after_an_answered_fetch(void) {
    be_sdk *sdk = start_with_fetch_io_on_dispatch(1000); /* room for the first fetch under a sanitizer */
    test_result r;
    be_moments_request *request = begin_fetch_test(&r);
    fetch_answered(sdk, request, &r);
    fetch_times_out_through_the_descriptor(sdk, request, &r, 2);
    end_fetch_test(sdk, request, &r);
}

/* After the last fetch the descriptor is readable at most once more (the timer of a deadline no transfer wants
 * any longer); a dispatch then finds nothing to run, and it stays quiet. */
static void test_fetch_io_on_dispatch_goes_quiet_after_the_last_fetch(void) {
    be_sdk *sdk = start_with_fetch_io_on_dispatch(1000);
    test_result r;
    struct pollfd descriptor;
    be_moments_request *request = begin_fetch_test(&r);
    fetch_answered(sdk, request, &r);
    descriptor.fd = be_sdk_dispatch_fd(sdk);
    descriptor.events = POLLIN;
    /* well past the 1 s deadline the fetch had: any stale expiry has come */
    if (poll(&descriptor, 1, 4000) > 0) CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    descriptor.revents = 0;
    CHECK_INT(poll(&descriptor, 1, 600), 0);
    CHECK_INT(r.calls, 1);
    end_fetch_test(sdk, request, &r);
}

/* A server that closes a kept connection after its answer: the idle socket, left in the descriptor's set, leaves
 * it when it turns readable, so the descriptor does not stay readable; the next fetch connects anew. */
static void test_fetch_io_on_dispatch_lets_go_of_a_connection_the_server_closed(void) {
    be_sdk *sdk = start_with_fetch_io_on_dispatch(0);
    test_result r;
    struct pollfd descriptor;
    int rounds, readable = 0;
    be_moments_request *request = begin_fetch_test(&r);
    sandbox_fault("{\"path\": \"offers.json\", \"close_after\": true, \"times\": 1}");
    fetch_answered(sdk, request, &r);
    descriptor.fd = be_sdk_dispatch_fd(sdk);
    descriptor.events = POLLIN;
    /* readable for the close at most once or twice (and the dispatch runs nothing), then quiet */
    for (rounds = 0; rounds < 20; rounds++) {
        descriptor.revents = 0;
        if (poll(&descriptor, 1, 600) == 0) break;
        readable++;
        CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    }
    CHECK(readable <= 2);
    CHECK(rounds < 20);
    fetch_answered(sdk, request, &r);
    CHECK_INT(be_moments_response_offer_count(r.response), 3);
    CHECK_INT(offers_requests(), 2);
    end_fetch_test(sdk, request, &r);
}

static void test_fetch_io_on_dispatch_is_cancelled_by_shutdown(void) {
    enum { N = 4 };
    be_sdk *sdk = start_with_fetch_io_on_dispatch(600000); /* only shutdown may end them */
    be_moments_request *request = placement_request();
    test_result r[N];
    int i, rounds;
    sandbox_reset();
    sandbox_fault("{\"hang\": true}");
    for (i = 0; i < N; i++) {
        test_result_init(&r[i]);
        CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r[i]), BE_OK);
    }
    /* dispatch until the sandbox holds them all: the requests went out from this thread */
    for (rounds = 0; rounds < 600 && offers_requests() < N; rounds++) {
        struct pollfd descriptor = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        if (poll(&descriptor, 1, 50) > 0) be_sdk_dispatch(sdk, 0);
    }
    CHECK_INT(offers_requests(), N);
    be_sdk_shutdown(sdk, 5000);
    for (i = 0; i < N; i++) {
        CHECK_INT(r[i].calls, 1);
        CHECK_STR(r[i].domain, BE_CANCELLED_ERROR_DOMAIN);
        CHECK(pthread_equal(r[i].thread, pthread_self()));
        test_result_dispose(&r[i]);
    }
    be_moments_request_free(request);
    sandbox_reset();
}

/* The start's warm-up is a fetch's I/O too: the host's dispatches drive it (running no callback for it), and the
 * first fetch then rides on its connection. */
static void test_fetch_io_on_dispatch_drives_the_warm_up(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    char *requests;
    int rounds;
    CHECK_INT(be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH), BE_OK);
    CHECK_INT(be_config_set_fetch_io(config, BE_FETCH_IO_ON_DISPATCH), BE_OK);
    CHECK_INT(be_config_set_recorder(config, 64), BE_OK);
    sandbox_reset();
    test_result_init(&r);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    for (rounds = 0; rounds < 600 && !warm_up_answered(sdk); rounds++) {
        struct pollfd descriptor = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        if (poll(&descriptor, 1, 100) > 0) CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    }
    CHECK(warm_up_answered(sdk));
    CHECK(wait_for_warm_ups(1));
    fetch_answered(sdk, request, &r);
    requests = sandbox_requests();
    CHECK(client_port_after(requests, "\"method\": \"HEAD\"") > 0);
    CHECK_INT(client_port_after(requests, "\"path\": \"/native/v4/offers.json\""),
              client_port_after(requests, "\"method\": \"HEAD\""));
    free(requests);
    be_config_free(config);
    end_fetch_test(sdk, request, &r);
}

static void test_fetch_io_on_dispatch_needs_dispatched_callbacks(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    CHECK_INT(be_config_set_fetch_io(NULL, BE_FETCH_IO_ON_DISPATCH), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_fetch_io(config, (be_fetch_io)7), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_fetch_io(config, BE_FETCH_IO_ON_DISPATCH), BE_OK);
    /* callbacks on the SDK's thread: nobody would dispatch, so the start is refused */
    CHECK_INT(be_sdk_start(config, &sdk), BE_ERR_INVALID_ARGUMENT);
    CHECK(sdk == NULL);
    CHECK(strstr(be_last_error_message(), "BE_CALLBACKS_ON_DISPATCH") != NULL);
    be_config_free(config);
}

static void test_sdk_thread_mode_has_no_descriptor(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_dispatch_fd(sdk), -1);
    CHECK_INT(be_sdk_dispatch(sdk, 0), 0);
    CHECK_INT(be_sdk_dispatch_fd(NULL), -1);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(!pthread_equal(r.thread, pthread_self()));
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

/* ---- shutdown ------------------------------------------------------------------------------------------- */

static void shutdown_with_requests_in_flight(be_callback_mode mode) {
    enum { N = 8 };
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r[N];
    be_moments_request *request = placement_request();
    int i;
    char *requests;
    CHECK_INT(be_config_set_callback_mode(config, mode), BE_OK);
    CHECK_INT(be_config_set_timeout_ms(config, 600000), BE_OK); /* only shutdown may end them */
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    sandbox_reset();
    sandbox_fault("{\"hang\": true}");
    for (i = 0; i < N; i++) {
        test_result_init(&r[i]);
        CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r[i]), BE_OK);
    }
    /* wait until the sandbox holds requests, so they are truly in flight (the rest wait for a connection) */
    for (i = 0; i < 600; i++) {
        int seen;
        struct timespec pause = {0, 50 * 1000 * 1000};
        requests = sandbox_requests();
        seen = count_occurrences(requests, "offers.json");
        free(requests);
        if (seen >= 2) break;
        nanosleep(&pause, NULL); /* polling the sandbox's record: a condition, checked until it holds */
    }
    be_sdk_shutdown(sdk, 5000);
    /* every callback ran exactly once, before shutdown returned, with the cancellation error */
    for (i = 0; i < N; i++) {
        CHECK_INT(r[i].calls, 1);
        CHECK_STR(r[i].domain, BE_CANCELLED_ERROR_DOMAIN);
        CHECK_INT(r[i].code, BE_CANCELLED_ERROR_SHUTDOWN);
        if (mode == BE_CALLBACKS_ON_DISPATCH) CHECK(pthread_equal(r[i].thread, pthread_self()));
        test_result_dispose(&r[i]);
    }
    sandbox_reset();
    be_config_free(config);
    be_moments_request_free(request);
}

static void test_shutdown_cancels_requests_in_flight_on_sdk_thread(void) {
    shutdown_with_requests_in_flight(BE_CALLBACKS_ON_SDK_THREAD);
}

static void test_shutdown_cancels_requests_in_flight_in_dispatch_mode(void) {
    shutdown_with_requests_in_flight(BE_CALLBACKS_ON_DISPATCH);
}

static void test_completed_results_arrive_as_results_at_shutdown(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    int i;
    CHECK_INT(be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    /* wait until the result is queued (the descriptor turns readable), never dispatching it */
    for (i = 0; i < 600; i++) {
        struct pollfd descriptor;
        descriptor.fd = be_sdk_dispatch_fd(sdk);
        descriptor.events = POLLIN;
        if (poll(&descriptor, 1, 100) > 0) break;
    }
    CHECK_INT(r.calls, 0);
    be_sdk_shutdown(sdk, 1000);
    CHECK_INT(r.calls, 1);
    CHECK(!r.has_error);
    CHECK_INT(be_moments_response_offer_count(r.response), 3);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

typedef struct {
    be_sdk *sdk;
    test_result result;
    int fetch_status_inside;
} reentrant_state;

static void shutdown_from_inside(be_moments_response *response, const be_error *error, void *user_data) {
    reentrant_state *state = user_data;
    be_moments_request *request = placement_request();
    (void)response;
    be_sdk_shutdown(state->sdk, 1000); /* detected: logs an error and does nothing */
    /* the SDK is still alive: calling it again from the callback works */
    state->fetch_status_inside = be_sdk_fetch_moments_offers(state->sdk, request, on_moments, &state->result);
    be_moments_request_free(request);
    test_result_record(&state->result, error);
}

typedef struct {
    pthread_mutex_t lock;
    int errors;
    int messages;
    char last[512];
} log_record;

static void record_log(be_log_level level, const char *message, void *user_data) {
    log_record *log = user_data;
    pthread_mutex_lock(&log->lock);
    log->messages++;
    if (level == BE_LOG_ERROR) {
        log->errors++;
        snprintf(log->last, sizeof log->last, "%s", message);
    }
    pthread_mutex_unlock(&log->lock);
}

static void test_shutdown_from_own_callback_is_refused_and_logged(void) {
    be_config *config = sandbox_config("demo-key");
    reentrant_state state;
    be_moments_request *request = placement_request();
    log_record log;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    memset(&state, 0, sizeof state);
    test_result_init(&state.result);
    CHECK_INT(be_config_set_log_handler(config, record_log, BE_LOG_DEBUG, &log), BE_OK);
    CHECK_INT(be_sdk_start(config, &state.sdk), BE_OK);
    CHECK_INT(be_sdk_fetch_moments_offers(state.sdk, request, shutdown_from_inside, &state), BE_OK);
    CHECK(test_result_wait(&state.result, 2)); /* the callback itself, then the fetch it started */
    CHECK_INT(state.fetch_status_inside, BE_OK);
    CHECK_INT(log.errors, 1);
    CHECK(strstr(log.last, "be_sdk_shutdown") != NULL);
    be_sdk_shutdown(state.sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&state.result);
}

static void test_log_handler_respects_its_level(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    log_record log;
    test_result r;
    int i;
    char key[16];
    char long_value[200];
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    memset(long_value, 'x', sizeof long_value - 1);
    long_value[sizeof long_value - 1] = 0;
    /* past the documented limits: 11 custom attributes, a value of 199 characters: warned, still sent */
    for (i = 0; i < 11; i++) {
        snprintf(key, sizeof key, "custom_%d", i);
        CHECK_INT(be_moments_request_set_payload(request, key, "v"), BE_OK);
    }
    CHECK_INT(be_moments_request_set_payload(request, "theme_id", long_value), BE_OK);
    CHECK_INT(be_config_set_log_handler(config, record_log, BE_LOG_ERROR, &log), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    be_sdk_shutdown(sdk, 1000);
    CHECK_INT(log.messages, 0); /* warnings were below the handler's level */
    test_result_dispose(&r);
    be_config_free(config);

    config = sandbox_config("demo-key");
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    CHECK_INT(be_config_set_log_handler(config, record_log, BE_LOG_WARNING, &log), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    be_sdk_shutdown(sdk, 1000);
    CHECK(log.messages >= 2); /* the attribute count and the long value */
    test_result_dispose(&r);
    be_config_free(config);
    be_moments_request_free(request);
}

static void test_sdk_calls_after_config_free_use_the_copy(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_config_free(config); /* the SDK copied it */
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    be_moments_request_free(request); /* the fetch copied it */
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    be_sdk_shutdown(sdk, 1000);
    be_sdk_shutdown(NULL, 0);
    test_result_dispose(&r);
}

static void test_flush_and_stats(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL, *second = NULL;
    be_stats stats;
    test_result r;
    be_moments_request *request = placement_request();
    struct { uint32_t struct_size; uint64_t requests_sent; } old_stats; /* an older, smaller be_stats */
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_flush(sdk, 1000), BE_OK); /* nothing queued */
    CHECK_INT(be_sdk_flush(NULL, 1000), BE_ERR_INVALID_ARGUMENT);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    memset(&stats, 0xAB, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK_INT(be_sdk_get_stats(sdk, &stats), BE_OK);
    CHECK_INT(stats.requests_sent, 2); /* the start's warm-up (one origin here) and the fetch */
    CHECK_INT(stats.queue_depth, 0);
    CHECK_INT(stats.corrupt_records, 0);
    memset(&old_stats, 0, sizeof old_stats);
    old_stats.struct_size = sizeof old_stats;
    CHECK_INT(be_sdk_get_stats(sdk, (be_stats *)(void *)&old_stats), BE_OK);
    CHECK_INT(old_stats.requests_sent, 2);
    stats.struct_size = 0;
    CHECK_INT(be_sdk_get_stats(sdk, &stats), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_get_stats(sdk, NULL), BE_ERR_INVALID_ARGUMENT);
    /* A second instance on the same storage directory does not deliver: its flush says so at once. */
    CHECK_INT(be_sdk_start(config, &second), BE_OK);
    CHECK_INT(be_sdk_flush(second, 60000), BE_ERR_TIMEOUT);
    CHECK(strstr(be_last_error_message(), "another instance") != NULL);
    be_sdk_shutdown(second, 1000);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_a_forked_child_gets_invalid_state(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    int status = 0;
    pid_t child;
    test_result r;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    /* an answer the parent holds: the child may still read and release it */
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    fflush(NULL);
    child = fork();
    if (child == 0) {
        /* the SDK's threads did not come along: every call must refuse, none may hang or crash */
        int refused = be_sdk_fetch_moments_offers(sdk, request, on_moments, NULL) == BE_ERR_INVALID_STATE &&
                      be_sdk_flush(sdk, 1000) == BE_ERR_INVALID_STATE && strstr(be_last_error_message(), "fork") != NULL;
        /* objects outlive their SDK, in a child too: reading makes the answer's texts, releasing frees them */
        const be_offer *offer = be_moments_response_offer_at(r.response, 0);
        int read = offer && be_offer_title(offer) && strlen(be_offer_json(offer)) > 2;
        be_moments_response_release(r.response);
        _exit(refused && read ? 0 : 1);
    }
    CHECK(child > 0);
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_library_section);
    RUN(test_last_error_is_per_thread);
    RUN(test_config_setters_validate);
    RUN(test_storage_directory_rules);
    RUN(test_dispatch_mode_runs_callbacks_on_the_polling_thread);
    RUN(test_sdk_thread_mode_has_no_descriptor);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_runs_on_the_polling_thread);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_sends_within_the_fetch_call);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_times_out_through_the_descriptor);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_times_out_after_an_answered_fetch);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_goes_quiet_after_the_last_fetch);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_lets_go_of_a_connection_the_server_closed);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_is_cancelled_by_shutdown);
    LIBCURL_ONLY(test_fetch_io_on_dispatch_drives_the_warm_up);
    RUN(test_fetch_io_on_dispatch_needs_dispatched_callbacks);
    RUN(test_shutdown_cancels_requests_in_flight_on_sdk_thread);
    RUN(test_shutdown_cancels_requests_in_flight_in_dispatch_mode);
    RUN(test_completed_results_arrive_as_results_at_shutdown);
    RUN(test_shutdown_from_own_callback_is_refused_and_logged);
    RUN(test_log_handler_respects_its_level);
    RUN(test_sdk_calls_after_config_free_use_the_copy);
    RUN(test_flush_and_stats);
    RUN(test_a_forked_child_gets_invalid_state);
    return test_finish();
}
