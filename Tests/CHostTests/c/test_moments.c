/* Moments API offers through the C API, against the sandbox: success, every reachable error of
 * docs/PROTOCOL.md section 1 with its http_status, parameter validation, and what goes on the wire. */
#include "test_support.h"

static be_sdk *sdk;

static void start_sdk(const char *api_key, uint32_t timeout_ms) {
    be_config *config = sandbox_config(api_key);
    if (timeout_ms) CHECK_INT(be_config_set_timeout_ms(config, timeout_ms), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    be_config_free(config);
}

/* Fetches with `request` and waits for the callback; the result is the caller's to dispose. */
static void fetch(be_moments_request *request, test_result *result) {
    test_result_init(result);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, result), BE_OK);
    CHECK(test_result_wait(result, 1));
}

static void test_success_decodes_every_field_and_style(void) {
    test_result r;
    be_moments_request *request = placement_request();
    const be_offer *offer;
    char expected[512];
    sandbox_reset();
    fetch(request, &r);
    CHECK(!r.has_error);
    CHECK(r.response != NULL);
    if (!r.response) return;
    CHECK_INT(be_moments_response_offer_count(r.response), 3);
    offer = be_moments_response_offer_at(r.response, 0);
    CHECK_STR(be_offer_id(offer), "4001");
    CHECK_STR(be_offer_title(offer), "Get 90 days of Streamly Premium \xe2\x80\x93 free");
    CHECK_STR(be_offer_description(offer), "Streamly gives you a welcome reward when you sign up today. Offer 1 of the demo set.");
    snprintf(expected, sizeof expected, "%s/cdn/c/9001.png", sandbox_url()); /* the sandbox serves the creatives */
    CHECK_STR(be_offer_image_url(offer), expected); /* the primary creative wins */
    CHECK_STR(be_offer_click_url(offer),
              "https://track.example.com/sdk/offer_click?o_id=4001&c_id=1201&p_id=1501&sess_id=5f2c0001e1&fp=USER_FP");
    CHECK_STR(be_offer_cta_yes(offer), "Claim offer");
    CHECK_STR(be_offer_cta_no(offer), "No, thanks");
    CHECK_STR(be_offer_terms_html(offer), "<ul>\n <li>Must be 18 or older.</li>\n <li>New customers only.</li>\n</ul>");
    CHECK_STR(be_offer_field(offer, "advertiser_name"), "Streamly");
    CHECK_STR(be_offer_field(offer, "campaign_id"), "1201");
    CHECK_STR(be_offer_field(offer, "is_loyaltyboost"), "false");
    CHECK_STR(be_offer_field(offer, "mini_text"), NULL);   /* "" reads as absent */
    CHECK_STR(be_offer_field(offer, "beacons"), NULL);     /* not a scalar */
    CHECK_STR(be_offer_field(offer, "no_such_key"), NULL);
    CHECK(be_offer_field(offer, NULL) == NULL);
    CHECK(strstr(be_last_error_message(), "key is NULL") != NULL);
    CHECK(strstr(be_offer_json(offer), "\"aspect_ratio\": 1.0") != NULL); /* the bytes as the sandbox sent them */
    CHECK(strstr(be_offer_json(offer), "\"advertiser_name\": \"Streamly\"") != NULL);

    offer = be_moments_response_offer_at(r.response, 1);
    snprintf(expected, sizeof expected, "%s/cdn/campaigns/1202/main.png", sandbox_url());
    CHECK_STR(be_offer_image_url(offer), expected); /* no creative: "image" */
    CHECK_STR(be_offer_title(offer), "\xe2\x82\xac" "20 off your first Caf\xc3\xa9 Ol\xc3\xa9 order");
    offer = be_moments_response_offer_at(r.response, 2);
    CHECK_STR(be_offer_image_url(offer), NULL);
    CHECK_STR(be_offer_title(offer), "Free \"Pro\" plan for 3 months");
    CHECK_STR(be_offer_field(offer, "is_loyaltyboost"), "true");
    CHECK(be_moments_response_offer_at(r.response, 3) == NULL);

    CHECK_STR(be_moments_response_style(r.response, "offerText.buttonYes.background"), "#1A73E8");
    CHECK_STR(be_moments_response_style(r.response, "offerText.fontSize"), "14");
    CHECK_STR(be_moments_response_style(r.response, "popup.showImage"), "true");
    CHECK_STR(be_moments_response_style(r.response, "popup.borderRadius.top_left"), "8px");
    CHECK_STR(be_moments_response_style(r.response, "settings.close_delay"), "0");
    CHECK_STR(be_moments_response_style(r.response, "footer.disclaimer"), NULL);
    CHECK_STR(be_moments_response_style(r.response, "offerText.nothing"), NULL);
    CHECK_STR(be_moments_response_style(r.response, "offerText..color"), NULL);
    CHECK_STR(be_moments_response_style(r.response, "header.text"), "Thanks for your order");
    CHECK_STR(be_moments_response_privacy_url(r.response), "https://www.example.com/privacy");
    /* A borrowed string stays the same pointer for the life of the response. */
    CHECK(be_moments_response_style(r.response, "header.text") == be_moments_response_style(r.response, "header.text"));
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_request_on_the_wire(void) {
    test_result r;
    char *requests;
    be_moments_request *request = placement_request();
    CHECK_INT(be_moments_request_set_loyaltyboost(request, "2"), BE_OK);
    CHECK_INT(be_moments_request_set_creative(request, "1"), BE_OK);
    CHECK_INT(be_moments_request_set_payload(request, "adpx_fp", "fp 1&2"), BE_OK);
    CHECK_INT(be_moments_request_set_payload(request, "pub_user_id", "user-42"), BE_OK);
    CHECK_INT(be_moments_request_set_payload(request, "ua", "HostApp/3.1"), BE_OK);
    CHECK_INT(be_moments_request_set_payload(request, "custom_tier", "gold"), BE_OK);
    CHECK_INT(be_moments_request_set_payload(request, "custom_tier", NULL), BE_OK); /* removed again */
    CHECK_INT(be_moments_request_set_development(request, 1), BE_OK);
    sandbox_reset();
    fetch(request, &r);
    CHECK(!r.has_error);
    /* creative=1: only offers with an image; dev: test offers */
    CHECK_INT(be_moments_response_offer_count(r.response), 2);
    CHECK(strncmp(be_offer_title(be_moments_response_offer_at(r.response, 0)), "[TEST] ", 7) == 0);
    requests = sandbox_requests();
    CHECK(strstr(requests, "\"method\": \"POST\"") != NULL);
    CHECK(strstr(requests, "\"path\": \"/native/v4/offers.json\"") != NULL);
    CHECK(strstr(requests, "\"raw_query\": \"api_key=demo-key&loyaltyboost=2&creative=1\"") != NULL);
    CHECK(strstr(requests, "\"content-type\": \"application/json\"") != NULL);
    CHECK(strstr(requests, "\"accept\": \"application/json\"") != NULL);
    CHECK(strstr(requests, "\"user-agent\": \"HostApp/3.1\"") != NULL); /* the payload's ua wins */
    CHECK(strstr(requests,
                 "\"body\": \"{\\\"placement\\\":\\\"checkout\\\",\\\"adpx_fp\\\":\\\"fp 1&2\\\",\\\"pub_user_id\\\":"
                 "\\\"user-42\\\",\\\"ua\\\":\\\"HostApp/3.1\\\",\\\"dev\\\":\\\"1\\\"}\"") != NULL);
    CHECK(strstr(requests, "custom_tier") == NULL);
    free(requests);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

/* A fetch of a request equal to the last one sends the request built for it; one that differs in any byte
 * (here only in the Unicode form of a value, which Swift's String compares as equal) or in a privacy signal is
 * built anew. */
static void test_a_repeated_request_is_sent_as_built_only_when_byte_identical(void) {
    test_result r;
    char *requests;
    be_moments_request *request = placement_request();
    sandbox_reset();
    CHECK_INT(be_moments_request_set_payload(request, "pub_user_id", "caf\xc3\xa9"), BE_OK); /* é, one scalar */
    fetch(request, &r);
    test_result_dispose(&r);
    fetch(request, &r);
    test_result_dispose(&r);
    CHECK_INT(be_moments_request_set_payload(request, "pub_user_id", "cafe\xcc\x81"), BE_OK); /* e and U+0301 */
    fetch(request, &r);
    test_result_dispose(&r);
    CHECK_INT(be_sdk_set_limit_tracking(sdk, 1), BE_OK); /* the identifier is withheld from now on */
    fetch(request, &r);
    test_result_dispose(&r);
    CHECK_INT(be_sdk_set_limit_tracking(sdk, 0), BE_OK);
    requests = sandbox_requests();
    CHECK_INT(count_occurrences(requests, "\"path\": \"/native/v4/offers.json\""), 4);
    CHECK_INT(count_occurrences(requests, "caf\\u00e9"), 2);
    CHECK_INT(count_occurrences(requests, "cafe\\u0301"), 1);
    CHECK_INT(count_occurrences(requests, "\\\"lmt\\\":\\\"1\\\""), 1);
    free(requests);
    be_moments_request_free(request);
}

static void test_campaign_id_and_default_user_agent(void) {
    test_result r;
    char *requests;
    char expected_ua[128];
    be_moments_request *request = placement_request();
    CHECK_INT(be_moments_request_set_campaign_id(request, "1202"), BE_OK);
    sandbox_reset();
    fetch(request, &r);
    CHECK_INT(be_moments_response_offer_count(r.response), 1);
    CHECK_STR(be_offer_id(be_moments_response_offer_at(r.response, 0)), "4002");
    requests = sandbox_requests();
    CHECK(strstr(requests, "api_key=demo-key&campaignId=1202") != NULL);
    snprintf(expected_ua, sizeof expected_ua, "\"user-agent\": \"blinkengage/%s (Linux; ", be_version());
    CHECK(strstr(requests, expected_ua) != NULL);
    free(requests);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_setters_refuse_invalid_values_before_any_io(void) {
    be_moments_request *request = be_moments_request_new();
    static const char bad_utf8[] = {'p', (char)0xC3, (char)0x28, 0};
    CHECK_INT(be_moments_request_set_loyaltyboost(request, "3"), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "loyaltyboost") != NULL);
    CHECK_INT(be_moments_request_set_loyaltyboost(request, ""), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_creative(request, "2"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_campaign_id(request, ""), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_payload(request, "", "x"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_payload(request, NULL, "x"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_payload(request, "placement", bad_utf8), BE_ERR_INVALID_ARGUMENT);
    CHECK(strstr(be_last_error_message(), "UTF-8") != NULL);
    CHECK_INT(be_moments_request_set_payload(NULL, "placement", "x"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_loyaltyboost(NULL, "1"), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_moments_request_set_development(NULL, 1), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, NULL, on_moments, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, NULL, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_moments_offers(NULL, request, on_moments, NULL), BE_ERR_INVALID_ARGUMENT);
    /* The refused values left the request untouched: a fetch sends no parameters. */
    {
        test_result r;
        char *requests;
        sandbox_reset();
        fetch(request, &r);
        requests = sandbox_requests();
        CHECK(strstr(requests, "\"raw_query\": \"api_key=demo-key\"") != NULL);
        CHECK_INT(count_occurrences(requests, "\"method\""), 1);
        free(requests);
        test_result_dispose(&r);
    }
    be_moments_request_free(request);
}

/* Starts a fault, fetches, and checks the error's domain, code and status. */
static void expect_error(const char *fault, int code, int http_status, const char *message_part) {
    test_result r;
    be_moments_request *request = placement_request();
    sandbox_reset();
    if (fault) sandbox_fault(fault);
    fetch(request, &r);
    CHECK(r.has_error);
    CHECK(r.response == NULL);
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, code);
    CHECK_INT(r.http_status, http_status);
    if (message_part && !strstr(r.message, message_part)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", r.message, message_part);
        CHECK(0);
    }
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_error_no_api_key_is_1_without_a_request(void) {
    be_sdk *keyless = NULL;
    be_config *config = sandbox_config("");
    test_result r;
    be_moments_request *request = placement_request();
    char *requests;
    CHECK_INT(be_sdk_start(config, &keyless), BE_OK);
    sandbox_reset();
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(keyless, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_INVALID_PARAMETER);
    CHECK_INT(r.http_status, 0);
    requests = sandbox_requests();
    CHECK_STR(requests, "[]");
    free(requests);
    be_sdk_shutdown(keyless, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_error_no_offers_is_3(void) {
    be_moments_request *request = placement_request();
    test_result r;
    CHECK_INT(be_moments_request_set_campaign_id(request, "999"), BE_OK); /* the sandbox has no such campaign */
    sandbox_reset();
    fetch(request, &r);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NO_OFFERS);
    CHECK_INT(r.http_status, 0);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_error_decoding_is_4(void) {
    expect_error("{\"malformed\": true}", BE_MOMENTS_ERROR_DECODING, 0, "JSON");
    expect_error("{\"status\": 200, \"body\": \"{\\\"data\\\": []}\"}", BE_MOMENTS_ERROR_DECODING, 0, "data");
    expect_error("{\"status\": 200, \"body\": \"<html>maintenance</html>\"}", BE_MOMENTS_ERROR_DECODING, 0, NULL);
    expect_error("{\"oversize\": true}", BE_MOMENTS_ERROR_DECODING, 0, "larger than");
    /* Compressed, the body is small on the wire and only its decoded size is over the cap. */
#ifndef BE_TEST_HOST_TRANSPORT /* decoding a compressed body is the host transport's business */
    expect_error("{\"oversize\": true, \"gzip\": true}", BE_MOMENTS_ERROR_DECODING, 0, "larger than");
#endif
}

static void test_compressed_answer_is_decoded(void) {
    test_result r;
    be_moments_request *request = placement_request();
    sandbox_reset();
    sandbox_fault("{\"gzip\": true}");
    fetch(request, &r);
    CHECK(!r.has_error);
    CHECK_INT(be_moments_response_offer_count(r.response), 3);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_error_network_is_5(void) {
    expect_error("{\"drop\": true}", BE_MOMENTS_ERROR_NETWORK, 0, NULL);
    expect_error("{\"reset\": true}", BE_MOMENTS_ERROR_NETWORK, 0, NULL);
}

static void test_error_timeout_is_5(void) {
    be_sdk *patient = sdk;
    start_sdk("demo-key", 300); /* replaces sdk with a short per-request timeout */
    expect_error("{\"latency_ms\": 5000}", BE_MOMENTS_ERROR_NETWORK, 0, "timed out");
    be_sdk_shutdown(sdk, 1000);
    sdk = patient;
}

static void test_error_connection_refused_is_5(void) {
    be_config *config = be_config_new("demo-key");
    be_sdk *lonely = NULL;
    test_result r;
    be_moments_request *request = placement_request();
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/native/v4", unused_port());
    CHECK_INT(be_config_set_moments_url(config, url), BE_OK);
    CHECK_INT(be_sdk_start(config, &lonely), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(lonely, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    CHECK_STR(r.domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r.code, BE_MOMENTS_ERROR_NETWORK);
    be_sdk_shutdown(lonely, 1000);
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_error_http_status_is_6(void) {
    expect_error("{\"status\": 500, \"body\": \"{\\\"message\\\": \\\"database down\\\"}\"}", BE_MOMENTS_ERROR_HTTP_STATUS,
                 500, "database down");
    expect_error("{\"status\": 503}", BE_MOMENTS_ERROR_HTTP_STATUS, 503, "503");
    expect_error("{\"status\": 404, \"body\": \"{\\\"error\\\": \\\"no placement\\\"}\"}", BE_MOMENTS_ERROR_HTTP_STATUS, 404,
                 "no placement");
}

static void test_error_wrong_api_key_is_6_with_401(void) {
    be_sdk *keyed = sdk;
    start_sdk("wrong-key", 0);
    expect_error(NULL, BE_MOMENTS_ERROR_HTTP_STATUS, 401, "invalid api_key");
    be_sdk_shutdown(sdk, 1000);
    sdk = keyed;
}

static void test_sandbox_refuses_what_the_library_would_never_send(void) {
    /* The sandbox validates parameters too (400); the library's own checks mean it never sees them. */
    char *answer = sandbox_call("POST", "/native/v4/offers.json?api_key=demo-key&loyaltyboost=7", "{}");
    CHECK(strstr(answer, "invalid loyaltyboost") != NULL);
    free(answer);
}

static void test_response_outlives_the_sdk(void) {
    test_result r;
    be_moments_request *request = placement_request();
    be_sdk *other = NULL;
    be_config *config = sandbox_config("demo-key");
    CHECK_INT(be_sdk_start(config, &other), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(other, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1));
    be_sdk_shutdown(other, 1000);
    CHECK_STR(be_offer_id(be_moments_response_offer_at(r.response, 2)), "4003");
    CHECK_STR(be_moments_response_style(r.response, "offerText.buttonNo.color"), "#1A73E8");
    be_config_free(config);
    be_moments_request_free(request);
    test_result_dispose(&r);
}

static void test_null_getters_answer_null(void) {
    CHECK(be_moments_response_offer_count(NULL) == 0);
    CHECK(be_moments_response_offer_at(NULL, 0) == NULL);
    CHECK(be_moments_response_style(NULL, "a") == NULL);
    CHECK(be_moments_response_privacy_url(NULL) == NULL);
    CHECK(be_moments_response_retain(NULL) == NULL);
    be_moments_response_release(NULL);
    be_moments_request_free(NULL);
    CHECK(be_offer_id(NULL) == NULL);
    CHECK(be_offer_title(NULL) == NULL);
    CHECK(be_offer_field(NULL, "title") == NULL);
    CHECK(be_offer_json(NULL) == NULL);
}

/* Starts, lets `warm_up` open the connection, fetches, and checks that the fetch rode on the warm-up's. */
static void expect_the_fetch_on_the_warm_connection(be_config *config, int explicit_warm_up) {
    be_moments_request *request = placement_request();
    test_result r;
    char *requests = NULL;
    long warm, fetched;
    be_sdk *fresh = NULL;
    be_stats stats;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &fresh), BE_OK);
    if (explicit_warm_up) {
        memset(&stats, 0, sizeof stats);
        stats.struct_size = sizeof stats;
        CHECK_INT(be_sdk_get_stats(fresh, &stats), BE_OK);
        CHECK_INT(stats.requests_sent, 0); /* warm-up at start is off: the start made no request */
        CHECK_INT(be_sdk_warm_up(fresh), BE_OK);
    }
    CHECK(wait_for_warm_ups(1));
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(fresh, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    requests = sandbox_requests();
    warm = client_port_after(requests, "\"method\": \"HEAD\"");
    fetched = client_port_after(requests, "\"path\": \"/native/v4/offers.json\"");
    CHECK(warm > 0);
    CHECK_INT(fetched, warm); /* one connection: the fetch paid no TCP or TLS of its own */
    CHECK_INT(sandbox_count("/"), 1);
    free(requests);
    test_result_dispose(&r);
    be_sdk_shutdown(fresh, 1000);
    be_moments_request_free(request);
}

/* The start opens the connection ahead (a HEAD of the host's root) and the first fetch rides on it; with that
 * off, be_sdk_warm_up does the same when the host calls it. */
static void test_the_start_or_a_warm_up_leaves_the_connection_the_fetch_uses(void) {
    be_config *config = sandbox_config("demo-key");
    CHECK_INT(be_sdk_warm_up(NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_warm_up_at_start(NULL, 1), BE_ERR_INVALID_ARGUMENT);
    expect_the_fetch_on_the_warm_connection(config, 0);
    CHECK_INT(be_config_set_warm_up_at_start(config, 0), BE_OK);
    expect_the_fetch_on_the_warm_connection(config, 1);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    start_sdk("demo-key", 0);
    RUN(test_success_decodes_every_field_and_style);
    RUN(test_request_on_the_wire);
    RUN(test_a_repeated_request_is_sent_as_built_only_when_byte_identical);
    RUN(test_campaign_id_and_default_user_agent);
    RUN(test_setters_refuse_invalid_values_before_any_io);
    RUN(test_error_no_api_key_is_1_without_a_request);
    RUN(test_error_no_offers_is_3);
    RUN(test_error_decoding_is_4);
    LIBCURL_ONLY(test_compressed_answer_is_decoded); /* decoding is the host transport's business */
    RUN(test_error_network_is_5);
    RUN(test_error_timeout_is_5);
    RUN(test_error_connection_refused_is_5);
    RUN(test_error_http_status_is_6);
    RUN(test_error_wrong_api_key_is_6_with_401);
    RUN(test_sandbox_refuses_what_the_library_would_never_send);
    RUN(test_response_outlives_the_sdk);
    RUN(test_null_getters_answer_null);
    LIBCURL_ONLY(test_the_start_or_a_warm_up_leaves_the_connection_the_fetch_uses); /* a host's transport has its own connections */
    be_sdk_shutdown(sdk, 1000);
    return test_finish();
}
