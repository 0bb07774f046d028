/* What a hostile server or a careless host could do, each as the probe did it (issue "Nothing a server sends can
 * hurt the host"): every case must end with the result the header promises, never a crash, hang or leak. */
#define _GNU_SOURCE
#include "test_support.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <dirent.h>
#include <fcntl.h>

/* ---- a log handler that keeps every message ---------------------------------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char text[65536];
    size_t used;
} test_log;

static void record_log(be_log_level level, const char *message, void *user_data) {
    test_log *log = user_data;
    size_t n = strlen(message);
    (void)level;
    pthread_mutex_lock(&log->lock);
    if (log->used + n + 2 < sizeof log->text) {
        memcpy(log->text + log->used, message, n);
        log->used += n;
        log->text[log->used++] = '\n';
        log->text[log->used] = 0;
    }
    pthread_cond_broadcast(&log->changed);
    pthread_mutex_unlock(&log->lock);
}

static void test_log_init(test_log *log) {
    memset(log, 0, sizeof *log);
    pthread_mutex_init(&log->lock, NULL);
    pthread_cond_init(&log->changed, NULL);
}

/* Waits (60 s at most) until the log holds `needle`; 1 when it does. */
static int test_log_wait_for(test_log *log, const char *needle) {
    struct timespec deadline;
    int found;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&log->lock);
    while (!(found = strstr(log->text, needle) != NULL)) {
        if (pthread_cond_timedwait(&log->changed, &log->lock, &deadline) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&log->lock);
    return found;
}

static be_moments_response *fetch(be_sdk *sdk) {
    test_result r;
    be_moments_request *request = placement_request();
    be_moments_response *response = NULL;
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(!r.has_error);
    if (r.has_error) fprintf(stderr, "fetch failed: %s %d: %s\n", r.domain, r.code, r.message);
    response = be_moments_response_retain(r.response);
    test_result_dispose(&r);
    be_moments_request_free(request);
    return response;
}

/* F1: a pixel answers 503 with a Retry-After year of 14 digits. The process lived through it, and a restart on
 * the same storage delivers the beacon instead of dying again. */
static void test_an_absurd_retry_after_date_neither_crashes_nor_sticks(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_response *response;
    be_offer_screen *screen;
    be_stats stats;
    test_log log;
    test_log_init(&log);
    be_config_set_log_handler(config, record_log, BE_LOG_DEBUG, &log);
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    response = fetch(sdk);
    sandbox_fault("{\"path\": \"/b/\", \"status\": 503, \"retry_after\": \"Wed, 02 Dec 99999999999999 16:00:00 GMT\"}");
    screen = be_sdk_moments_screen(sdk, response); /* fires the first offer's pixels */
    CHECK(screen != NULL);
    CHECK(test_log_wait_for(&log, "ignored a Retry-After that is unreadable or out of range"));
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK_INT(be_sdk_get_stats(sdk, &stats), BE_OK);
    CHECK_INT(stats.beacons_delivered, 0);
    CHECK(stats.queue_depth >= 1);
    be_offer_screen_free(screen);
    be_moments_response_release(response);
    be_sdk_shutdown(sdk, 0);

    /* the next start on the same storage: the server is well again, and the queued beacons go out */
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
    sdk = NULL;
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK_INT(be_sdk_get_stats(sdk, &stats), BE_OK);
    CHECK(stats.beacons_delivered >= 1);
    CHECK_INT(stats.queue_depth, 0);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* F2: CR/LF in a payload's user agent is refused before anything is sent, with the invalid-parameter error. */
static void test_a_user_agent_with_crlf_never_reaches_the_wire(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = be_moments_request_new();
    test_result r;
    char *requests;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_moments_request_set_payload(request, "ua", "Mozilla\r\nX-Injected: yes\r\nHost: evil.example");
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(r.has_error);
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_INVALID_PARAMETER);
    CHECK(strchr(r.message, '\r') == NULL && strchr(r.message, '\n') == NULL);
    requests = sandbox_requests();
    CHECK(strstr(requests, "x-injected") == NULL && strstr(requests, "evil.example") == NULL);
    CHECK_INT(sandbox_count("/native/v4/offers.json"), 0);
    free(requests);
    test_result_dispose(&r);
    be_moments_request_free(request);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* F2: a registration token holding CR/LF is refused as the answer it came in; it never becomes a header. */
static void test_a_token_with_crlf_is_a_failed_registration(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result r;
    char *requests;
    sandbox_reset();
    /* Every registration gets the bad token: the load may join the first one or, when that failed before it
     * came (a warm connection makes it quick), start another. */
    sandbox_fault("{\"path\": \"/v1/users\", \"status\": 201,"
                  " \"body\": \"{\\\"user_id\\\": \\\"u1\\\", \\\"token\\\": \\\"t\\\\r\\\\nX-Injected: yes\\\"}\"}");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "mallory"), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK(r.has_error);
    CHECK_STR(r.domain, BE_OFFER_FEED_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_OFFER_FEED_ERROR_UNAVAILABLE);
    requests = sandbox_requests();
    CHECK(strstr(requests, "x-injected") == NULL);
    free(requests);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* F4: identity A loaded; B set (its registration held); a load; A set again: that load and later ones complete. */
static void test_switching_back_during_a_registration_strands_no_load(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    test_result first, waiting, later;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "alice"), BE_OK);
    test_result_init(&first);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &first), BE_OK);
    CHECK(test_result_wait(&first, 1));
    CHECK(!first.has_error);

    sandbox_fault("{\"path\": \"/v1/users\", \"gate\": true, \"times\": 1}");
    CHECK_INT(be_sdk_set_user_identity(sdk, "bob"), BE_OK); /* registration held at the gate */
    test_result_init(&waiting);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &waiting), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, "alice"), BE_OK);
    CHECK(test_result_wait(&waiting, 1)); /* completes without the gate opening */
    CHECK(!waiting.has_error);
    CHECK(waiting.feed != NULL);

    test_result_init(&later);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &later), BE_OK);
    CHECK(test_result_wait(&later, 1));
    CHECK(!later.has_error);
    free(sandbox_call("POST", "/_sandbox/release", NULL));
    test_result_dispose(&first);
    test_result_dispose(&waiting);
    test_result_dispose(&later);
    be_sdk_shutdown(sdk, 1000);
    be_config_free(config);
}

/* ---- F5: fork ------------------------------------------------------------------------------------------ */

static int child_callbacks = 0;
static void count_in_child(be_moments_response *response, const be_error *error, void *user_data) {
    (void)response;
    (void)error;
    (void)user_data;
    child_callbacks++;
}

/* Whether some process holds the flock on the storage directory's lock file under `root`. */
static int lock_is_held_under(const char *root) {
    DIR *dir = opendir(root);
    struct dirent *entry;
    int held = 0;
    if (!dir) return 0;
    while ((entry = readdir(dir)) != NULL) {
        char path[1024];
        int fd;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s/outbox.lock", root, entry->d_name);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) held = 1;
        else flock(fd, LOCK_UN);
        close(fd);
    }
    closedir(dir);
    return held;
}

static void fork_then_dispatch_and_shutdown_in_the_child(be_callback_mode mode) {
    char root[] = "/tmp/be-fork-XXXXXX";
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    test_result r;
    int status = 0;
    pid_t child;
    CHECK(mkdtemp(root) != NULL);
    be_config_set_storage_dir(config, root);
    be_config_set_callback_mode(config, mode);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    if (mode == BE_CALLBACKS_ON_DISPATCH) {
        struct pollfd ready = {be_sdk_dispatch_fd(sdk), POLLIN, 0};
        CHECK(poll(&ready, 1, 60000) == 1); /* the callback waits to be dispatched */
    } else {
        CHECK(test_result_wait(&r, 1));
    }
    CHECK(lock_is_held_under(root));
    fflush(NULL);
    child = fork();
    if (child == 0) {
        /* nothing of the parent's may run, be joined or be unlocked here */
        int ok = be_sdk_dispatch(sdk, 0) == 0 && be_sdk_dispatch_fd(sdk) == -1 && r.calls == 0 + (mode != BE_CALLBACKS_ON_DISPATCH);
        be_sdk_shutdown(sdk, 1000);
        ok = ok && child_callbacks == 0;
        _exit(ok ? 0 : 1);
    }
    CHECK(child > 0);
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(lock_is_held_under(root)); /* the child released nothing of the parent's */
    if (mode == BE_CALLBACKS_ON_DISPATCH) {
        CHECK_INT(be_sdk_dispatch(sdk, 0), 1); /* the callback still belongs to the parent, and runs once */
    }
    CHECK_INT(r.calls, 1);
    be_sdk_shutdown(sdk, 1000);
    CHECK(!lock_is_held_under(root));
    test_result_dispose(&r);
    be_moments_request_free(request);
    be_config_free(config);
    (void)count_in_child;
}

static void test_fork_in_dispatch_mode(void) { fork_then_dispatch_and_shutdown_in_the_child(BE_CALLBACKS_ON_DISPATCH); }
static void test_fork_in_thread_mode(void) { fork_then_dispatch_and_shutdown_in_the_child(BE_CALLBACKS_ON_SDK_THREAD); }

/* ---- F6: one callback at a time ---------------------------------------------------------------------- */

enum { DISPATCH_THREADS = 8, DISPATCH_CALLBACKS = 64 };
static be_sdk *dispatch_sdk;
static pthread_mutex_t dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
static int inside = 0, most_inside = 0, ran = 0, nested_ran = 0;

static void count_concurrency(be_moments_response *response, const be_error *error, void *user_data) {
    int i;
    (void)response;
    (void)error;
    (void)user_data;
    pthread_mutex_lock(&dispatch_lock);
    inside++;
    if (inside > most_inside) most_inside = inside;
    pthread_mutex_unlock(&dispatch_lock);
    nested_ran += be_sdk_dispatch(dispatch_sdk, 1); /* must return 0: never nested */
    for (i = 0; i < 200; i++) sched_yield(); /* a window another dispatching thread would fall into */
    pthread_mutex_lock(&dispatch_lock);
    inside--;
    ran++;
    pthread_mutex_unlock(&dispatch_lock);
}

static void *dispatch_until_done(void *unused) {
    (void)unused;
    for (;;) {
        struct pollfd ready = {be_sdk_dispatch_fd(dispatch_sdk), POLLIN, 0};
        int done;
        pthread_mutex_lock(&dispatch_lock);
        done = ran >= DISPATCH_CALLBACKS;
        pthread_mutex_unlock(&dispatch_lock);
        if (done) return NULL;
        poll(&ready, 1, 100);
        be_sdk_dispatch(dispatch_sdk, 1);
    }
}

static void test_dispatch_runs_one_callback_at_a_time_and_never_nests(void) {
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = placement_request();
    pthread_t threads[DISPATCH_THREADS];
    int i;
    be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH);
    CHECK_INT(be_sdk_start(config, &dispatch_sdk), BE_OK);
    for (i = 0; i < DISPATCH_CALLBACKS; i++) {
        CHECK_INT(be_sdk_fetch_moments_offers(dispatch_sdk, request, count_concurrency, NULL), BE_OK);
    }
    for (i = 0; i < DISPATCH_THREADS; i++) pthread_create(&threads[i], NULL, dispatch_until_done, NULL);
    for (i = 0; i < DISPATCH_THREADS; i++) pthread_join(threads[i], NULL);
    CHECK_INT(ran, DISPATCH_CALLBACKS);
    CHECK_INT(most_inside, 1);
    CHECK_INT(nested_ran, 0);
    be_sdk_shutdown(dispatch_sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

/* ---- F7: shutdown honours its timeout while another thread flushes against a silent server ---------------- */

typedef struct {
    be_sdk *sdk;
    be_status status;
    int done;
} flush_job;

static void *flush_for_long(void *argument) {
    flush_job *job = argument;
    job->status = be_sdk_flush(job->sdk, 600000); /* ten minutes */
    job->done = 1;
    return NULL;
}

typedef struct {
    be_sdk *sdk;
    test_result *finished;
} shutdown_job;

static void *shut_down(void *argument) {
    shutdown_job *job = argument;
    be_sdk_shutdown(job->sdk, 200);
    test_result_record(job->finished, NULL);
    return NULL;
}

static void test_shutdown_ends_a_flush_on_another_thread(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_response *response;
    be_offer_screen *screen;
    test_log log;
    test_result finished;
    flush_job flush = {NULL, BE_OK, 0};
    shutdown_job stop;
    pthread_t flusher, stopper;
    test_log_init(&log);
    be_config_set_log_handler(config, record_log, BE_LOG_DEBUG, &log);
    be_config_set_timeout_ms(config, 600000); /* the beacon's request would hang for ten minutes */
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    response = fetch(sdk);
    sandbox_fault("{\"path\": \"/b/\", \"hang\": true}");
    screen = be_sdk_moments_screen(sdk, response);
    flush.sdk = sdk;
    pthread_create(&flusher, NULL, flush_for_long, &flush);
    CHECK(test_log_wait_for(&log, "flush: waiting for"));
    test_result_init(&finished);
    stop.sdk = sdk;
    stop.finished = &finished;
    pthread_create(&stopper, NULL, shut_down, &stop);
    CHECK(test_result_wait(&finished, 1)); /* before this fix: only when the ten-minute flush gave up */
    pthread_join(stopper, NULL);
    pthread_join(flusher, NULL);
    CHECK_INT(flush.status, BE_ERR_TIMEOUT);
    be_offer_screen_free(screen);
    be_moments_response_release(response);
    test_result_dispose(&finished);
    be_config_free(config);
}

/* ---- F8: beacons to hanging pixel hosts never hold up a fetch ------------------------------------------- */

enum { PIXEL_HOSTS = 8 };

static void test_hanging_pixel_hosts_do_not_hold_up_a_fetch(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_response *response;
    be_offer_screen *screen;
    int listeners[PIXEL_HOSTS];
    char body[8192], fault[12288];
    size_t used = 0;
    int i, port = 0;
    test_result r;
    be_moments_request *request = placement_request();
    /* eight loopback hosts (127.0.0.2 ... 127.0.0.9) that accept connections and never answer */
    for (i = 0; i < PIXEL_HOSTS; i++) {
        struct sockaddr_in address;
        socklen_t length = sizeof address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(0x7F000002u + (unsigned)i);
        address.sin_port = htons((unsigned short)port);
        listeners[i] = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(bind(listeners[i], (struct sockaddr *)&address, sizeof address) == 0);
        CHECK(listen(listeners[i], 16) == 0);
        getsockname(listeners[i], (struct sockaddr *)&address, &length);
        port = ntohs(address.sin_port); /* the same port on every host */
    }
    used += (size_t)snprintf(body + used, sizeof body - used, "{\\\"data\\\": {\\\"offers\\\": [");
    for (i = 0; i < PIXEL_HOSTS; i++) {
        used += (size_t)snprintf(body + used, sizeof body - used,
                                 "%s{\\\"id\\\": %d, \\\"title\\\": \\\"T%d\\\", \\\"pixel\\\": \\\"http://127.0.0.%d:%d/p\\\"}",
                                 i ? ", " : "", 100 + i, i, 2 + i, port);
    }
    snprintf(body + used, sizeof body - used, "]}}");
    snprintf(fault, sizeof fault, "{\"path\": \"/offers.json\", \"status\": 200, \"times\": 1, \"body\": \"%s\"}", body);
    be_config_set_timeout_ms(config, 600000); /* the pixels would hang for ten minutes */
    sandbox_reset();
    sandbox_fault(fault);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    response = fetch(sdk);
    CHECK_INT(be_moments_response_offer_count(response), PIXEL_HOSTS);
    screen = be_sdk_moments_screen(sdk, response);
    for (i = 1; i < PIXEL_HOSTS; i++) CHECK_INT(be_offer_screen_decline(screen), BE_OK);
    /* every pixel host now holds a connection; a first-party fetch must still get its own */
    for (i = 0; i < PIXEL_HOSTS; i++) {
        struct pollfd pending = {listeners[i], POLLIN, 0};
        CHECK(poll(&pending, 1, 60000) == 1);
    }
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1)); /* before this fix: only after the pixels' ten-minute timeout */
    CHECK(!r.has_error);
    test_result_dispose(&r);
    be_offer_screen_free(screen);
    be_moments_response_release(response);
    be_sdk_shutdown(sdk, 0);
    for (i = 0; i < PIXEL_HOSTS; i++) close(listeners[i]);
    be_moments_request_free(request);
    be_config_free(config);
}

/* URLs for the host to open are http(s) only; server text in errors arrives escaped and bounded. */
static void test_only_http_urls_reach_the_host_and_server_text_is_escaped(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_response *response;
    be_offer_screen *screen;
    const be_offer *offer;
    test_result r;
    be_moments_request *request = placement_request();
    char fault[4096], long_text[2048];
    sandbox_reset();
    sandbox_fault("{\"path\": \"/offers.json\", \"status\": 200, \"times\": 1, \"body\": \"{\\\"data\\\": {\\\"offers\\\": ["
                  "{\\\"id\\\": 1, \\\"title\\\": \\\"A\\\", \\\"click_url\\\": \\\"javascript:alert(1)\\\","
                  " \\\"useraction_url\\\": \\\"file:///etc/passwd\\\", \\\"image\\\": \\\"data:image/png;base64,AAAA\\\"},"
                  "{\\\"id\\\": 2, \\\"title\\\": \\\"B\\\", \\\"click_url\\\": \\\"https://ok.example/c\\\","
                  " \\\"image\\\": \\\"HTTPS://B\u00fccher.Example/a b.png\\\"}]}}\"}");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    response = fetch(sdk);
    offer = be_moments_response_offer_at(response, 0);
    CHECK(be_offer_click_url(offer) == NULL);
    CHECK(be_offer_field(offer, "useraction_url") == NULL);
    CHECK(be_offer_image_url(offer) == NULL);
    CHECK_STR(be_offer_title(offer), "A");
    CHECK(strstr(be_offer_json(offer), "javascript:alert(1)") != NULL); /* the JSON stays as received */
    /* A URL that is not its own WHATWG href reads as the href a browser opens, at the same address each time. */
    CHECK_STR(be_offer_image_url(be_moments_response_offer_at(response, 1)), "https://xn--bcher-kva.example/a%20b.png");
    CHECK(be_offer_image_url(be_moments_response_offer_at(response, 1)) == be_offer_field(be_moments_response_offer_at(response, 1), "image"));
    screen = be_sdk_moments_screen(sdk, response);
    CHECK(be_offer_screen_accept(screen) == NULL); /* nothing to open */
    CHECK_STR(be_offer_screen_accept(screen), "https://ok.example/c");
    be_offer_screen_free(screen);
    be_moments_response_release(response);

    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    snprintf(fault, sizeof fault,
             "{\"path\": \"/offers.json\", \"status\": 500, \"times\": 1, \"body\": \"{\\\"error\\\": \\\"bad\\\\r\\\\nX-Log: forged\\\\u001b[31m %s\\\"}\"}",
             long_text);
    sandbox_fault(fault);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_INT(r.code, BE_MOMENTS_ERROR_HTTP_STATUS);
    CHECK(strchr(r.message, '\r') == NULL && strchr(r.message, '\n') == NULL && strchr(r.message, 0x1b) == NULL);
    CHECK(strstr(r.message, "bad\\r\\nX-Log: forged\\u{1b}[31m") != NULL);
    CHECK(strlen(r.message) <= 512 + 3);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    RUN(test_an_absurd_retry_after_date_neither_crashes_nor_sticks);
    RUN(test_a_user_agent_with_crlf_never_reaches_the_wire);
    RUN(test_a_token_with_crlf_is_a_failed_registration);
    RUN(test_switching_back_during_a_registration_strands_no_load);
    RUN(test_fork_in_dispatch_mode);
    RUN(test_fork_in_thread_mode);
    RUN(test_dispatch_runs_one_callback_at_a_time_and_never_nests);
    RUN(test_shutdown_ends_a_flush_on_another_thread);
    RUN(test_hanging_pixel_hosts_do_not_hold_up_a_fetch);
    RUN(test_only_http_urls_reach_the_host_and_server_text_is_escaped);
    return test_finish();
}
