/* Shared by the fetch + decode contenders: timing, percentiles, and the fields every contender reads. */
#ifndef FETCH_COMMON_H
#define FETCH_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t bench_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline int bench_compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Prints "median_us p99_us offers checksum" for `count` timings. */
static inline void bench_report(uint64_t *costs, size_t count, long offers, unsigned long long checksum) {
    qsort(costs, count, sizeof *costs, bench_compare);
    printf("%.1f %.1f %ld %llu\n", (double)costs[count / 2] / 1000.0, (double)costs[(size_t)(0.99 * (double)(count - 1))] / 1000.0,
           offers, checksum);
}
#endif
