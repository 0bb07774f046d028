/* The image cache as a private cache per RFC 9111, row by row against the sandbox: each row names what the RFC
 * requires, serves an image with the headers it names (the sandbox's /cdn/ query switches), fetches it two or three
 * times in a row, and checks how each fetch was answered: from the network (a 200), from the cache without a request,
 * or by a revalidation (a 304). A row that depends on a second SDK (Vary) has a test of its own. */
#define _GNU_SOURCE
#include "test_support.h"

typedef struct {
    test_result result;
    int from_cache;
} fetched;

static void on_image(be_image *image, const be_error *error, void *user_data) {
    fetched *f = user_data;
    pthread_mutex_lock(&f->result.lock);
    f->from_cache = image ? be_image_is_from_cache(image) : -1;
    pthread_mutex_unlock(&f->result.lock);
    test_result_record(&f->result, error);
}

/* How one fetch was answered: 'N' network 200, 'C' cache without a request, 'R' revalidated with a 304. */
static char fetch_once(be_sdk *sdk, const char *url) {
    fetched f;
    be_stats before = {.struct_size = sizeof before}, after = {.struct_size = sizeof after};
    char how = '?';
    memset(&f, 0, sizeof f);
    test_result_init(&f.result);
    be_sdk_get_stats(sdk, &before);
    CHECK_INT(be_sdk_fetch_image(sdk, url, on_image, &f), BE_OK);
    CHECK(test_result_wait(&f.result, 1));
    be_sdk_get_stats(sdk, &after);
    if (!f.result.has_error) {
        uint64_t requests = after.image_requests - before.image_requests;
        uint64_t revalidations = after.image_revalidations - before.image_revalidations;
        if (requests == 0 && f.from_cache) how = 'C';
        else if (requests == 1 && revalidations == 1 && f.from_cache) how = 'R';
        else if (requests == 1 && revalidations == 0 && !f.from_cache) how = 'N';
    }
    test_result_dispose(&f.result);
    return how;
}

typedef struct {
    const char *rule;     /* what RFC 9111 requires */
    const char *query;    /* the sandbox's switches */
    const char *expected; /* one letter per fetch */
} row;

static const row rows[] = {
    {"max-age=N: fresh for N seconds (4.2.1)", "cache=max-age%3D3600", "NCC"},
    {"s-maxage is for shared caches; a private one ignores it (5.2.2.10)", "cache=s-maxage%3D3600", "NR"},
    {"no-store: not stored (5.2.2.5)", "cache=no-store", "NN"},
    {"no-cache: stored, but validated before each use (5.2.2.4)", "cache=no-cache", "NRR"},
    {"must-revalidate: never served stale (5.2.2.2)", "cache=max-age%3D0%2C%20must-revalidate", "NR"},
    {"private: a private cache may store it (5.2.2.7)", "cache=private%2C%20max-age%3D3600", "NC"},
    {"Expires in the past: stale (5.3)", "cache=&expires=-60", "NR"},
    {"a malformed Expires means already expired (5.3)", "cache=&expires=soon", "NR"},
    {"Expires minus Date is the lifetime (4.2.1)", "cache=&expires=3600&date=0", "NC"},
    {"Age counts against the lifetime (4.2.3)", "cache=max-age%3D3600&age=3600", "NR"},
    {"a small Age leaves it fresh (4.2.3)", "cache=max-age%3D3600&age=60", "NC"},
    {"a Date long past is an old answer: apparent age (4.2.3)", "cache=max-age%3D3600&date=-7200", "NR"},
    {"a Date in the future (a slow client clock) adds no age (4.2.3)", "cache=max-age%3D3600&date=7200", "NC"},
    {"Expires is measured against Date, not the client's clock (4.2.1)", "cache=&expires=10800&date=-7200", "NC"},
    {"a stale entry without validators is fetched anew (4.3.1)", "cache=no-cache&validators=0", "NN"},
    {"Last-Modified alone revalidates with If-Modified-Since (4.3.1)", "cache=no-cache&validators=lm", "NR"},
    {"a 304 updates the stored headers: its max-age makes it fresh (4.3.4)", "cache=no-cache&cache304=max-age%3D3600", "NRC"},
    {"a 304 without Cache-Control leaves the stored lifetime (4.3.4)", "cache=no-cache&cache304=", "NRR"},
    {"Vary on a header every request carries alike: reused (4.1)", "cache=max-age%3D3600&vary=Accept", "NC"},
    {"Vary: * never matches: not reused (4.1)", "cache=max-age%3D3600&vary=*", "NN"},
};

static void test_each_rule_of_rfc_9111(void) {
    size_t i;
    for (i = 0; i < sizeof rows / sizeof *rows; i++) {
        char root[] = "/tmp/be-rfc9111-XXXXXX", url[512], seen[8] = {0};
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        size_t k;
        CHECK(mkdtemp(root) != NULL);
        CHECK_INT(be_config_set_storage_dir(config, root), BE_OK);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        snprintf(url, sizeof url, "%s/cdn/rfc/%zu.png?%s", sandbox_url(), i, rows[i].query);
        for (k = 0; rows[i].expected[k]; k++) seen[k] = fetch_once(sdk, url);
        printf("  %-70s %s\n", rows[i].rule, seen);
        if (strcmp(seen, rows[i].expected) != 0) {
            fprintf(stderr, "RFC 9111 row %zu (%s): expected %s, got %s\n", i, rows[i].rule, rows[i].expected, seen);
            CHECK(0);
        }
        be_sdk_shutdown(sdk, 1000);
        be_config_free(config);
    }
}

/* Vary on User-Agent: an entry stored for one User-Agent never answers another (4.1), even from the disk cache the
 * next SDK shares; the same User-Agent reads it from disk. The cache keeps one variant per URL, the newest. */
static void test_vary_keeps_variants_apart(void) {
    char root[] = "/tmp/be-rfc9111-vary-XXXXXX", url[512];
    const char *agents[] = {"app-a/1.0", "app-a/1.0", "app-b/1.0", "app-a/1.0"};
    const char expected[] = {'N', 'C', 'N', 'N'};
    size_t i;
    CHECK(mkdtemp(root) != NULL);
    snprintf(url, sizeof url, "%s/cdn/rfc/vary.png?cache=max-age%%3D3600&vary=User-Agent", sandbox_url());
    for (i = 0; i < 4; i++) {
        be_config *config = sandbox_config("demo-key");
        be_sdk *sdk = NULL;
        CHECK_INT(be_config_set_storage_dir(config, root), BE_OK);
        CHECK_INT(be_config_set_user_agent(config, agents[i]), BE_OK);
        CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
        CHECK_INT(fetch_once(sdk, url), expected[i]);
        be_sdk_shutdown(sdk, 1000);
        be_config_free(config);
    }
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_each_rule_of_rfc_9111);
    RUN(test_vary_keeps_variants_apart);
    curl_global_cleanup();
    return test_finish();
}
