/* Round trips, counted by bench/latency_proxy.py (no delay) in front of the TLS sandbox: what the proxy carries,
 * never how long it took. A fetch over the connection the start opened costs one round trip and no connection;
 * without the warm-up the first fetch opens one (TCP, TLS 1.3) and the next rides it; twenty images of a host that
 * does not multiplex (the sandbox speaks HTTP/1.1) share six kept connections.
 * BE_PROXY_URL: https://127.0.0.1:PORT of the proxy; BE_PROXY_CONTROL: its counters' port; BE_TLS_CA: the CA. */
#include "test_support.h"

typedef struct {
    long connections;
    double round_trips;
} proxy_counts;

/* The proxy's counters (its control port answers any request with them as JSON). */
static proxy_counts counted(void) {
    char url[128];
    test_buffer buffer = {NULL, 0};
    proxy_counts counts = {-1, -1};
    const char *at;
    CURL *curl = curl_easy_init();
    snprintf(url, sizeof url, "http://127.0.0.1:%s/", required_env("BE_PROXY_CONTROL"));
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, test_buffer_write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &buffer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    if (curl_easy_perform(curl) == CURLE_OK && buffer.data) {
        if ((at = strstr(buffer.data, "\"connections\": "))) counts.connections = strtol(at + 15, NULL, 10);
        if ((at = strstr(buffer.data, "\"round_trips\": "))) counts.round_trips = strtod(at + 15, NULL);
    }
    curl_easy_cleanup(curl);
    free(buffer.data);
    return counts;
}

static be_sdk *start_through_the_proxy(int warm_up_at_start) {
    char moments[512];
    be_sdk *sdk = NULL;
    be_config *config = sandbox_config("demo-key");
    snprintf(moments, sizeof moments, "%s/native/v4", required_env("BE_PROXY_URL"));
    CHECK_INT(be_config_set_moments_url(config, moments), BE_OK);
    CHECK_INT(be_config_set_engage_url(config, required_env("BE_PROXY_URL")), BE_OK);
    CHECK_INT(be_config_set_ca_file(config, required_env("BE_TLS_CA")), BE_OK);
    CHECK_INT(be_config_set_recorder(config, 64), BE_OK); /* to see the warm-up end */
    CHECK_INT(be_config_set_warm_up_at_start(config, warm_up_at_start), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_config_free(config);
    return sdk;
}

/* Waits until the recorder shows the warm-up's HEAD answered: its connection is back in the pool (60 s at most). */
static int wait_for_the_warm_up(be_sdk *sdk) { return wait_until(warm_up_answered, sdk, 60000); }

static void fetch(be_sdk *sdk) {
    be_moments_request *request = placement_request();
    test_result r;
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    if (r.has_error) fprintf(stderr, "fetch: %s\n", r.message);
    test_result_dispose(&r);
    be_moments_request_free(request);
}

static void test_a_fetch_after_the_start_costs_one_round_trip_and_no_connection(void) {
    proxy_counts start = counted(), before, after;
    be_sdk *sdk = start_through_the_proxy(1);
    int i;
    CHECK(wait_for_the_warm_up(sdk));
    before = counted();
    CHECK_INT(before.connections, start.connections + 1); /* the warm-up's */
    for (i = 1; i <= 3; i++) {
        fetch(sdk);
        after = counted();
        CHECK_INT(after.connections, before.connections);
        if (after.round_trips != before.round_trips + i) {
            fprintf(stderr, "after fetch %d: %.1f round trips, %.1f before\n", i, after.round_trips, before.round_trips);
        }
        CHECK(after.round_trips == before.round_trips + i); /* the request and its answer, nothing else */
    }
    be_sdk_shutdown(sdk, 1000);
}

static void test_without_the_warm_up_the_first_fetch_opens_the_connection(void) {
    proxy_counts start, first, second;
    be_sdk *sdk;
    start = counted();
    sdk = start_through_the_proxy(0);
    fetch(sdk);
    first = counted();
    CHECK_INT(first.connections, start.connections + 1);
    CHECK(first.round_trips >= start.round_trips + 2); /* TLS 1.3, then the request (TCP's is not data) */
    fetch(sdk);
    second = counted();
    CHECK_INT(second.connections, first.connections);
    CHECK(second.round_trips == first.round_trips + 1);
    be_sdk_shutdown(sdk, 1000);
}

/* Twenty creatives of one HTTP/1.1 host: the first connection learns that the host does not multiplex, then the
 * others open beside it, six in all (browsers' number), and all twenty are served over them. */
static void test_twenty_images_of_an_http1_host_share_six_connections(void) {
    enum { IMAGES = 20 };
    proxy_counts before, after;
    be_sdk *sdk = start_through_the_proxy(0);
    test_result r;
    int i;
    test_result_init(&r);
    before = counted();
    for (i = 0; i < IMAGES; i++) {
        char url[600];
        snprintf(url, sizeof url, "%s/cdn/c/%d.png", required_env("BE_PROXY_URL"), 9000 + i);
        CHECK_INT(be_sdk_fetch_image(sdk, url, on_image_recorded, &r), BE_OK);
    }
    CHECK(test_result_wait(&r, IMAGES));
    CHECK(!r.has_error);
    if (r.has_error) fprintf(stderr, "an image: %s\n", r.message);
    after = counted();
    CHECK_INT(after.connections - before.connections, 6);
    test_result_dispose(&r);
    be_sdk_shutdown(sdk, 1000);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_a_fetch_after_the_start_costs_one_round_trip_and_no_connection);
    RUN(test_without_the_warm_up_the_first_fetch_opens_the_connection);
    RUN(test_twenty_images_of_an_http1_host_share_six_connections);
    return test_finish();
}
