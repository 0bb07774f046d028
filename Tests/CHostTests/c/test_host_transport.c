/* A host-supplied transport (be_config_set_http_transport) against the sandbox: what a request carries, every
 * kind of request going through it, and hosts that misbehave: one that never answers, one that answers twice,
 * one that answers from another thread after shutdown, and answers that are refused. Built with
 * -DBE_TEST_HOST_TRANSPORT, so host_transport.h's socket transport is at hand and no socket may be the SDK's. */
#define _GNU_SOURCE
#include "test_support.h"

#include <limits.h>

#ifndef BE_TEST_HOST_TRANSPORT
#error "build with -DBE_TEST_HOST_TRANSPORT: this test uses host_transport.h"
#endif

/* ---- a transport that keeps its requests for the test to answer -------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    be_http_request *requests[64];
    int count;
    char method[16], url[512], user_agent[256], body[4096];
    size_t body_size;
    uint32_t timeout_ms;
} held_requests;

static held_requests held = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, "", "", "", "", 0, 0};

static void hold_send(be_http_request *request, void *user_data) {
    size_t i;
    CHECK(user_data == &held);
    pthread_mutex_lock(&held.lock);
    if (held.count < 64) held.requests[held.count++] = request;
    snprintf(held.method, sizeof held.method, "%s", be_http_request_method(request));
    snprintf(held.url, sizeof held.url, "%s", be_http_request_url(request));
    for (i = 0; i < be_http_request_header_count(request); i++) {
        if (strcmp(be_http_request_header_name(request, i), "User-Agent") == 0)
            snprintf(held.user_agent, sizeof held.user_agent, "%s", be_http_request_header_value(request, i));
    }
    held.body_size = be_http_request_body_size(request);
    if (held.body_size < sizeof held.body) {
        memcpy(held.body, be_http_request_body(request) ? be_http_request_body(request) : "", held.body_size);
        held.body[held.body_size] = 0;
    }
    held.timeout_ms = be_http_request_timeout_ms(request);
    pthread_cond_broadcast(&held.changed);
    pthread_mutex_unlock(&held.lock);
}

static be_http_request *wait_for_held(int count) {
    be_http_request *request;
    pthread_mutex_lock(&held.lock);
    while (held.count < count) pthread_cond_wait(&held.changed, &held.lock);
    request = held.requests[count - 1];
    pthread_mutex_unlock(&held.lock);
    return request;
}

static be_config *holding_config(uint32_t timeout_ms) {
    be_config *config = sandbox_config("demo-key");
    pthread_mutex_lock(&held.lock);
    held.count = 0;
    pthread_mutex_unlock(&held.lock);
    CHECK_INT(be_config_set_http_transport(config, hold_send, &held), BE_OK);
    CHECK_INT(be_config_set_timeout_ms(config, timeout_ms), BE_OK);
    return config;
}

static be_moments_request *placement(void) {
    be_moments_request *request = placement_request();
    return request;
}

static const char *ok_lines[] = {"Content-Type: application/json", "X-Test: yes"};
static const char *no_offers = "{\"data\": {\"offers\": [], \"count\": 0}}";

static void test_a_request_carries_what_libcurl_would_send(void) {
    be_config *config = holding_config(15000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    test_result r;
    char expected[512];
    CHECK_INT(be_config_set_user_agent(config, "HostApp/1.0"), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    CHECK_STR(held.method, "POST");
    snprintf(expected, sizeof expected, "%s/native/v4/offers.json?api_key=demo-key", sandbox_url());
    CHECK_STR(held.url, expected);
    CHECK_STR(held.user_agent, "HostApp/1.0");
    CHECK(strstr(held.body, "\"placement\":\"checkout\"") != NULL);
    CHECK_INT(held.timeout_ms, 15000);
    CHECK(be_http_request_header_name(sent, 99) == NULL);
    /* refused answers leave the request open */
    CHECK_INT(be_http_request_complete(sent, 99, NULL, 0, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 600, NULL, 0, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 200, NULL, 2, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 200, NULL, 0, NULL, 5), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(NULL, 200, NULL, 0, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_fail(NULL, "x"), BE_ERR_INVALID_ARGUMENT);
    CHECK(be_http_request_url(sent) != NULL);
    /* the answer: the SDK decodes it as its own */
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NO_OFFERS);
    /* answered: the getters answer NULL and a second answer is refused */
    CHECK(be_http_request_url(sent) == NULL);
    CHECK_INT(be_http_request_body_size(sent), 0);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)), BE_ERR_INVALID_STATE);
    CHECK_INT(be_http_request_fail(sent, "again"), BE_ERR_INVALID_STATE);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_a_host_that_never_answers_times_out_and_may_answer_late(void) {
    be_config *config = holding_config(300);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    test_result r;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    CHECK(test_result_wait(&r, 1)); /* the SDK's own timeout ends it */
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NETWORK);
    CHECK(strstr(r.message, "did not complete") != NULL);
    CHECK(be_http_request_url(sent) != NULL); /* still the host's until it answers */
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)), BE_OK); /* accepted, ignored */
    CHECK_INT(r.calls, 1);
    CHECK_INT(be_http_request_complete(sent, 200, NULL, 0, NULL, 0), BE_ERR_INVALID_STATE);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void *answer_later(void *argument) {
    be_http_request *request = argument;
    CHECK_INT(be_http_request_fail(request, "answered after shutdown"), BE_OK);
    return NULL;
}

static void test_an_answer_from_another_thread_after_shutdown_is_ignored(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    pthread_t thread;
    test_result r;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    be_sdk_shutdown(sdk, 1000);
    CHECK_INT(r.calls, 1);
    CHECK_STR(r.domain, BE_CANCELLED_ERROR_DOMAIN);
    CHECK(be_http_request_url(sent) != NULL);
    pthread_create(&thread, NULL, answer_later, sent);
    pthread_join(thread, NULL);
    CHECK_INT(r.calls, 1);
    CHECK(be_http_request_url(sent) == NULL);
    test_result_dispose(&r);
    be_moments_request_free(request);
    be_config_free(config);
}

/* ---- every kind of request through the host's sockets ----------------------------------------------- */

typedef struct {
    test_result result;
    int images, zone_ads;
} counts;

static void on_image(be_image *image, const be_error *error, void *user_data) {
    counts *c = user_data;
    if (image) c->images++;
    test_result_record(&c->result, error);
}

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    counts *c = user_data;
    if (ad) c->zone_ads++;
    test_result_record(&c->result, error);
}

static void answer_twice(be_http_request *request, void *user_data) {
    /* the socket transport answers, then a second answer must be refused */
    host_exchange(request);
    CHECK_INT(be_http_request_complete(request, 200, NULL, 0, NULL, 0), BE_ERR_INVALID_STATE);
    (void)user_data;
}

static void test_images_and_zone_ads_go_through_the_host(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    counts c;
    char url[512];
    int sent_before = host_requests_sent;
    memset(&c, 0, sizeof c);
    test_result_init(&c.result);
    snprintf(url, sizeof url, "%s/adAPI.php?AdID={zone}", sandbox_url());
    CHECK_INT(be_config_set_zone_ad_url(config, url), BE_OK);
    CHECK_INT(be_config_set_http_transport(config, answer_twice, NULL), BE_OK);
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    snprintf(url, sizeof url, "%s/cdn/c/9001.png", sandbox_url());
    CHECK_INT(be_sdk_fetch_image(sdk, url, on_image, &c), BE_OK);
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, "1", on_zone_ad, &c), BE_OK);
    CHECK(test_result_wait(&c.result, 2));
    CHECK(!c.result.has_error);
    CHECK_INT(c.images, 1);
    CHECK_INT(c.zone_ads, 1);
    CHECK_INT(host_requests_sent - sent_before, 2);
    CHECK_INT(sandbox_count("/cdn/c/9001.png"), 1);
    host_transport_scan(); /* while the SDK runs, too */
    be_sdk_shutdown(sdk, 1000);
    test_result_dispose(&c.result);
    be_config_free(config);
}

/* ---- sizes that cannot be real, over-cap bodies, shutdown inside send -------------------------------- */

/* The process's peak resident set (VmHWM) in KiB; reset_peak() makes the current one the peak. */
static long peak_kib(void) {
    char line[256];
    long kib = -1;
    FILE *status = fopen("/proc/self/status", "r");
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) kib = atol(line + 6);
    }
    if (status) fclose(status);
    return kib;
}

static void reset_peak(void) {
    FILE *refs = fopen("/proc/self/clear_refs", "w");
    if (refs) {
        fputs("5", refs);
        fclose(refs);
    }
}

static void test_impossible_sizes_are_refused_before_a_byte_is_read(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    static const char *many[BE_HTTP_MAX_HEADER_LINES + 1];
    char *long_line = malloc(BE_HTTP_MAX_HEADER_LINE_BYTES + 2);
    const char *one_long[1];
    test_result r;
    size_t i;
    for (i = 0; i <= BE_HTTP_MAX_HEADER_LINES; i++) many[i] = "X-Many: 1";
    memset(long_line, 'a', BE_HTTP_MAX_HEADER_LINE_BYTES + 1);
    long_line[BE_HTTP_MAX_HEADER_LINE_BYTES + 1] = 0;
    one_long[0] = long_line;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    /* SIZE_MAX lines and bytes: refused on the counts, nothing read (reading would crash) */
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, SIZE_MAX, no_offers, SIZE_MAX), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "BE_HTTP_MAX_HEADER_LINES") != NULL);
    CHECK_INT(be_http_request_complete(sent, 200, many, BE_HTTP_MAX_HEADER_LINES + 1, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, SIZE_MAX), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "BE_HTTP_MAX_BODY_BYTES") != NULL);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, (size_t)BE_HTTP_MAX_BODY_BYTES + 1),
              BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 200, one_long, 1, NULL, 0), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "BE_HTTP_MAX_HEADER_LINE_BYTES") != NULL);
    CHECK_INT(r.calls, 0);
    /* still open: a correct answer goes through */
    CHECK(be_http_request_url(sent) != NULL);
    CHECK_INT(be_http_request_complete(sent, 200, many, BE_HTTP_MAX_HEADER_LINES, no_offers, strlen(no_offers)), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NO_OFFERS);
    free(long_line);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_an_over_cap_body_is_never_copied(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    size_t size = 9u * 1024 * 1024; /* over a Moments answer's 8 MiB, within BE_HTTP_MAX_BODY_BYTES */
    char *body = malloc((size_t)BE_HTTP_MAX_BODY_BYTES + 1);
    long before, grown;
    test_result r;
    memset(body, ' ', (size_t)BE_HTTP_MAX_BODY_BYTES + 1); /* the host's own buffer, resident before the peak is taken */
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    reset_peak();
    before = peak_kib();
    CHECK_INT(be_http_request_complete(wait_for_held(1), 200, ok_lines, 2, body, size), BE_OK);
    CHECK(test_result_wait(&r, 1));
    grown = peak_kib() - before;
    CHECK_INT(r.code, BE_MOMENTS_ERROR_DECODING);
    CHECK(strstr(r.message, "large") != NULL);
    printf("a refused 9 MiB body: peak RSS +%ld KiB (a copy would be +9216)\n", grown);
    CHECK(before > 0 && grown < 2048); /* a margin, not a copy */
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
    free(body);
}

static void on_held_image(be_image *image, const be_error *error, void *user_data) {
    test_result *r = user_data;
    pthread_mutex_lock(&r->lock);
    r->code = image ? (int)(be_image_size(image) / 1024) : -1;
    pthread_mutex_unlock(&r->lock);
    test_result_record(r, error);
}

static void test_an_accepted_image_is_copied_once(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    size_t size = 9u * 1024 * 1024; /* within an image's 10 MiB */
    char *body = malloc(size), url[512];
    static const char *png_lines[] = {"Content-Type: image/png", "Cache-Control: max-age=3600"};
    long before, grown;
    test_result r;
    memset(body, 7, size); /* the host's own buffer, resident before the peak is taken */
    memcpy(body, "\x89PNG\r\n\x1a\n", 8);
    snprintf(url, sizeof url, "%s/cdn/big.png", sandbox_url());
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_image(sdk, url, on_held_image, &r), BE_OK);
    reset_peak();
    before = peak_kib();
    CHECK_INT(be_http_request_complete(wait_for_held(1), 200, png_lines, 2, body, size), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    grown = peak_kib() - before;
    CHECK_INT(r.code, 9216);
    printf("an accepted 9 MiB image (memory and disk caches on): peak RSS +%ld KiB (one copy is +9216)\n", grown);
    CHECK(before > 0 && grown < 9216 + 3072); /* one copy and a margin; a second copy would be over */
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
    free(body);
}

/* A transport whose send shuts its SDK down first, then answers from the sandbox's own answer. */
typedef struct {
    be_sdk *sdk;
    pthread_t test_thread;
    int on_test_thread, on_other_thread;
} shutting;

static shutting shut;

static void shutting_send(be_http_request *request, void *user_data) {
    char path[600];
    char *answer;
    (void)user_data;
    be_sdk_shutdown(shut.sdk, 1000); /* refused and logged: it returns, the SDK goes on */
    if (pthread_equal(pthread_self(), shut.test_thread)) shut.on_test_thread++;
    else shut.on_other_thread++;
    if (strstr(be_http_request_url(request), "/offers.json")) {
        snprintf(path, sizeof path, "%s", strstr(be_http_request_url(request), "/native/v4/offers.json"));
        answer = sandbox_call("POST", path, "{\"placement\": \"checkout\"}");
        CHECK_INT(be_http_request_complete(request, 200, ok_lines, 2, answer, strlen(answer)), BE_OK);
        free(answer);
    } else {
        CHECK_INT(be_http_request_complete(request, 200, NULL, 0, NULL, 0), BE_OK);
    }
}

typedef struct { pthread_mutex_t lock; int errors; } log_count;

static void count_send_errors(be_log_level level, const char *message, void *user_data) {
    log_count *count = user_data;
    if (level != BE_LOG_ERROR || !strstr(message, "send")) return;
    pthread_mutex_lock(&count->lock);
    count->errors++;
    pthread_mutex_unlock(&count->lock);
}

static void test_shutdown_inside_send_is_refused_on_any_thread(void) {
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = placement();
    be_offer_screen *screen;
    log_count log = {PTHREAD_MUTEX_INITIALIZER, 0};
    test_result r;
    memset(&shut, 0, sizeof shut);
    shut.test_thread = pthread_self();
    CHECK_INT(be_config_set_http_transport(config, shutting_send, NULL), BE_OK);
    CHECK_INT(be_config_set_log_handler(config, count_send_errors, BE_LOG_ERROR, &log), BE_OK);
    CHECK_INT(be_sdk_start(config, &shut.sdk), BE_OK);
    test_result_init(&r);
    /* the fetch sends on this thread, inside be_sdk_fetch_moments_offers */
    CHECK_INT(be_sdk_fetch_moments_offers(shut.sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    CHECK_INT(shut.on_test_thread, 1);
    /* the close beacon is sent by the SDK's delivery thread */
    screen = be_sdk_moments_screen(shut.sdk, r.response);
    CHECK(screen != NULL);
    CHECK_INT(be_offer_screen_close(screen), BE_OK);
    CHECK_INT(be_sdk_flush(shut.sdk, 60000), BE_OK);
    CHECK(shut.on_other_thread >= 1);
    pthread_mutex_lock(&log.lock);
    CHECK_INT(log.errors, shut.on_test_thread + shut.on_other_thread);
    pthread_mutex_unlock(&log.lock);
    be_offer_screen_free(screen);
    test_result_dispose(&r);
    be_sdk_shutdown(shut.sdk, 1000); /* from outside send: it shuts down */
    be_moments_request_free(request);
    be_config_free(config);
}

/* A host that shuts down inside send while a feed load waits for a registration, on the SDK's own thread (the
 * registration after the feed refused the token) and on its own: the shutdown is refused, and whether the host then
 * answers the request, answers it inside send, or drops it (it believed the SDK gone), the load's callback runs
 * exactly once, and the real shutdown after runs it no second time. */
typedef struct {
    be_sdk *sdk;
    int armed, mode; /* 0: answered on a thread, 1: answered inside send, 2: dropped */
    int refused_on_sdk_thread, refused_on_host_thread;
} registering;

static registering reg;

static void registering_send(be_http_request *request, void *user_data) {
    char name[32] = "";
    if (reg.armed && strstr(be_http_request_url(request), "/v1/users")) {
        be_sdk_shutdown(reg.sdk, 1000); /* refused: inside send */
        pthread_getname_np(pthread_self(), name, sizeof name);
        if (strncmp(name, "be-", 3) == 0) reg.refused_on_sdk_thread++;
        else reg.refused_on_host_thread++;
        if (reg.mode == 2) return; /* never answered: the request times out */
        if (reg.mode == 1) {
            host_exchange(request);
            return;
        }
    }
    host_transport_send(request, user_data);
}

static void test_a_feed_load_is_answered_when_shutdown_inside_send_is_refused(void) {
    int mode, revoke;
    for (revoke = 0; revoke < 2; revoke++) {
        for (mode = 0; mode < 3; mode++) {
            be_config *config = sandbox_config("demo-key");
            test_result warm, r;
            memset(&reg, 0, sizeof reg);
            reg.mode = mode;
            CHECK_INT(be_config_set_http_transport(config, registering_send, NULL), BE_OK);
            CHECK_INT(be_config_set_timeout_ms(config, 2000), BE_OK); /* a dropped request fails soon */
            CHECK_INT(be_sdk_start(config, &reg.sdk), BE_OK);
            test_result_init(&warm);
            test_result_init(&r);
            if (revoke) { /* registered first; the feed then refuses the token and the SDK's thread registers again */
                CHECK_INT(be_sdk_set_user_identity(reg.sdk, "owed-user"), BE_OK);
                CHECK_INT(be_sdk_load_offer_feed(reg.sdk, on_feed, &warm), BE_OK);
                CHECK(test_result_wait(&warm, 1) && !warm.has_error);
                free(sandbox_call("POST", "/_sandbox/tokens/revoke", NULL));
                reg.armed = 1;
            } else {
                reg.armed = 1;
                CHECK_INT(be_sdk_set_user_identity(reg.sdk, "owed-user"), BE_OK);
            }
            CHECK_INT(be_sdk_load_offer_feed(reg.sdk, on_feed, &r), BE_OK);
            CHECK(test_result_wait(&r, 1));
            CHECK(reg.refused_on_sdk_thread + reg.refused_on_host_thread >= 1);
            if (revoke) CHECK(reg.refused_on_sdk_thread >= 1);
            /* answered: the feed; dropped: error 2 */
            CHECK_INT(r.has_error, mode == 2);
            if (mode == 2) CHECK_INT(r.code, 2);
            reg.armed = 0;
            be_sdk_shutdown(reg.sdk, 1000);
            CHECK_INT(r.calls, 1);
            test_result_dispose(&warm);
            test_result_dispose(&r);
            be_config_free(config);
        }
    }
}

/* ---- a hostile host: pointers, statuses, header bytes, sizes, calls from inside send --------------------- */

/* A pointer the library never handed out, one it handed out and already closed, and the same one used again:
 * each is refused with BE_ERR_INVALID_STATE or INVALID_ARGUMENT and read nowhere (getters answer NULL or 0). */
static void test_forged_freed_and_reused_requests_are_refused(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    unsigned char forged_bytes[256];
    be_http_request *forged = (be_http_request *)forged_bytes;
    test_result r;
    memset(forged_bytes, 0x41, sizeof forged_bytes);
    CHECK(be_http_request_complete(forged, 200, ok_lines, 2, no_offers, strlen(no_offers)) < 0);
    CHECK(be_http_request_fail(forged, "x") < 0);
    CHECK(be_http_request_url(forged) == NULL && be_http_request_method(forged) == NULL);
    CHECK_INT((int)be_http_request_header_count(forged), 0);
    CHECK(be_http_request_complete((be_http_request *)(uintptr_t)0x10, 200, NULL, 0, NULL, 0) < 0);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)), BE_OK);
    CHECK(test_result_wait(&r, 1));
    /* answered: the pointer is dead; a second answer, a failure or a read of it change nothing */
    CHECK(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)) < 0);
    CHECK(be_http_request_fail(sent, "again") < 0);
    CHECK(be_http_request_url(sent) == NULL && be_http_request_body(sent) == NULL);
    CHECK_INT((int)be_http_request_body_size(sent), 0);
    CHECK_INT(r.calls, 1);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    /* after shutdown, a pointer of that SDK is dead too */
    CHECK(be_http_request_complete(sent, 200, NULL, 0, NULL, 0) < 0);
    be_moments_request_free(request);
    be_config_free(config);
}

/* Statuses outside 100...599 and header lines with CR, LF or no colon are refused with the request left open for
 * a correct answer; a NUL ends a C string, so a line with one reaches the library as its first part only. */
static void test_impossible_statuses_and_header_bytes_are_refused(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    static const int statuses[] = {0, 99, 600, 1000, -1, -200, INT_MAX, INT_MIN};
    static const char *bad_lines[][2] = {
        {"Content-Type: application/json", "X-A: b\r\nSet-Cookie: injected=1"},
        {"Content-Type: application/json", "X-A: b\nX-B: c"},
        {"Content-Type: application/json", "X-A\rB: c"},
        {"Content-Type: application/json", "no colon here"},
        {"Content-Type: application/json", ": no name"},
    };
    test_result r;
    size_t i;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    for (i = 0; i < sizeof statuses / sizeof *statuses; i++) {
        CHECK_INT(be_http_request_complete(sent, statuses[i], ok_lines, 2, no_offers, strlen(no_offers)), BE_ERR_INVALID_ARGUMENT);
        CHECK(strstr(be_last_error_message(), "status") != NULL);
    }
    for (i = 0; i < sizeof bad_lines / sizeof *bad_lines; i++) {
        CHECK_INT(be_http_request_complete(sent, 200, bad_lines[i], 2, no_offers, strlen(no_offers)), BE_ERR_INVALID_ARGUMENT);
    }
    CHECK_INT(r.calls, 0);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, no_offers, strlen(no_offers)), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NO_OFFERS);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

/* A 100 MB body and 100,000 header lines, really there in memory: refused on their sizes before a byte is read. */
static void test_a_100_mb_body_and_100000_headers_are_refused_unread(void) {
    be_config *config = holding_config(60000);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement();
    be_http_request *sent;
    size_t body_size = 100u * 1024 * 1024, count = 100000, i;
    char *body = malloc(body_size);
    const char **lines = malloc(count * sizeof *lines);
    test_result r;
    CHECK(body != NULL && lines != NULL);
    memset(body, ' ', body_size);
    for (i = 0; i < count; i++) lines[i] = "X-Many: 1";
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    sent = wait_for_held(1);
    CHECK_INT(be_http_request_complete(sent, 200, ok_lines, 2, body, body_size), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_http_request_complete(sent, 200, lines, count, no_offers, strlen(no_offers)), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(r.calls, 0);
    CHECK_INT(be_http_request_fail(sent, "gave up"), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NETWORK);
    free(body);
    free(lines);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

/* A transport that answers inside send, and one that calls the SDK from inside send: a fetch there starts (and is
 * answered), a flush returns within its timeout instead of waiting for itself. */
static struct {
    be_sdk *sdk;
    int depth, nested_fetch_status, flush_status, sends;
    test_result nested;
} inner;

static void answering_send(be_http_request *request, void *user_data) {
    be_moments_request *more;
    (void)user_data;
    inner.sends++;
    if (inner.depth == 0 && strstr(be_http_request_url(request), "offers.json") != NULL) {
        inner.depth++;
        more = placement();
        inner.nested_fetch_status = be_sdk_fetch_moments_offers(inner.sdk, more, on_moments, &inner.nested);
        be_moments_request_free(more);
        inner.flush_status = be_sdk_flush(inner.sdk, 200);
        inner.depth--;
    }
    be_http_request_complete(request, 200, ok_lines, 2, no_offers, strlen(no_offers));
}

static void test_answers_and_sdk_calls_from_inside_send(void) {
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = placement();
    test_result r;
    memset(&inner, 0, sizeof inner);
    inner.flush_status = 1;
    CHECK_INT(be_config_set_http_transport(config, answering_send, NULL), BE_OK);
    CHECK_INT(be_sdk_start(config, &inner.sdk), BE_OK);
    test_result_init(&r);
    test_result_init(&inner.nested);
    CHECK_INT(be_sdk_fetch_moments_offers(inner.sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NO_OFFERS);
    CHECK_INT(inner.nested_fetch_status, BE_OK);
    CHECK(test_result_wait(&inner.nested, 1));
    CHECK_INT(inner.nested.code, BE_MOMENTS_ERROR_NO_OFFERS);
    CHECK(inner.flush_status == BE_OK || inner.flush_status == BE_ERR_TIMEOUT);
    test_result_dispose(&r);
    test_result_dispose(&inner.nested);
    be_sdk_shutdown(inner.sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_a_request_carries_what_libcurl_would_send);
    RUN(test_a_host_that_never_answers_times_out_and_may_answer_late);
    RUN(test_an_answer_from_another_thread_after_shutdown_is_ignored);
    RUN(test_images_and_zone_ads_go_through_the_host);
    RUN(test_impossible_sizes_are_refused_before_a_byte_is_read);
    RUN(test_an_over_cap_body_is_never_copied);
    RUN(test_an_accepted_image_is_copied_once);
    RUN(test_shutdown_inside_send_is_refused_on_any_thread);
    RUN(test_a_feed_load_is_answered_when_shutdown_inside_send_is_refused);
    RUN(test_forged_freed_and_reused_requests_are_refused);
    RUN(test_impossible_statuses_and_header_bytes_are_refused);
    RUN(test_a_100_mb_body_and_100000_headers_are_refused_unread);
    RUN(test_answers_and_sdk_calls_from_inside_send);
    curl_global_cleanup();
    return test_finish();
}
