/* Images fetched one after another through the SDK, each on a connection of its own (the server keeps none), for
 * scripts/early-data-check.sh: with a libcurl that sends TLS 1.3 early data, every fetch after the first rides in
 * the first flight of a resumed connection, and a server that answers 425 Too Early gets the request again.
 *   early_data_blinkengage BASE_URL CA_FILE STORAGE_DIR PATH...
 * Prints one line per path: "ok PATH MILLISECONDS" or "error PATH MESSAGE"; exits 1 when any failed. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blinkengage.h"

static struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int calls;
    char error[512];
} w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, ""};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void on_image(be_image *image, const be_error *error, void *user_data) {
    (void)image, (void)user_data;
    pthread_mutex_lock(&w.lock);
    if (error) snprintf(w.error, sizeof w.error, "%s (HTTP %d)", error->message, error->http_status);
    w.calls++;
    pthread_cond_signal(&w.done);
    pthread_mutex_unlock(&w.lock);
}

int main(int argc, char **argv) {
    be_config *config;
    be_sdk *sdk = NULL;
    int i, failed = 0;
    if (argc < 5) {
        fprintf(stderr, "usage: early_data_blinkengage BASE_URL CA_FILE STORAGE_DIR PATH...\n");
        return 2;
    }
    config = be_config_new("demo-key");
    be_config_set_moments_url(config, argv[1]);
    be_config_set_ca_file(config, argv[2]);
    be_config_set_storage_dir(config, argv[3]);
    be_config_set_warm_up_at_start(config, 0);
    if (be_sdk_start(config, &sdk) != BE_OK) {
        fprintf(stderr, "start: %s\n", be_last_error_message());
        return 1;
    }
    be_config_free(config);
    for (i = 4; i < argc; i++) {
        char url[1024];
        double started = now_ms();
        snprintf(url, sizeof url, "%s%s", argv[1], argv[i]);
        pthread_mutex_lock(&w.lock);
        w.error[0] = 0;
        pthread_mutex_unlock(&w.lock);
        if (be_sdk_fetch_image(sdk, url, on_image, NULL) != BE_OK) {
            printf("error %s %s\n", argv[i], be_last_error_message());
            failed = 1;
            continue;
        }
        pthread_mutex_lock(&w.lock);
        while (w.calls < i - 3) pthread_cond_wait(&w.done, &w.lock);
        if (w.error[0]) {
            printf("error %s %s\n", argv[i], w.error);
            failed = 1;
        } else {
            printf("ok %s %.1f\n", argv[i], now_ms() - started);
        }
        pthread_mutex_unlock(&w.lock);
    }
    be_sdk_shutdown(sdk, 1000);
    return failed;
}
