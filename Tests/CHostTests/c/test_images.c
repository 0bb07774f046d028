/* Images through the C API against the sandbox (issue "Creatives and a real window"): a cold fetch, memory and
 * disk hits without a request, a 304 revalidation without a body, no-store, eviction at both limits, damaged
 * disk entries, refused answers and URLs, one request for 16 concurrent fetches, cancellation at shutdown, the
 * creatives of an offer and the image of a zone ad. The sandbox's record says what went over the wire. */
#define _GNU_SOURCE
#include "test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

typedef struct {
    test_result result;
    be_image *image; /* retained: the last one */
    int from_cache;
} image_result;

static void on_image(be_image *image, const be_error *error, void *user_data) {
    image_result *r = user_data;
    pthread_mutex_lock(&r->result.lock);
    if (image) {
        be_image_release(r->image);
        r->image = be_image_retain(image);
        r->from_cache = be_image_is_from_cache(image);
    }
    pthread_mutex_unlock(&r->result.lock);
    test_result_record(&r->result, error);
}

static void image_result_dispose(image_result *r) {
    be_image_release(r->image);
    test_result_dispose(&r->result);
}

/* Fetches `path` of the sandbox (or `path` itself when it has a scheme) and waits for the callback. */
static void fetch(be_sdk *sdk, const char *path, image_result *r) {
    char url[512];
    memset(r, 0, sizeof *r);
    test_result_init(&r->result);
    if (strstr(path, ":") != NULL) snprintf(url, sizeof url, "%s", path);
    else snprintf(url, sizeof url, "%s%s", sandbox_url(), path);
    CHECK_INT(be_sdk_fetch_image(sdk, url, on_image, r), BE_OK);
    CHECK(test_result_wait(&r->result, 1));
}

/* The sandbox's image answers as JSON text (free it). */
static char *image_answers(void) { return sandbox_call("GET", "/_sandbox/images", NULL); }

/* The storage directory's images/ folder below `root` (the SDK makes one folder per API key). */
static void images_dir(const char *root, char *out, size_t size) {
    DIR *directory = opendir(root);
    struct dirent *entry;
    out[0] = 0;
    while (directory && (entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] != '.') snprintf(out, size, "%s/%s/images", root, entry->d_name);
    }
    if (directory) closedir(directory);
}

/* The entries (files) in `dir`, and their total size in *bytes. */
static int count_files(const char *dir, long *bytes) {
    DIR *directory = opendir(dir);
    struct dirent *entry;
    int n = 0;
    if (bytes) *bytes = 0;
    while (directory && (entry = readdir(directory)) != NULL) {
        char path[1024];
        struct stat status;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (stat(path, &status) == 0 && S_ISREG(status.st_mode)) {
            n++;
            if (bytes) *bytes += (long)status.st_size;
        }
    }
    if (directory) closedir(directory);
    return n;
}

static be_config *image_config(char *root, uint64_t memory, uint64_t disk) {
    be_config *config = sandbox_config("demo-key");
    CHECK(mkdtemp(root) != NULL); /* a root of this test's own, to look into */
    CHECK_INT(be_config_set_storage_dir(config, root), BE_OK);
    CHECK_INT(be_config_set_image_cache(config, memory, disk), BE_OK);
    return config;
}

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

static void test_cold_then_memory_then_disk_after_a_restart(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512];
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result cold, warm, disk;
    be_stats stats;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    fetch(sdk, "/cdn/c/9001.png", &cold);
    CHECK(!cold.result.has_error);
    CHECK(cold.image != NULL);
    if (!cold.image) return;
    CHECK(!cold.from_cache);
    CHECK_STR(be_image_content_type(cold.image), "image/png");
    CHECK(be_image_size(cold.image) > 8 && memcmp(be_image_data(cold.image), png_signature, 8) == 0);
    fetch(sdk, "/cdn/c/9001.png", &warm);
    CHECK(warm.from_cache);
    CHECK_INT(be_image_size(warm.image), be_image_size(cold.image));
    CHECK(memcmp(be_image_data(warm.image), be_image_data(cold.image), be_image_size(cold.image)) == 0);
    CHECK_INT(sandbox_count("/cdn/c/9001.png"), 1); /* the memory hit made no request */
    stats = stats_of(sdk);
    CHECK_INT(stats.image_requests, 1);
    CHECK_INT(stats.image_memory_hits, 1);
    be_sdk_shutdown(sdk, 2000);

    images_dir(root, dir, sizeof dir);
    CHECK_INT(count_files(dir, NULL), 1);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK); /* a new process, as far as caches go: memory is empty */
    fetch(sdk, "/cdn/c/9001.png", &disk);
    CHECK(!disk.result.has_error);
    CHECK(disk.from_cache);
    CHECK(disk.image && be_image_size(disk.image) == be_image_size(cold.image) &&
          memcmp(be_image_data(disk.image), be_image_data(cold.image), be_image_size(cold.image)) == 0);
    CHECK_INT(sandbox_count("/cdn/c/9001.png"), 1); /* the disk hit made none either */
    stats = stats_of(sdk);
    CHECK_INT(stats.image_disk_hits, 1);
    CHECK_INT(stats.image_requests, 0);
    be_sdk_shutdown(sdk, 2000);
    image_result_dispose(&cold);
    image_result_dispose(&warm);
    image_result_dispose(&disk);
    be_config_free(config);
}

static void test_a_stale_image_is_revalidated_and_a_304_sends_no_body(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result first, second;
    char *answers, *requests;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    fetch(sdk, "/cdn/stale.png?cache=no-cache", &first);
    fetch(sdk, "/cdn/stale.png?cache=no-cache", &second);
    CHECK(!first.result.has_error && !second.result.has_error);
    CHECK(!first.from_cache);
    CHECK(second.from_cache); /* confirmed by the server */
    CHECK(first.image && second.image && be_image_size(first.image) == be_image_size(second.image) &&
          memcmp(be_image_data(first.image), be_image_data(second.image), be_image_size(first.image)) == 0);
    answers = image_answers();
    CHECK(strstr(answers, "\"status\": 200, \"bytes\": 427") != NULL);
    CHECK(strstr(answers, "\"status\": 304, \"bytes\": 0") != NULL);
    free(answers);
    requests = sandbox_requests();
    CHECK_INT(count_occurrences(requests, "\"if-none-match\""), 1);
    free(requests);
    CHECK_INT(stats_of(sdk).image_revalidations, 1);
    /* Last-Modified alone revalidates too: the sandbox answers 304 to If-Modified-Since */
    be_sdk_shutdown(sdk, 2000);
    image_result_dispose(&first);
    image_result_dispose(&second);
    be_config_free(config);
}

/* A validator that could not be sent back (a bare CR in an ETag, as a server may send with no-cache) is never
 * kept: every later fetch succeeds, revalidating with what can be sent (If-Modified-Since) and never with it. */
static void test_a_validator_with_a_cr_never_blocks_an_image(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result r;
    char *requests;
    int i;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    for (i = 0; i < 3; i++) {
        fetch(sdk, "/cdn/cr.png?cache=no-cache&etag=%22a%0Db%22", &r);
        CHECK(!r.result.has_error && r.image != NULL);
        if (r.result.has_error) fprintf(stderr, "fetch %d: %s\n", i, r.result.message);
        image_result_dispose(&r);
    }
    requests = sandbox_requests();
    CHECK_INT(count_occurrences(requests, "\"if-none-match\""), 0);
    CHECK_INT(count_occurrences(requests, "\"if-modified-since\""), 2);
    free(requests);
    CHECK_INT(stats_of(sdk).image_revalidations, 2);
    be_sdk_shutdown(sdk, 2000);
    /* a later start reads the disk entry: it holds no such validator either */
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    fetch(sdk, "/cdn/cr.png?cache=no-cache&etag=%22a%0Db%22", &r);
    CHECK(!r.result.has_error);
    image_result_dispose(&r);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

static void test_no_store_is_kept_nowhere(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512];
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result first, second;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    fetch(sdk, "/cdn/private.png?cache=no-store", &first);
    fetch(sdk, "/cdn/private.png?cache=no-store", &second);
    CHECK(!first.result.has_error && !second.result.has_error);
    CHECK(!first.from_cache && !second.from_cache);
    CHECK_INT(sandbox_count("/cdn/private.png"), 2);
    images_dir(root, dir, sizeof dir);
    CHECK_INT(count_files(dir, NULL), 0);
    be_sdk_shutdown(sdk, 2000);
    image_result_dispose(&first);
    image_result_dispose(&second);
    be_config_free(config);
}

static void test_eviction_at_the_memory_limit(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 1000, 0); /* room for two 427-byte images, no disk */
    be_sdk *sdk = NULL;
    image_result r;
    const char *paths[] = {"/cdn/m.png?v=1", "/cdn/m.png?v=2", "/cdn/m.png?v=3"};
    size_t i;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    for (i = 0; i < 3; i++) {
        fetch(sdk, paths[i], &r);
        CHECK(!r.result.has_error && !r.from_cache);
        image_result_dispose(&r);
    }
    fetch(sdk, paths[2], &r); /* the newest is still there */
    CHECK(r.from_cache);
    image_result_dispose(&r);
    fetch(sdk, paths[0], &r); /* the least recently used went */
    CHECK(!r.result.has_error && !r.from_cache);
    image_result_dispose(&r);
    CHECK_INT(sandbox_count("/cdn/m.png"), 4);
    CHECK_INT(stats_of(sdk).image_memory_hits, 1);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

static void test_eviction_at_the_disk_limit(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512];
    be_config *config = image_config(root, 0, 1400); /* no memory cache; room for two entries on disk */
    be_sdk *sdk = NULL;
    image_result r;
    const char *paths[] = {"/cdn/d.png?v=1", "/cdn/d.png?v=2", "/cdn/d.png?v=3"};
    long bytes = 0;
    size_t i;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    for (i = 0; i < 3; i++) {
        fetch(sdk, paths[i], &r);
        CHECK(!r.result.has_error && !r.from_cache);
        image_result_dispose(&r);
        CHECK(count_files(dir, &bytes) <= 2);
        CHECK(bytes <= 1400); /* never over the limit */
    }
    CHECK_INT(count_files(dir, NULL), 2);
    fetch(sdk, paths[2], &r);
    CHECK(r.from_cache);
    image_result_dispose(&r);
    fetch(sdk, paths[0], &r);
    CHECK(!r.from_cache);
    image_result_dispose(&r);
    CHECK_INT(sandbox_count("/cdn/d.png"), 4);
    CHECK_INT(stats_of(sdk).image_disk_hits, 1);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

/* Flips one byte in the middle of every file of `dir` (or cuts each to half when `truncate`). */
static void damage_files(const char *dir, int truncate_them) {
    DIR *directory = opendir(dir);
    struct dirent *entry;
    while (directory && (entry = readdir(directory)) != NULL) {
        char path[1024];
        struct stat status;
        FILE *file;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (stat(path, &status) != 0) continue;
        if (truncate_them) {
            CHECK(truncate(path, status.st_size / 2) == 0);
            continue;
        }
        file = fopen(path, "r+b");
        if (!file) continue;
        fseek(file, status.st_size / 2, SEEK_SET);
        {
            int byte = fgetc(file);
            fseek(file, status.st_size / 2, SEEK_SET);
            fputc(byte ^ 0x5A, file);
        }
        fclose(file);
    }
    if (directory) closedir(directory);
}

static void test_a_damaged_disk_entry_is_discarded_never_handed_out(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512];
    be_config *config = image_config(root, 0, 64u << 20);
    be_sdk *sdk = NULL;
    image_result original, again;
    int round;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    fetch(sdk, "/cdn/damaged.png", &original);
    CHECK(!original.result.has_error);
    for (round = 0; round < 2; round++) {
        damage_files(dir, round);
        fetch(sdk, "/cdn/damaged.png", &again);
        CHECK(!again.result.has_error);
        CHECK(!again.from_cache); /* fetched anew */
        CHECK(again.image && original.image && be_image_size(again.image) == be_image_size(original.image) &&
              memcmp(be_image_data(again.image), be_image_data(original.image), be_image_size(original.image)) == 0);
        image_result_dispose(&again);
    }
    CHECK_INT(sandbox_count("/cdn/damaged.png"), 3);
    CHECK_INT(stats_of(sdk).image_disk_hits, 0);
    be_sdk_shutdown(sdk, 2000);
    image_result_dispose(&original);
    be_config_free(config);
}

static void check_error(be_sdk *sdk, const char *path, int code, const char *words) {
    image_result r;
    fetch(sdk, path, &r);
    CHECK(r.result.has_error);
    CHECK(r.image == NULL);
    CHECK_STR(r.result.domain, BE_IMAGE_ERROR_DOMAIN);
    CHECK_INT(r.result.code, code);
    if (!strstr(r.result.message, words)) fprintf(stderr, "%s: message \"%s\" lacks \"%s\"\n", path, r.result.message, words);
    CHECK(strstr(r.result.message, words) != NULL);
    image_result_dispose(&r);
}

static void test_refused_answers_and_urls(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result r;
    char *answers;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    check_error(sdk, "/cdn/page.png?type=text/html", BE_IMAGE_ERROR_NOT_AN_IMAGE, "text/html");
    check_error(sdk, "/cdn/huge.png?size=11000000", BE_IMAGE_ERROR_TOO_LARGE, "larger than 10485760");
    sandbox_fault("{\"path\": \"/cdn/gone.png\", \"status\": 404}");
    fetch(sdk, "/cdn/gone.png", &r);
    CHECK_STR(r.result.domain, BE_IMAGE_ERROR_DOMAIN);
    CHECK_INT(r.result.code, BE_IMAGE_ERROR_HTTP_STATUS);
    CHECK_INT(r.result.http_status, 404);
    image_result_dispose(&r);
    sandbox_fault("{\"path\": \"/cdn/redirected.png\", \"redirect\": \"file:///etc/passwd\"}");
    check_error(sdk, "/cdn/redirected.png", BE_IMAGE_ERROR_NETWORK, "not http(s)");
    sandbox_fault("{\"path\": \"/cdn/to-ftp.png\", \"redirect\": \"ftp://127.0.0.1/x.png\"}");
    check_error(sdk, "/cdn/to-ftp.png", BE_IMAGE_ERROR_NETWORK, "not http(s)");
    check_error(sdk, "javascript:alert(1)", BE_IMAGE_ERROR_INVALID_URL, "not an http(s) URL");
    check_error(sdk, "file:///etc/passwd", BE_IMAGE_ERROR_INVALID_URL, "not an http(s) URL");
    check_error(sdk, "https://exa mple.com/a.png", BE_IMAGE_ERROR_INVALID_URL, "not an http(s) URL");
    CHECK_INT(be_sdk_fetch_image(sdk, NULL, on_image, &r), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_image(sdk, "https://a.example/x.png", NULL, &r), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_fetch_image(NULL, "https://a.example/x.png", on_image, &r), BE_ERR_INVALID_ARGUMENT);
    answers = image_answers();
    CHECK(strstr(answers, "/etc/passwd") == NULL);
    free(answers);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

typedef struct {
    be_sdk *sdk;
    image_result *result;
    char url[512];
    be_status status; /* checked on the main thread: the check counters are not thread-safe */
} fetcher;

static void *fetch_from_thread(void *argument) {
    fetcher *f = argument;
    f->status = be_sdk_fetch_image(f->sdk, f->url, on_image, f->result);
    return NULL;
}

static void test_sixteen_concurrent_fetches_make_one_request(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result r;
    fetcher f[16];
    pthread_t threads[16];
    int i;
    sandbox_reset();
    sandbox_fault("{\"path\": \"/cdn/shared.png\", \"gate\": true, \"times\": 1}");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    for (i = 0; i < 16; i++) {
        f[i].sdk = sdk;
        f[i].result = &r;
        snprintf(f[i].url, sizeof f[i].url, "%s/cdn/shared.png", sandbox_url());
        pthread_create(&threads[i], NULL, fetch_from_thread, &f[i]);
    }
    for (i = 0; i < 16; i++) {
        pthread_join(threads[i], NULL);
        CHECK_INT(f[i].status, BE_OK);
    }
    free(sandbox_call("POST", "/_sandbox/release", NULL)); /* all 16 were asked for while the one request waited */
    CHECK(test_result_wait(&r.result, 16));
    CHECK(!r.result.has_error);
    CHECK_INT(sandbox_count("/cdn/shared.png"), 1);
    CHECK_INT(stats_of(sdk).image_shared, 15);
    CHECK_INT(r.result.calls, 16);
    be_sdk_shutdown(sdk, 2000);
    CHECK_INT(r.result.calls, 16); /* and never again */
    image_result_dispose(&r);
    be_config_free(config);
}

static void test_shutdown_cancels_a_fetch_in_flight_once(void) {
    char root[] = "/tmp/be-images-XXXXXX";
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result r;
    char url[512];
    sandbox_reset();
    sandbox_fault("{\"path\": \"/cdn/hanging.png\", \"hang\": true}");
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    snprintf(url, sizeof url, "%s/cdn/hanging.png", sandbox_url());
    CHECK_INT(be_sdk_fetch_image(sdk, url, on_image, &r), BE_OK);
    while (sandbox_count("/cdn/hanging.png") == 0) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL); /* polling the sandbox's record, not timing */
    }
    be_sdk_shutdown(sdk, 2000);
    CHECK_INT(r.result.calls, 1);
    CHECK_STR(r.result.domain, BE_CANCELLED_ERROR_DOMAIN);
    image_result_dispose(&r);
    be_config_free(config);
}

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    be_zone_ad **out = user_data;
    if (ad) *out = be_zone_ad_retain(ad);
    (void)error;
}

static void test_creatives_and_the_zone_ad_image(void) {
    char root[] = "/tmp/be-images-XXXXXX", expected[512], template_url[512];
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    be_moments_request *request = placement_request();
    test_result moments;
    const be_offer *offer;
    const be_creative *creative;
    be_zone_ad *ad = NULL;
    image_result r;
    snprintf(template_url, sizeof template_url, "%s/adAPI.php?AdID={zone}", sandbox_url());
    CHECK_INT(be_config_set_zone_ad_url(config, template_url), BE_OK);
    CHECK_INT(be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH), BE_OK);
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    test_result_init(&moments);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &moments), BE_OK);
    while (moments.calls == 0) be_sdk_dispatch(sdk, 0);
    CHECK(moments.response != NULL);
    if (!moments.response) return;
    offer = be_moments_response_offer_at(moments.response, 0);
    CHECK_INT(be_offer_creative_count(offer), 1);
    creative = be_offer_creative_at(offer, 0);
    snprintf(expected, sizeof expected, "%s/cdn/c/9001.png", sandbox_url());
    CHECK_STR(be_creative_url(creative), expected);
    CHECK_INT(be_creative_width(creative), 600);
    CHECK_INT(be_creative_height(creative), 600);
    CHECK_STR(be_creative_type(creative), "image");
    CHECK_INT(be_creative_is_primary(creative), 1);
    CHECK(be_offer_creative_at(offer, 1) == NULL);
    CHECK_INT(be_offer_creative_count(be_moments_response_offer_at(moments.response, 1)), 0);
    CHECK_INT(be_offer_creative_count(NULL), 0);
    CHECK(be_creative_url(NULL) == NULL && be_creative_width(NULL) == 0 && be_creative_is_primary(NULL) == 0);
    CHECK(be_image_data(NULL) == NULL && be_image_size(NULL) == 0 && be_image_content_type(NULL) == NULL);

    /* the creative, fetched; in dispatch mode the callback runs inside be_sdk_dispatch() */
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    CHECK_INT(be_sdk_fetch_image(sdk, be_creative_url(creative), on_image, &r), BE_OK);
    while (r.result.calls == 0) be_sdk_dispatch(sdk, 0);
    CHECK(r.image && memcmp(be_image_data(r.image), png_signature, 8) == 0);
    image_result_dispose(&r);

    /* the zone ad's image, the same way; the JPEG fixture too */
    CHECK_INT(be_sdk_fetch_zone_ad(sdk, "1", on_zone_ad, &ad), BE_OK);
    while (ad == NULL) be_sdk_dispatch(sdk, 0);
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    CHECK_INT(be_sdk_fetch_image(sdk, be_zone_ad_image_url(ad), on_image, &r), BE_OK);
    while (r.result.calls == 0) be_sdk_dispatch(sdk, 0);
    CHECK(!r.result.has_error);
    CHECK(r.image && be_image_size(r.image) > 8);
    image_result_dispose(&r);
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    snprintf(expected, sizeof expected, "%s/cdn/photo.jpg", sandbox_url());
    CHECK_INT(be_sdk_fetch_image(sdk, expected, on_image, &r), BE_OK);
    while (r.result.calls == 0) be_sdk_dispatch(sdk, 0);
    CHECK_STR(r.image ? be_image_content_type(r.image) : NULL, "image/jpeg");
    CHECK(r.image && be_image_size(r.image) > 2 && memcmp(be_image_data(r.image), "\xff\xd8", 2) == 0);
    image_result_dispose(&r);

    be_zone_ad_release(ad);
    test_result_dispose(&moments);
    be_sdk_shutdown(sdk, 2000);
    be_moments_request_free(request);
    be_config_free(config);
}

static void test_deleting_user_data_empties_the_image_caches(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512];
    be_config *config = image_config(root, 16u << 20, 64u << 20);
    be_sdk *sdk = NULL;
    image_result r;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    fetch(sdk, "/cdn/erase.png", &r);
    image_result_dispose(&r);
    CHECK_INT(count_files(dir, NULL), 1);
    CHECK_INT(be_sdk_delete_user_data(sdk), BE_OK);
    CHECK_INT(count_files(dir, NULL), 0);
    fetch(sdk, "/cdn/erase.png", &r);
    CHECK(!r.from_cache);
    image_result_dispose(&r);
    CHECK_INT(sandbox_count("/cdn/erase.png"), 2);
    /* erasure while a fetch is in flight: the fetch is answered, but what it brings, asked for before the
     * erasure, is kept in neither cache */
    sandbox_fault("{\"path\": \"/cdn/in-flight.png\", \"gate\": true, \"times\": 1}");
    memset(&r, 0, sizeof r);
    test_result_init(&r.result);
    {
        char url[512];
        snprintf(url, sizeof url, "%s/cdn/in-flight.png", sandbox_url());
        CHECK_INT(be_sdk_fetch_image(sdk, url, on_image, &r), BE_OK);
        while (sandbox_count("/cdn/in-flight.png") < 1) sched_yield();
        CHECK_INT(be_sdk_delete_user_data(sdk), BE_OK);
        free(sandbox_call("POST", "/_sandbox/release", NULL));
        CHECK(test_result_wait(&r.result, 1) && !r.result.has_error);
        image_result_dispose(&r);
        CHECK_INT(count_files(dir, NULL), 0);
        fetch(sdk, "/cdn/in-flight.png", &r);
        CHECK(!r.from_cache);
        image_result_dispose(&r);
    }
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

/* Things in images/ that are no entry the cache wrote, at the very name of an entry: a FIFO (opening it to read
 * would block until a writer came), symbolic links to /etc/passwd and to a FIFO, a directory, a 2 GB sparse file.
 * None is read or followed, nothing they point to changes, and each fetch is answered from the network. */
static void test_files_that_are_no_entry_are_never_read(void) {
    static const char *kinds[] = {"fifo", "link to /etc/passwd", "link to a fifo", "directory", "2 GB sparse"};
    char root[] = "/tmp/be-images-XXXXXX", dir[512], entry[1024], fifo[1024];
    be_config *config = image_config(root, 0, 64u << 20); /* no memory cache: every fetch looks on disk */
    be_sdk *sdk = NULL;
    image_result r;
    struct stat passwd_before, passwd_after;
    DIR *directory;
    struct dirent *found;
    size_t kind;
    sandbox_reset();
    CHECK(stat("/etc/passwd", &passwd_before) == 0);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    fetch(sdk, "/cdn/hostile.png", &r);
    CHECK(!r.result.has_error);
    image_result_dispose(&r);
    entry[0] = 0;
    directory = opendir(dir);
    while (directory && (found = readdir(directory)) != NULL) {
        if (found->d_name[0] != '.') snprintf(entry, sizeof entry, "%s/%s", dir, found->d_name);
    }
    if (directory) closedir(directory);
    CHECK(entry[0] != 0);
    snprintf(fifo, sizeof fifo, "%s/../a-fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    for (kind = 0; kind < sizeof kinds / sizeof *kinds; kind++) {
        int fd;
        if (unlink(entry) != 0) rmdir(entry);
        switch (kind) {
        case 0: CHECK(mkfifo(entry, 0600) == 0); break;
        case 1: CHECK(symlink("/etc/passwd", entry) == 0); break;
        case 2: CHECK(symlink(fifo, entry) == 0); break;
        case 3: CHECK(mkdir(entry, 0700) == 0); break;
        default:
            fd = open(entry, O_WRONLY | O_CREAT, 0600);
            CHECK(fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0);
            close(fd);
        }
        fetch(sdk, "/cdn/hostile.png", &r);
        if (r.result.has_error || r.from_cache) fprintf(stderr, "a %s as the entry: not answered from the network\n", kinds[kind]);
        CHECK(!r.result.has_error && !r.from_cache && r.image != NULL);
        image_result_dispose(&r);
    }
    CHECK_INT(sandbox_count("/cdn/hostile.png"), 1 + (int)(sizeof kinds / sizeof *kinds));
    CHECK(stat("/etc/passwd", &passwd_after) == 0 && passwd_after.st_size == passwd_before.st_size &&
          passwd_after.st_mtime == passwd_before.st_mtime);
    be_sdk_shutdown(sdk, 2000);
    unlink(fifo);
    be_config_free(config);
}

/* 10,000 distinct URLs through a disk cache of 200 KB: the folder never holds a byte more than the limit. A host
 * transport answers each request at once with a 1 KB image, so the count costs no server. */
static void answer_with_a_small_png(be_http_request *request, void *user_data) {
    static const char *lines[] = {"Content-Type: image/png", "Cache-Control: max-age=3600"};
    static unsigned char body[1024] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    (void)user_data;
    be_http_request_complete(request, 200, lines, 2, body, sizeof body);
}

static void test_ten_thousand_urls_keep_the_disk_bound_to_the_byte(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512], url[256];
    const uint64_t limit = 200u * 1024;
    be_config *config = image_config(root, 0, limit);
    be_sdk *sdk = NULL;
    long bytes = 0, largest = 0;
    int i;
    CHECK_INT(be_config_set_http_transport(config, answer_with_a_small_png, NULL), BE_OK);
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    for (i = 0; i < 10000; i++) {
        image_result r;
        snprintf(url, sizeof url, "https://cdn.example/%d.png", i);
        fetch(sdk, url, &r);
        CHECK(!r.result.has_error);
        image_result_dispose(&r);
        if (i % 500 == 499) {
            count_files(dir, &bytes);
            if (bytes > largest) largest = bytes;
        }
    }
    printf("  10,000 URLs, disk limit %llu bytes: the folder held at most %ld\n", (unsigned long long)limit, largest);
    CHECK(largest > 0 && (uint64_t)largest <= limit);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

/* One URL's entry copied over another's file: it names the other URL, so it is never handed out for this one. */
static void test_a_swapped_entry_is_never_handed_out(void) {
    char root[] = "/tmp/be-images-XXXXXX", dir[512], first[1024] = "", second[1024] = "", command[2200];
    be_config *config = image_config(root, 0, 64u << 20);
    be_sdk *sdk = NULL;
    image_result a, b;
    DIR *directory;
    struct dirent *found;
    sandbox_reset();
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    images_dir(root, dir, sizeof dir);
    fetch(sdk, "/cdn/swap-a.jpg", &a); /* a JPEG */
    directory = opendir(dir);
    while (directory && (found = readdir(directory)) != NULL)
        if (found->d_name[0] != '.') snprintf(first, sizeof first, "%s/%s", dir, found->d_name);
    if (directory) closedir(directory);
    fetch(sdk, "/cdn/swap-b.png", &b); /* a PNG */
    directory = opendir(dir);
    while (directory && (found = readdir(directory)) != NULL) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, found->d_name);
        if (found->d_name[0] != '.' && strcmp(path, first) != 0) snprintf(second, sizeof second, "%s", path);
    }
    if (directory) closedir(directory);
    CHECK(first[0] && second[0]);
    snprintf(command, sizeof command, "cp '%s' '%s'", first, second);
    CHECK(system(command) == 0);
    image_result_dispose(&b);
    fetch(sdk, "/cdn/swap-b.png", &b);
    CHECK(!b.result.has_error && !b.from_cache);
    CHECK(b.image && strcmp(be_image_content_type(b.image), "image/png") == 0);
    CHECK_INT(sandbox_count("/cdn/swap-b.png"), 2);
    image_result_dispose(&a);
    image_result_dispose(&b);
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_cold_then_memory_then_disk_after_a_restart);
    RUN(test_a_stale_image_is_revalidated_and_a_304_sends_no_body);
    RUN(test_a_validator_with_a_cr_never_blocks_an_image);
    RUN(test_no_store_is_kept_nowhere);
    RUN(test_eviction_at_the_memory_limit);
    RUN(test_eviction_at_the_disk_limit);
    RUN(test_a_damaged_disk_entry_is_discarded_never_handed_out);
    RUN(test_refused_answers_and_urls);
    RUN(test_sixteen_concurrent_fetches_make_one_request);
    RUN(test_shutdown_cancels_a_fetch_in_flight_once);
    RUN(test_creatives_and_the_zone_ad_image);
    RUN(test_deleting_user_data_empties_the_image_caches);
    RUN(test_files_that_are_no_entry_are_never_read);
    RUN(test_a_swapped_entry_is_never_handed_out);
    RUN(test_ten_thousand_urls_keep_the_disk_bound_to_the_byte);
    curl_global_cleanup();
    return test_finish();
}
