/* be_sdk_start and be_sdk_shutdown on the caller's thread, in a fresh storage directory and again in the same one
 * (used: its database, journal and lock file exist), nothing owed at shutdown: medians of N (default 7) and the
 * slowest. The services' URL is a live server on loopback, so the start's warm-up opens a real connection (off the
 * caller's thread: what it costs here is only handing it over).
 *
 *   start_stop_blinkengage BASE_URL [N]   prints "start fresh F used U ms; shutdown fresh F used U ms ..." */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blinkengage.h"

enum { MAX_RUNS = 101 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median and the slowest of `n` samples (sorts them). */
static void summarise(double *samples, int n, double *median, double *slowest) {
    qsort(samples, (size_t)n, sizeof *samples, ascending);
    *median = samples[n / 2];
    *slowest = samples[n - 1];
}

/* Removes the storage directory's files and the directory (no subdirectories are made by a clean run). */
static void remove_directory(const char *dir) {
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

int main(int argc, char **argv) {
    double start[2][MAX_RUNS], stop[2][MAX_RUNS], median[4], slowest[4];
    int n = argc > 2 ? atoi(argv[2]) : 7, i, used;
    if (argc < 2 || n < 1 || n > MAX_RUNS) {
        fprintf(stderr, "usage: start_stop_blinkengage BASE_URL [N, 1..%d]\n", MAX_RUNS);
        return 2;
    }
    for (i = 0; i < n; i++) {
        char dir[] = "/tmp/be-start-stop-XXXXXX";
        if (!mkdtemp(dir)) return 2;
        for (used = 0; used < 2; used++) {
            be_config *config = be_config_new("bench-key");
            be_sdk *sdk = NULL;
            double t0, t1, t2;
            be_config_set_moments_url(config, argv[1]);
            be_config_set_engage_url(config, argv[1]);
            be_config_set_storage_dir(config, dir);
            t0 = now_ms();
            if (be_sdk_start(config, &sdk) != BE_OK) {
                fprintf(stderr, "start: %s\n", be_last_error_message());
                return 1;
            }
            t1 = now_ms();
            be_sdk_shutdown(sdk, 2000);
            t2 = now_ms();
            be_config_free(config);
            start[used][i] = t1 - t0;
            stop[used][i] = t2 - t1;
        }
        remove_directory(dir);
    }
    summarise(start[0], n, &median[0], &slowest[0]);
    summarise(start[1], n, &median[1], &slowest[1]);
    summarise(stop[0], n, &median[2], &slowest[2]);
    summarise(stop[1], n, &median[3], &slowest[3]);
    printf("start fresh %.2f used %.2f ms; shutdown fresh %.2f used %.2f ms (medians of %d; slowest %.2f %.2f %.2f %.2f)\n",
           median[0], median[1], median[2], median[3], n, slowest[0], slowest[1], slowest[2], slowest[3]);
    return 0;
}
