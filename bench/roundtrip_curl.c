/* The same scenarios as roundtrip_blinkengage.c with plain libcurl, as a client without an SDK would make them:
 * a fresh connection for each scenario, the requests one after another where they depend on each other, the
 * images through one multi handle with libcurl's defaults, one request per event.
 *   roundtrip_curl SCENARIO BASE_URL CA_FILE [TRACK_BASE ADV_BASE]
 * Prints "milliseconds requests". With ROUNDTRIP_CURL_TFO=1 in the environment every connection asks for TCP Fast
 * Open (CURLOPT_TCP_FASTOPEN), as a client that knows the option would. */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include "fetch_common.h"

typedef struct {
    char data[65536];
    size_t used;
} buffer;

static size_t keep(char *data, size_t size, size_t count, void *user) {
    buffer *b = user;
    size_t n = size * count;
    if (b->used + n < sizeof b->data) {
        memcpy(b->data + b->used, data, n);
        b->used += n;
        b->data[b->used] = 0;
    }
    return n;
}

static CURL *handle(const char *ca, buffer *b) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, b);
    if (getenv("ROUNDTRIP_CURL_TFO")) curl_easy_setopt(easy, CURLOPT_TCP_FASTOPEN, 1L);
    return easy;
}

/* One request on `easy`; 0 when it got a 2xx. */
static int perform(CURL *easy, const char *url, const char *body, const char *authorization, buffer *b) {
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    long status = 0;
    if (authorization) headers = curl_slist_append(headers, authorization);
    b->used = 0;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    if (body) curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body);
    else curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    if (curl_easy_perform(easy) != CURLE_OK) return 1;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    return status >= 200 && status < 300 ? 0 : 1;
}

/* Registers a user on `easy`; its Bearer header into `out`. */
static int register_user(CURL *easy, const char *base, buffer *b, char *out, size_t size) {
    char url[700];
    const char *token;
    snprintf(url, sizeof url, "%s/v1/users?api_key=demo-key", base);
    if (perform(easy, url, "{\"pub_user_id\":\"roundtrip-user\",\"device_id\":\"0b7e4cfb-0000-4000-8000-000000000001\"}", NULL, b))
        return 1;
    token = strstr(b->data, "\"token\": \"");
    if (!token) return 1;
    token += 10;
    snprintf(out, size, "Authorization: Bearer %.*s", (int)strcspn(token, "\""), token);
    return 0;
}

/* Runs every transfer of `multi` to its end. */
static void run_all(CURLM *multi) {
    int running = 1;
    while (running) {
        curl_multi_perform(multi, &running);
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
}

int main(int argc, char **argv) {
    const char *scenario, *base, *ca;
    static buffer b;
    char url[700], authorization[512];
    uint64_t started;
    int requests = 0, i;
    if (argc < 4) return 2;
    scenario = argv[1], base = argv[2], ca = argv[3];
    curl_global_init(CURL_GLOBAL_DEFAULT);
    started = bench_now_ns();
    if (strncmp(scenario, "moments-at-", 11) == 0) {
        CURL *easy = handle(ca, &b);
        snprintf(url, sizeof url, "%s/native/v4/offers.json?api_key=demo-key", base);
        if (perform(easy, url, "{\"placement\":\"checkout\"}", NULL, &b)) return 1;
        requests = 1;
    } else if (strcmp(scenario, "feed-first-start") == 0) {
        CURL *easy = handle(ca, &b);
        if (register_user(easy, base, &b, authorization, sizeof authorization)) return 1;
        snprintf(url, sizeof url, "%s/v1/offer-feed?api_key=demo-key", base);
        if (perform(easy, url, NULL, authorization, &b)) return 1;
        requests = 2;
    } else if (strcmp(scenario, "feed-later-start") == 0) {
        /* the identity's token from an earlier run (made here, untimed, on a connection of its own) */
        CURL *earlier = handle(ca, &b), *easy;
        if (register_user(earlier, base, &b, authorization, sizeof authorization)) return 1;
        curl_easy_cleanup(earlier);
        easy = handle(ca, &b);
        started = bench_now_ns();
        snprintf(url, sizeof url, "%s/v1/offer-feed?api_key=demo-key", base);
        if (perform(easy, url, NULL, authorization, &b)) return 1;
        requests = 1;
    } else if (strcmp(scenario, "images-20") == 0) {
        static buffer images[20];
        CURLM *multi = curl_multi_init();
        for (i = 0; i < 20; i++) {
            CURL *easy = handle(ca, &images[i]);
            snprintf(url, sizeof url, "%s/cdn/c/%d.png", base, 9000 + i);
            curl_easy_setopt(easy, CURLOPT_URL, url);
            curl_multi_add_handle(multi, easy);
        }
        run_all(multi);
        requests = 20;
    } else if (strcmp(scenario, "did-appear-3-hosts") == 0 && argc >= 6) {
        /* the event on the registration's kept connection, the two pixels on fresh ones, all at once */
        static buffer answers[3];
        CURL *engage = handle(ca, &answers[0]);
        CURLM *multi = curl_multi_init();
        struct curl_slist *headers;
        if (register_user(engage, base, &answers[0], authorization, sizeof authorization)) return 1;
        headers = curl_slist_append(curl_slist_append(NULL, "Content-Type: application/json"), authorization);
        started = bench_now_ns();
        snprintf(url, sizeof url, "%s/v1/events?api_key=demo-key", base);
        curl_easy_setopt(engage, CURLOPT_URL, url);
        curl_easy_setopt(engage, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(engage, CURLOPT_POSTFIELDS, "{\"events\":[{\"id\":\"0b7e4cfb-0000-4000-8000-000000000abc\","
                         "\"type\":\"did_appear\",\"occurred_at\":\"2026-12-05T04:00:00.000Z\",\"feed_id\":\"f\","
                         "\"group_id\":\"g\",\"group_position\":0,\"offer_id\":\"4001\",\"offer_position\":0}]}");
        curl_multi_add_handle(multi, engage);
        for (i = 1; i < 3; i++) {
            CURL *pixel = handle(ca, &answers[i]);
            snprintf(url, sizeof url, "%s/b/%s/p.png?o_id=4001", argv[3 + i], i == 1 ? "track" : "adv");
            curl_easy_setopt(pixel, CURLOPT_URL, url);
            curl_multi_add_handle(multi, pixel);
        }
        run_all(multi);
        requests = 3;
    } else if (strcmp(scenario, "events-500") == 0) {
        CURL *easy = handle(ca, &b);
        struct timespec gap = {0, 20000000};
        if (register_user(easy, base, &b, authorization, sizeof authorization)) return 1;
        started = bench_now_ns();
        snprintf(url, sizeof url, "%s/v1/events?api_key=demo-key", base);
        for (i = 0; i < 500; i++) {
            char body[300];
            snprintf(body, sizeof body, "{\"events\":[{\"id\":\"0b7e4cfb-0000-4000-8000-%012d\",\"type\":\"did_tap\","
                     "\"occurred_at\":\"2026-12-05T04:00:00.000Z\",\"feed_id\":\"f\",\"group_id\":\"g\",\"group_position\":0,"
                     "\"offer_id\":\"4001\",\"offer_position\":0}]}", i);
            if (perform(easy, url, body, authorization, &b)) return 1;
            nanosleep(&gap, NULL);
        }
        requests = 500;
    } else {
        return 2;
    }
    printf("%.1f %d\n", (double)(bench_now_ns() - started) / 1e6, requests);
    return 0;
}
