/* Hand-written C: libcurl with one reused handle, jansson, every field of every offer read.
 *   fetch_jansson BASE_URL CALLS */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <jansson.h>
#include <string.h>
#include "fetch_common.h"

typedef struct { char *data; size_t size; } buffer;

static size_t collect(char *data, size_t size, size_t count, void *user) {
    buffer *b = user;
    char *grown = realloc(b->data, b->size + size * count + 1);
    if (!grown) return 0;
    b->data = grown;
    memcpy(b->data + b->size, data, size * count);
    b->size += size * count;
    return size * count;
}

static void consume(json_t *value, unsigned long long *sum) {
    size_t index;
    const char *key;
    json_t *element;
    switch (json_typeof(value)) {
    case JSON_STRING: *sum += json_string_length(value); break;
    case JSON_INTEGER: *sum += (unsigned long long)json_integer_value(value); break;
    case JSON_REAL: *sum += (unsigned long long)json_real_value(value); break;
    case JSON_TRUE: *sum += 1; break;
    case JSON_ARRAY: json_array_foreach(value, index, element) consume(element, sum); break;
    case JSON_OBJECT: json_object_foreach(value, key, element) { *sum += strlen(key); consume(element, sum); } break;
    default: break;
    }
}

int main(int argc, char **argv) {
    char url[512];
    size_t calls, i, index;
    uint64_t *costs;
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = NULL;
    buffer body = {NULL, 0};
    unsigned long long sum = 0;
    long offers = 0;
    if (argc < 3) return 2;
    snprintf(url, sizeof url, "%s/offers.json?api_key=bench-key", argv[1]);
    calls = (size_t)atol(argv[2]);
    costs = calloc(calls, sizeof *costs);
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: application/json");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{\"placement\":\"checkout\"}");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    for (i = 0; i < calls; i++) {
        uint64_t start = bench_now_ns();
        json_t *root, *offer_list, *offer;
        json_error_t error;
        body.size = 0;
        if (curl_easy_perform(curl) != CURLE_OK) return 1;
        root = json_loadb(body.data, body.size, 0, &error);
        if (!root) return 1;
        offer_list = json_object_get(json_object_get(root, "data"), "offers");
        offers = 0;
        json_array_foreach(offer_list, index, offer) {
            consume(offer, &sum);
            offers++;
        }
        json_decref(root);
        costs[i] = bench_now_ns() - start;
    }
    bench_report(costs, calls, offers, sum);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    free(body.data);
    free(costs);
    return 0;
}
