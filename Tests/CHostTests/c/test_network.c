/* The built-in transport's network settings against loopback servers the harness starts: an HTTP and a SOCKS5
 * proxy (sandbox/proxy.py, which logs what it carried), and a TLS sandbox whose certificate is signed by a CA
 * made for the run (BE_TLS_CA) with its key's pin (BE_TLS_PIN). Each setting has a positive and a negative case. */
#include "test_support.h"

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    char *text = calloc(1, 1 << 20);
    if (file) {
        size_t n = fread(text, 1, (1 << 20) - 1, file);
        text[n] = 0;
        fclose(file);
    }
    return text;
}

/* Fetches Moments offers from `moments_url` with `config`; returns the result (dispose it). */
static void fetch_with(be_config *config, const char *moments_url, test_result *r) {
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    CHECK_INT(be_config_set_moments_url(config, moments_url), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, r), BE_OK);
    CHECK(test_result_wait(r, 1));
    be_sdk_shutdown(sdk, 0);
    be_moments_request_free(request);
}

static void expect_network_error(test_result *r, const char *words) {
    CHECK(r->has_error);
    CHECK_STR(r->domain, BE_MOMENTS_ERROR_DOMAIN);
    CHECK_INT(r->code, BE_MOMENTS_ERROR_NETWORK);
    if (words && !strstr(r->message, words)) fprintf(stderr, "message \"%s\" lacks \"%s\"\n", r->message, words);
    CHECK(!words || strstr(r->message, words) != NULL);
}

static void test_proxies_carry_the_requests(void) {
    const char *proxies[] = {required_env("BE_HTTP_PROXY"), required_env("BE_SOCKS_PROXY")};
    char moments[512], expected[600], dead[64], *log, *requests;
    int i;
    snprintf(moments, sizeof moments, "%s/native/v4", sandbox_url());
    for (i = 0; i < 2; i++) {
        be_config *config = sandbox_config("demo-key");
        test_result r;
        sandbox_reset();
        CHECK_INT(be_config_set_proxy(config, proxies[i]), BE_OK);
        CHECK_INT(be_config_set_warm_up_at_start(config, 0), BE_OK); /* the fetch's request alone */
        fetch_with(config, moments, &r);
        if (r.has_error) fprintf(stderr, "through %s: %s\n", proxies[i], r.message);
        CHECK(!r.has_error);
        CHECK(r.response && be_moments_response_offer_count(r.response) == 3);
        requests = sandbox_requests(); /* the HTTP proxy says Via; SOCKS only carries bytes */
        CHECK_INT(count_occurrences(requests, "1.1 blinkengage-test-proxy"), i == 0 ? 1 : 0);
        free(requests);
        test_result_dispose(&r);
        be_config_free(config);
    }
    log = read_file(required_env("BE_PROXY_LOG"));
    snprintf(expected, sizeof expected, "http POST %s/offers.json?api_key=demo-key", moments);
    CHECK(strstr(log, expected) != NULL);
    snprintf(expected, sizeof expected, "socks %s", sandbox_url() + strlen("http://"));
    CHECK(strstr(log, expected) != NULL);
    free(log);

    /* a proxy that is not there: a network error, never a direct connection */
    {
        be_config *config = sandbox_config("demo-key");
        test_result r;
        sandbox_reset();
        snprintf(dead, sizeof dead, "socks5h://127.0.0.1:%d", unused_port());
        CHECK_INT(be_config_set_proxy(config, dead), BE_OK);
        fetch_with(config, moments, &r);
        expect_network_error(&r, NULL);
        CHECK_INT(sandbox_count("/native/v4/offers.json"), 0);
        test_result_dispose(&r);
        snprintf(dead, sizeof dead, "http://127.0.0.1:%d", unused_port());
        CHECK_INT(be_config_set_proxy(config, dead), BE_OK);
        fetch_with(config, moments, &r);
        expect_network_error(&r, NULL);
        CHECK_INT(sandbox_count("/native/v4/offers.json"), 0);
        test_result_dispose(&r);
        be_config_free(config);
    }
}

static void test_proxy_urls_are_checked(void) {
    be_config *config = be_config_new("demo-key");
    const char *bad[] = {"ftp://127.0.0.1:21", "socks4://127.0.0.1:1080", "http://a b:1", "127.0.0.1:3128", "",
                         "http://127.0.0.1:3128\r\nX: y", "file:///tmp/proxy"};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) CHECK_INT(be_config_set_proxy(config, bad[i]), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_config_set_proxy(config, "https://proxy.example:443"), BE_OK);
    CHECK_INT(be_config_set_proxy(config, NULL), BE_OK);
    CHECK_INT(be_config_set_proxy(NULL, NULL), BE_ERR_INVALID_ARGUMENT);
    be_config_free(config);
}

static void test_a_ca_file_decides_trust(void) {
    char moments[512];
    be_config *config = sandbox_config("demo-key");
    test_result r;
    snprintf(moments, sizeof moments, "%s/native/v4", required_env("BE_TLS_URL"));
    fetch_with(config, moments, &r); /* the system's CAs do not know the test CA */
    expect_network_error(&r, "certificate");
    test_result_dispose(&r);
    CHECK_INT(be_config_set_ca_file(config, required_env("BE_TLS_CA")), BE_OK);
    fetch_with(config, moments, &r);
    CHECK(!r.has_error);
    CHECK(r.response && be_moments_response_offer_count(r.response) == 3);
    test_result_dispose(&r);
    CHECK_INT(be_config_set_ca_file(config, "/nonexistent/ca.pem"), BE_ERR_NOT_FOUND);
    CHECK_INT(be_config_set_ca_file(config, "/tmp"), BE_ERR_NOT_FOUND);
    be_config_free(config);
}

static void test_a_pinned_key_refuses_any_other(void) {
    char moments[512], both[256], *pin = read_file(required_env("BE_TLS_PIN"));
    const char *wrong = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    const char *malformed[] = {"sha256//short=", "sha1//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "", "sha256//",
                               "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;", "/etc/passwd"};
    be_config *config = sandbox_config("demo-key");
    test_result r;
    size_t i;
    snprintf(moments, sizeof moments, "%s/native/v4", required_env("BE_TLS_URL"));
    CHECK_INT(be_config_set_ca_file(config, required_env("BE_TLS_CA")), BE_OK);
    CHECK_INT(be_config_set_pinned_public_key(config, wrong), BE_OK);
    fetch_with(config, moments, &r);
    expect_network_error(&r, "pinned public key");
    test_result_dispose(&r);
    CHECK_INT(be_config_set_pinned_public_key(config, pin), BE_OK);
    fetch_with(config, moments, &r);
    CHECK(!r.has_error);
    test_result_dispose(&r);
    snprintf(both, sizeof both, "%s;%s", wrong, pin); /* any of several pins (a key rotation) */
    CHECK_INT(be_config_set_pinned_public_key(config, both), BE_OK);
    fetch_with(config, moments, &r);
    CHECK(!r.has_error);
    test_result_dispose(&r);
    for (i = 0; i < sizeof malformed / sizeof *malformed; i++)
        CHECK_INT(be_config_set_pinned_public_key(config, malformed[i]), BE_ERR_INVALID_ARGUMENT);
    be_config_free(config);
    free(pin);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_proxies_carry_the_requests);
    RUN(test_proxy_urls_are_checked);
    RUN(test_a_ca_file_decides_trust);
    RUN(test_a_pinned_key_refuses_any_other);
    curl_global_cleanup();
    return test_finish();
}
