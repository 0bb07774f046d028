/* Tracking through the C API: an idle SDK costs no wake-ups, a full disk loses no acknowledged report, and
 * identities of any accepted length survive a restart (issue "Tracking at game-loop speed"). */
#define _GNU_SOURCE
#include "test_support.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* ---- context switches of the SDK's threads (named be-*) ------------------------------------------------ */

enum { MAX_THREADS = 64 };
typedef struct {
    int count;
    long tid[MAX_THREADS];
    char name[MAX_THREADS][32];
    long switches[MAX_THREADS];
} thread_switches;

static void read_switches(thread_switches *out) {
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *entry;
    memset(out, 0, sizeof *out);
    while (tasks && (entry = readdir(tasks)) != NULL && out->count < MAX_THREADS) {
        char path[512], line[256], name[32] = "";
        FILE *file;
        long total = 0;
        if (entry->d_name[0] == '.' || atol(entry->d_name) == (long)getpid()) continue; /* the test's own thread */
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        if (!(file = fopen(path, "r"))) continue;
        if (!fgets(name, sizeof name, file)) name[0] = 0;
        fclose(file);
        name[strcspn(name, "\n")] = 0;
        if (strncmp(name, "be-", 3) != 0) continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/status", entry->d_name);
        if (!(file = fopen(path, "r"))) continue;
        while (fgets(line, sizeof line, file)) {
            long value;
            if (sscanf(line, "voluntary_ctxt_switches: %ld", &value) == 1) total += value;
            if (sscanf(line, "nonvoluntary_ctxt_switches: %ld", &value) == 1) total += value;
        }
        fclose(file);
        out->tid[out->count] = atol(entry->d_name);
        snprintf(out->name[out->count], sizeof out->name[0], "%s", name);
        out->switches[out->count] = total;
        out->count++;
    }
    if (tasks) closedir(tasks);
}

/* How often thread `i` of `before` switched until `after` (0 when it is gone). */
static long switches_since(const thread_switches *before, const thread_switches *after, int i) {
    int j;
    for (j = 0; j < after->count; j++) {
        if (after->tid[j] == before->tid[i]) return after->switches[j] - before->switches[i];
    }
    return 0;
}

/* The tail of work just done (a write seen by the directory watch, say) settles first: waits until the SDK's
 * threads were quiet for one second (30 s at most). */
static void wait_for_a_quiet_second(void) {
    thread_switches before, after;
    int i;
    for (i = 0; i < 30; i++) {
        struct timespec second = {1, 0}; /* the quiet second itself: a measurement, not a wait for a condition */
        read_switches(&before);
        nanosleep(&second, NULL);
        read_switches(&after);
        if (memcmp(before.switches, after.switches, sizeof before.switches) == 0) return;
    }
}

/* `shared`: a second SDK on the same storage directory, which waits for the directory's lock (a directory
 * watch, inotify or the portable build's sockets, must wake it only when something happens). */
static void idle_costs_nothing(be_callback_mode mode, be_fetch_io io, int shared) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL, *second = NULL;
    be_moments_request *request = placement_request();
    be_moments_response *response = NULL;
    be_offer_screen *screen;
    thread_switches before, after;
    test_result r;
    struct timespec idle = {10, 0};
    int i, woken = 0;
    be_config_set_callback_mode(config, mode);
    CHECK_INT(be_config_set_fetch_io(config, io), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    if (shared) CHECK_INT(be_sdk_start(config, &second), BE_OK);
    /* some real work first: a fetch, beacons and an event delivered, so every thread has run */
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    if (mode == BE_CALLBACKS_ON_DISPATCH) {
        while (!r.calls) be_sdk_dispatch(sdk, 0), sched_yield();
    }
    CHECK(test_result_wait(&r, 1));
    response = r.response;
    screen = be_sdk_moments_screen(sdk, response);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    wait_for_a_quiet_second();
    read_switches(&before);
    CHECK(before.count >= (mode == BE_CALLBACKS_ON_DISPATCH ? 3 : 4)); /* transport, beacons, outbox (+ callbacks) */
    nanosleep(&idle, NULL); /* the measurement itself: ten idle seconds */
    read_switches(&after);
    for (i = 0; i < before.count; i++) {
        long switched = switches_since(&before, &after, i);
        if (switched != 0) {
            fprintf(stderr, "thread %s woke %ld times in 10 idle seconds\n", before.name[i], switched);
            woken++;
        }
    }
    CHECK_INT(woken, 0);
    printf("idle: %d SDK threads, 0 wake-ups expected, %d threads woke\n", before.count, woken);
    be_offer_screen_free(screen);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    if (second) be_sdk_shutdown(second, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_an_idle_sdk_never_wakes_up(void) { idle_costs_nothing(BE_CALLBACKS_ON_SDK_THREAD, BE_FETCH_IO_ON_SDK_THREAD, 0); }
/* Fetch I/O on dispatch too: the readiness poller (the portable build's relay thread) idles as well. */
static void test_an_idle_sdk_in_dispatch_mode_never_wakes_up(void) {
    idle_costs_nothing(BE_CALLBACKS_ON_DISPATCH, BE_FETCH_IO_ON_DISPATCH, 1);
}
/* Dispatched callbacks with fetch I/O on the SDK's threads: the transport thread, which polls the fetches'
 * descriptor too, idles. */
static void test_an_idle_sdk_with_dispatched_callbacks_never_wakes_up(void) {
    idle_costs_nothing(BE_CALLBACKS_ON_DISPATCH, BE_FETCH_IO_ON_SDK_THREAD, 0);
}

/* Waits for callback `n`, dispatching in dispatch mode. */
static int wait_for_callback(be_sdk *sdk, be_callback_mode mode, test_result *r, int n) {
    return mode == BE_CALLBACKS_ON_DISPATCH ? dispatch_until(sdk, r, n) : test_result_wait(r, n);
}

/* A fetch wakes one SDK thread: the one that reads its answer. With callbacks on the SDK's thread that is the
 * callback thread, which runs the callback too (before, be-transport read the answer and handed it over: it
 * switched 20 times in 10 fetches); with dispatched callbacks the transport thread. In the portable build the
 * poll relay that stands for its epoll moves too. */
static void a_fetch_wakes_one_thread(be_callback_mode mode, const char *reader) {
    enum { FETCHES = 10 };
    be_config *config = sandbox_config("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    thread_switches before, after;
    test_result r;
    long reader_switches = 0, others = 0;
    int i;
    be_config_set_callback_mode(config, mode);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK); /* the connection made */
    CHECK(wait_for_callback(sdk, mode, &r, 1) && !r.has_error);
    wait_for_a_quiet_second();
    read_switches(&before);
    for (i = 2; i <= FETCHES + 1; i++) {
        CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
        CHECK(wait_for_callback(sdk, mode, &r, i) && !r.has_error);
    }
    read_switches(&after);
    for (i = 0; i < before.count; i++) {
        long woken = switches_since(&before, &after, i);
        if (woken == 0) continue;
        if (strcmp(before.name[i], reader) == 0) {
            reader_switches += woken;
        } else if (strcmp(before.name[i], "be-poll-relay") != 0) {
            fprintf(stderr, "thread %s switched %ld times in %d fetches\n", before.name[i], woken, FETCHES);
            others += woken;
        }
    }
    CHECK(reader_switches >= FETCHES);
    CHECK_INT(others, 0);
    printf("%d fetches: %s switched %ld times, other SDK threads %ld\n", FETCHES, reader, reader_switches, others);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_a_fetch_wakes_no_thread_but_the_callback_thread(void) {
    a_fetch_wakes_one_thread(BE_CALLBACKS_ON_SDK_THREAD, "be-callbacks");
}
static void test_a_dispatched_fetch_wakes_no_thread_but_the_transport_thread(void) {
    a_fetch_wakes_one_thread(BE_CALLBACKS_ON_DISPATCH, "be-transport");
}

/* ---- the fetch call sends its own request ------------------------------------------------------------- */

/* Reads one request (headers and a Content-Length body) from `peer` and answers it: 200, `{}`, kept alive. */
static void answer_one_request(int peer) {
    char request[8192];
    size_t have = 0;
    const char *end = NULL;
    static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
    while (have < sizeof request - 1) {
        ssize_t got;
        struct pollfd ready;
        ready.fd = peer;
        ready.events = POLLIN;
        ready.revents = 0;
        if (poll(&ready, 1, 60000) != 1 || (got = recv(peer, request + have, sizeof request - 1 - have, 0)) <= 0) break;
        have += (size_t)got;
        request[have] = 0;
        if ((end = strstr(request, "\r\n\r\n")) != NULL) {
            const char *length = strstr(request, "Content-Length: ");
            size_t body = length ? (size_t)atol(length + 16) : 0;
            if (have >= (size_t)(end + 4 - request) + body) break;
        }
    }
    CHECK(end != NULL);
    CHECK(send(peer, answer, sizeof answer - 1, 0) == (ssize_t)(sizeof answer - 1));
}

/* With dispatched callbacks and the fetches' I/O on the SDK's threads, a fetch on a kept connection is sent
 * within the fetch call: its bytes are at the server when the call returns, before the transport thread could
 * have run. The server is this test's own socket, so nothing else can have sent them. (Before, the call handed
 * the request to the transport thread, which woke to send it.) */
static void test_a_dispatched_fetch_is_sent_within_the_call(void) {
    int port, listener = loopback_socket(&port), peer = -1;
    char url[64], bytes[16] = "", storage[] = "/tmp/be-test-XXXXXX";
    be_config *config = be_config_new("demo-key");
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    test_result r;
    CHECK(listen(listener, 4) == 0);
    snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
    CHECK_INT(be_config_set_moments_url(config, url), BE_OK);
    CHECK(mkdtemp(storage) != NULL);
    CHECK_INT(be_config_set_storage_dir(config, storage), BE_OK);
    CHECK_INT(be_config_set_warm_up_at_start(config, 0), BE_OK); /* no drive of the SDK's own in progress */
    be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&r);
    /* the first fetch opens the connection */
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    peer = accept(listener, NULL, NULL);
    CHECK(peer >= 0);
    answer_one_request(peer);
    CHECK(dispatch_until(sdk, &r, 1));
    wait_for_a_quiet_second(); /* the transport thread is back in poll, holding nothing */
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK_INT((int)recv(peer, bytes, 5, MSG_DONTWAIT | MSG_PEEK), 5);
    CHECK(memcmp(bytes, "POST ", 5) == 0);
    answer_one_request(peer);
    CHECK(dispatch_until(sdk, &r, 2));
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
    close(peer);
    close(listener);
    be_moments_request_free(request);
    be_config_free(config);
}

/* ---- a full disk ---------------------------------------------------------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    int refused_writes, stored_later;
} disk_log;

static void count_disk_messages(be_log_level level, const char *message, void *user_data) {
    disk_log *log = user_data;
    (void)level;
    pthread_mutex_lock(&log->lock);
    if (strstr(message, "could not store a tracking item")) log->refused_writes++;
    if (strstr(message, "stored a tracking item the disk had refused")) log->stored_later++;
    pthread_mutex_unlock(&log->lock);
}

typedef struct { be_zone_ad *ad; test_result r; } zone_fetch;

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    zone_fetch *fetch = user_data;
    if (ad) fetch->ad = be_zone_ad_retain(ad);
    test_result_record(&fetch->r, error);
}

static be_config *zone_config(const char *storage, const char *engage_url, disk_log *log) {
    char url[512];
    be_config *config = be_config_new("demo-key");
    snprintf(url, sizeof url, "%s/api/adAPI.php?AdID={zone}", sandbox_url());
    be_config_set_zone_ad_url(config, url);
    be_config_set_engage_url(config, engage_url);
    be_config_set_storage_dir(config, storage);
    if (log) be_config_set_log_handler(config, count_disk_messages, BE_LOG_INFO, log);
    return config;
}

/* The probe's case: Engage down, disk full, five clicks acknowledged; space returns, shutdown, restart with
 * the backend up: all five are delivered. The "full disk" is RLIMIT_FSIZE 0 in a child process. */
static void test_reports_the_disk_refused_are_stored_once_it_takes_them(void) {
    char storage[] = "/tmp/be-full-XXXXXX", dead[64];
    pid_t child;
    int status = 0;
    CHECK(mkdtemp(storage) != NULL);
    snprintf(dead, sizeof dead, "http://127.0.0.1:%d", unused_port());
    sandbox_reset();
    fflush(NULL);
    child = fork();
    if (child == 0) {
        disk_log log = {PTHREAD_MUTEX_INITIALIZER, 0, 0};
        be_config *config = zone_config(storage, dead, &log);
        be_sdk *sdk = NULL;
        zone_fetch fetch;
        struct rlimit full = {0, RLIM_INFINITY}, roomy = {RLIM_INFINITY, RLIM_INFINITY};
        int i, ok = 1;
        memset(&fetch, 0, sizeof fetch);
        test_result_init(&fetch.r);
        signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG instead of killing the process */
        ok = ok && be_sdk_start(config, &sdk) == BE_OK;
        ok = ok && be_sdk_fetch_zone_ad(sdk, "1", on_zone_ad, &fetch) == BE_OK && test_result_wait(&fetch.r, 1) && fetch.ad;
        ok = ok && setrlimit(RLIMIT_FSIZE, &full) == 0;
        for (i = 0; ok && i < 5; i++) ok = be_sdk_report_zone_ad_click(sdk, fetch.ad) == BE_OK;
        ok = ok && log.refused_writes == 5;
        ok = ok && setrlimit(RLIMIT_FSIZE, &roomy) == 0; /* space returns */
        be_sdk_shutdown(sdk, 0);
        ok = ok && log.stored_later == 5;
        if (!ok) fprintf(stderr, "child: refused %d, stored later %d\n", log.refused_writes, log.stored_later);
        be_zone_ad_release(fetch.ad);
        be_config_free(config);
        _exit(ok ? 0 : 1);
    }
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    {
        be_config *config = zone_config(storage, sandbox_url(), NULL);
        CHECK_INT(deliver_stored_and_count(config, "\"zone_ad_click\""), 5);
        be_config_free(config);
    }
}

/* ---- identities ------------------------------------------------------------------------------------------ */

static void test_identities_up_to_the_limit_survive_a_restart(void) {
    char storage[] = "/tmp/be-identity-XXXXXX";
    size_t length;
    CHECK(mkdtemp(storage) != NULL);
    for (length = 4095; length <= 4097; length++) {
        char *identity = malloc(length + 1);
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        memset(identity, 'u', length);
        identity[length] = 0;
        identity[0] = (char)('0' + (int)(length % 10));
        be_config_set_storage_dir(config, storage);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        CHECK_INT(be_sdk_set_user_identity(sdk, identity), length <= 4096 ? BE_OK : BE_ERR_INVALID_ARGUMENT);
        if (length <= 4096) {
            test_result r; /* a feed load waits for the registration to finish */
            test_result_init(&r);
            CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
            CHECK(test_result_wait(&r, 1) && !r.has_error);
            test_result_dispose(&r);
        }
        be_sdk_shutdown(sdk, 1000);
        be_config_free(config);
        free(identity);
    }
    {
        /* a 5 MB identity is refused at once and changes nothing */
        size_t huge = 5u << 20;
        char *identity = malloc(huge + 1);
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        test_result r;
        int registrations_before = sandbox_count("/v1/users");
        memset(identity, 'x', huge);
        identity[huge] = 0;
        be_config_set_storage_dir(config, storage);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        CHECK_INT(be_sdk_set_user_identity(sdk, identity), BE_ERR_INVALID_ARGUMENT);
        /* the last accepted identity (4096 bytes) was restored: the feed loads without a new registration */
        test_result_init(&r);
        CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
        CHECK(test_result_wait(&r, 1));
        CHECK(!r.has_error);
        CHECK_INT(sandbox_count("/v1/users"), registrations_before); /* no new registration */
        test_result_dispose(&r);
        be_sdk_shutdown(sdk, 1000);
        be_config_free(config);
        free(identity);
    }
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    RUN(test_reports_the_disk_refused_are_stored_once_it_takes_them);
    RUN(test_identities_up_to_the_limit_survive_a_restart);
    RUN(test_an_idle_sdk_never_wakes_up);
    RUN(test_an_idle_sdk_in_dispatch_mode_never_wakes_up);
    RUN(test_an_idle_sdk_with_dispatched_callbacks_never_wakes_up);
    RUN(test_a_fetch_wakes_no_thread_but_the_callback_thread);
    RUN(test_a_dispatched_fetch_wakes_no_thread_but_the_transport_thread);
    RUN(test_a_dispatched_fetch_is_sent_within_the_call);
    return test_finish();
}
