/* Zone ads through the C API, against the sandbox: the strict one-line format with every malformed case an
 * error of its domain, the request on the wire, and clicks recorded as events. */
#include "test_support.h"

static be_sdk *sdk;

typedef struct {
    test_result result;
    be_zone_ad *ad; /* retained */
} zone_result;

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    zone_result *r = user_data;
    if (ad) r->ad = be_zone_ad_retain(ad);
    test_result_record(&r->result, error);
}

static void fetch(const char *zone, zone_result *r) {
    memset(r, 0, sizeof *r);
    test_result_init(&r->result);
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, zone, on_zone_ad, r), BE_OK);
    CHECK(test_result_wait(&r->result, 1));
}

static void dispose(zone_result *r) {
    be_zone_ad_release(r->ad);
    test_result_dispose(&r->result);
}

static void test_an_enabled_ad_and_its_request(void) {
    zone_result r;
    char *requests;
    char expected[512];
    sandbox_reset();
    fetch("1", &r);
    CHECK(!r.result.has_error);
    CHECK(be_zone_ad_is_enabled(r.ad));
    snprintf(expected, sizeof expected, "%s/cdn/zones/1/banner.png", sandbox_url()); /* the sandbox serves it */
    CHECK_STR(be_zone_ad_image_url(r.ad), expected);
    CHECK_STR(be_zone_ad_link_url(r.ad), "https://www.example.com/landing?zone=1");
    requests = sandbox_requests();
    CHECK(strstr(requests, "\"path\": \"/api/adAPI.php\"") != NULL);
    CHECK(strstr(requests, "\"raw_query\": \"AdID=1\"") != NULL);
    CHECK(strstr(requests, "\"accept\": \"text/plain, */*\"") != NULL);
    free(requests);
    dispose(&r);
}

static void test_a_hidden_ad_may_have_empty_urls(void) {
    zone_result r;
    fetch("2", &r);
    CHECK(!r.result.has_error);
    CHECK(!be_zone_ad_is_enabled(r.ad));
    CHECK(be_zone_ad_image_url(r.ad) == NULL);
    CHECK(be_zone_ad_link_url(r.ad) == NULL);
    dispose(&r);
}

static void test_every_malformed_answer_is_error_1(void) {
    static const char *const zones[] = {"3", "4", "5", "6", "7"};
    size_t i;
    for (i = 0; i < sizeof zones / sizeof zones[0]; i++) {
        zone_result r;
        fetch(zones[i], &r);
        CHECK(r.ad == NULL);
        CHECK_STR(r.result.domain, BE_ZONE_AD_ERROR_DOMAIN);
        CHECK_INT(r.result.code, BE_ZONE_AD_ERROR_MALFORMED);
        if (r.result.code != BE_ZONE_AD_ERROR_MALFORMED) fprintf(stderr, "zone %s: %s\n", zones[i], r.result.message);
        dispose(&r);
    }
}

static void test_status_and_network_errors(void) {
    zone_result r;
    sandbox_fault("{\"path\": \"adAPI.php\", \"status\": 502, \"times\": 1}");
    fetch("1", &r);
    CHECK_STR(r.result.domain, BE_ZONE_AD_ERROR_DOMAIN);
    CHECK_INT(r.result.code, BE_ZONE_AD_ERROR_HTTP_STATUS);
    CHECK_INT(r.result.http_status, 502);
    dispose(&r);
    sandbox_fault("{\"path\": \"adAPI.php\", \"reset\": true}");
    fetch("1", &r);
    CHECK_STR(r.result.domain, BE_ZONE_AD_ERROR_DOMAIN);
    CHECK_INT(r.result.code, BE_ZONE_AD_ERROR_NETWORK);
    dispose(&r);
    free(sandbox_call("POST", "/_sandbox/faults/clear", NULL));
}

static void test_zone_ids_are_encoded_and_validated(void) {
    zone_result r;
    char *requests;
    static const char bad_utf8[] = {(char)0xC0, 0};
    sandbox_reset();
    fetch("a b&c", &r);
    CHECK(!r.result.has_error); /* an unknown zone: hidden */
    requests = sandbox_requests();
    CHECK(strstr(requests, "\"raw_query\": \"AdID=a%20b%26c\"") != NULL);
    free(requests);
    dispose(&r);
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, "", on_zone_ad, &r), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, bad_utf8, on_zone_ad, &r), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, "1", NULL, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK(be_zone_ad_is_enabled(NULL) == 0);
    CHECK(be_zone_ad_link_url(NULL) == NULL);
    CHECK_INT(be_sdk_report_zone_ad_click(sdk, NULL), BE_ERR_INVALID_ARGUMENT);
}

static void test_a_click_is_recorded_as_an_event(void) {
    zone_result r;
    char *events;
    fetch("1", &r);
    sandbox_reset();
    CHECK_INT(be_sdk_report_zone_ad_click(sdk, r.ad), BE_OK);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    events = sandbox_call("GET", "/_sandbox/events", NULL);
    CHECK(strstr(events, "\"distinct\": 1") != NULL);
    CHECK(strstr(events, "\"type\": \"zone_ad_click\"") != NULL);
    CHECK(strstr(events, "\"zone_id\": \"1\"") != NULL);
    CHECK(strstr(events, "\"link_url\": \"https://www.example.com/landing?zone=1\"") != NULL);
    free(events);
    dispose(&r);
}

static void test_without_an_engage_url_a_click_records_nothing(void) {
    be_config *config = be_config_new("demo-key");
    be_sdk *offline = NULL;
    zone_result r;
    be_stats stats;
    char url[512], storage[] = "/tmp/be-zone-XXXXXX";
    snprintf(url, sizeof url, "%s/api/adAPI.php?AdID={zone}", sandbox_url());
    CHECK(mkdtemp(storage) != NULL);
    CHECK_INT(be_config_set_zone_ad_url(config, url), BE_OK);
    CHECK_INT(be_config_set_storage_dir(config, storage), BE_OK);
    CHECK_INT(be_sdk_start(config, &offline), BE_OK);
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    CHECK_INT(be_sdk_fetch_zone_ad(offline, "1", on_zone_ad, &r), BE_OK);
    CHECK(test_result_wait(&r.result, 1));
    CHECK_INT(be_sdk_report_zone_ad_click(offline, r.ad), BE_OK);
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK_INT(be_sdk_get_stats(offline, &stats), BE_OK);
    CHECK_INT(stats.events_queued, 0);
    CHECK_INT(stats.queue_depth, 0);
    dispose(&r);
    be_sdk_shutdown(offline, 1000);
    be_config_free(config);
}

static void test_without_a_zone_url_fetches_are_refused(void) {
    be_config *config = sandbox_config("demo-key");
    be_sdk *plain = NULL;
    zone_result r;
    CHECK_INT(be_sdk_start(config, &plain), BE_OK);
    CHECK_INT(be_sdk_fetch_zone_ad(plain, "1", on_zone_ad, &r), BE_ERR_INVALID_STATE);
    be_sdk_shutdown(plain, 1000);
    be_config_free(config);
}

int main(void) {
    char url[512];
    be_config *config;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    config = sandbox_config("demo-key");
    snprintf(url, sizeof url, "%s/api/adAPI.php?AdID={zone}", sandbox_url());
    CHECK_INT(be_config_set_zone_ad_url(config, url), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_config_free(config);
    RUN(test_an_enabled_ad_and_its_request);
    RUN(test_a_hidden_ad_may_have_empty_urls);
    RUN(test_every_malformed_answer_is_error_1);
    RUN(test_status_and_network_errors);
    RUN(test_zone_ids_are_encoded_and_validated);
    RUN(test_a_click_is_recorded_as_an_event);
    RUN(test_without_a_zone_url_fetches_are_refused);
    RUN(test_without_an_engage_url_a_click_records_nothing);
    be_sdk_shutdown(sdk, 2000);
    return test_finish();
}
