/* The flight recorder through the C API: requests with their timings and the SDK's decisions, as JSON lines, as
 * HAR and in the storage directory's file, and never a secret: not the API key, a token, the user id or the
 * device id. */
#include "test_support.h"

#include <dirent.h>

#define USER "user-secret-4242"

static void on_image(be_image *image, const be_error *error, void *user_data) {
    (void)image;
    test_result_record(user_data, error);
}

/* The secrets of this run: the API key, the user id, and the token and device id the sandbox saw. */
static void check_no_secret(const char *text, const char *what) {
    char *requests = sandbox_requests(), *p;
    int tokens = 0, devices = 0;
    if (strstr(text, "demo-key") || strstr(text, USER)) fprintf(stderr, "%s holds the key or the user id\n", what);
    CHECK(strstr(text, "demo-key") == NULL);
    CHECK(strstr(text, USER) == NULL);
    /* every bearer token and device id the sandbox received */
    for (p = strstr(requests, "Bearer "); p; p = strstr(p + 1, "Bearer ")) {
        char token[128];
        size_t n = strcspn(p + 7, "\"\\");
        if (n == 0 || n >= sizeof token) continue;
        memcpy(token, p + 7, n);
        token[n] = 0;
        tokens++;
        CHECK(strstr(text, token) == NULL);
    }
    for (p = strstr(requests, "device_id"); p; p = strstr(p + 1, "device_id")) {
        char device[128];
        const char *start = strchr(p, ':');
        size_t n;
        if (!start) break;
        start += strspn(start, ":\\\" ");
        n = strcspn(start, "\"\\");
        if (n < 8 || n >= sizeof device) continue;
        memcpy(device, start, n);
        device[n] = 0;
        devices++;
        CHECK(strstr(text, device) == NULL);
    }
    CHECK(tokens > 0 && devices > 0); /* the check saw the secrets it looks for */
    free(requests);
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    char *text = calloc(1, 1 << 20);
    if (file && text) {
        size_t n = fread(text, 1, (1 << 20) - 1, file);
        text[n] = 0;
    }
    if (file) fclose(file);
    return text;
}

static void test_the_recorder_says_what_happened_and_keeps_no_secret(void) {
    be_config *config = sandbox_config("demo-key");
    be_moments_request *request = placement_request();
    be_sdk *sdk = NULL;
    test_result r;
    char *lines = NULL, *har = NULL, *file, image_url[512], root[64], path[1024];
    be_offer_feed_event *event;
    DIR *directory;
    struct dirent *entry;
    sandbox_reset();
    snprintf(root, sizeof root, "/tmp/be-inspector-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    CHECK_INT(be_config_set_storage_dir(config, root), BE_OK);
    CHECK_INT(be_config_set_development(config, 1), BE_OK); /* the recorder's default: on in development mode */
    CHECK_INT(be_sdk_start(config, &sdk), BE_OK);
    CHECK_INT(be_sdk_set_user_identity(sdk, USER), BE_OK);
    /* a prefetch, then the fetch it answers */
    CHECK_INT(be_sdk_prefetch_moments_offers(sdk, request), BE_OK);
    test_result_init(&r);
    CHECK_INT(be_sdk_fetch_moments_offers(sdk, request, on_moments, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    test_result_dispose(&r);
    /* the feed (a registration with the user id and device id, a token), an event with it */
    test_result_init(&r);
    CHECK_INT(be_sdk_load_offer_feed(sdk, on_feed, &r), BE_OK);
    CHECK(test_result_wait(&r, 1) && !r.has_error);
    event = be_offer_feed_event_new_with_offer(be_offer_group_offer_at(be_offer_feed_group_at(r.feed, 0), 0), BE_OFFER_FEED_EVENT_DID_APPEAR);
    CHECK_INT(be_sdk_report_offer_feed_event(sdk, event), BE_OK);
    be_offer_feed_event_free(event);
    test_result_dispose(&r);
    CHECK_INT(be_sdk_flush(sdk, 60000), BE_OK);
    /* an image twice: the second from memory */
    snprintf(image_url, sizeof image_url, "%s/cdn/campaigns/1201/main.png", sandbox_url());
    for (int i = 0; i < 2; i++) {
        test_result_init(&r);
        CHECK_INT(be_sdk_fetch_image(sdk, image_url, on_image, &r), BE_OK);
        CHECK(test_result_wait(&r, 1) && !r.has_error);
        test_result_dispose(&r);
    }

    CHECK_INT(be_sdk_recorder_json(NULL, &lines), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_recorder_json(sdk, NULL), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_sdk_recorder_json(sdk, &lines), BE_OK);
    CHECK(lines != NULL);
    if (!lines) return;
    CHECK(count_occurrences(lines, "\"type\":\"request\"") >= 5); /* Moments, registration, feed, events, beacons, image */
    CHECK(strstr(lines, "\"method\":\"POST\"") != NULL);
    CHECK(strstr(lines, "api_key=REDACTED") != NULL);
    CHECK(strstr(lines, "\"status\":200") != NULL);
    CHECK(strstr(lines, "\"dns\":") != NULL && strstr(lines, "\"first_byte\"") == NULL && strstr(lines, "\"wait\":") != NULL);
    CHECK(strstr(lines, "\"what\":\"answered_from_prefetch\"") != NULL || strstr(lines, "\"what\":\"joined_prefetch\"") != NULL);
    CHECK(strstr(lines, "\"what\":\"image_from_memory_cache\"") != NULL);
    check_no_secret(lines, "the recorder's lines");

    CHECK_INT(be_recorder_har(NULL, &har), BE_ERR_INVALID_ARGUMENT);
    CHECK_INT(be_recorder_har(lines, &har), BE_OK);
    CHECK(har && strstr(har, "\"version\":\"1.2\"") && strstr(har, "\"entries\":[{") && strstr(har, "\"_decisions\":[{"));
    CHECK(har && strstr(har, "\"timings\":{\"blocked\":"));
    if (har) check_no_secret(har, "the HAR");

    be_sdk_shutdown(sdk, 1000);
    /* the storage directory's file (in the key's one directory below the root) says the same, and no more */
    directory = opendir(root);
    path[0] = 0;
    while (directory && (entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] != '.') snprintf(path, sizeof path, "%s/%s/recorder.jsonl", root, entry->d_name);
    }
    if (directory) closedir(directory);
    file = read_file(path);
    CHECK(file && count_occurrences(file, "\"type\":\"request\"") >= count_occurrences(lines, "\"type\":\"request\""));
    if (file) check_no_secret(file, "recorder.jsonl");
    free(file);
    be_string_free(har);
    be_string_free(lines);
    be_moments_request_free(request);
    be_config_free(config);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    RUN(test_the_recorder_says_what_happened_and_keeps_no_secret);
    return test_finish();
}
