/* The readiness poller's Linux half: epoll and timerfd, for the dispatch descriptor of fetches driven in
 * be_sdk_dispatch (Platform/ReadinessPoller.swift). The portable build has none of it: there the poller is poll(2)
 * on a thread of its own (Platform/PollRelay.swift). kqueue would serve Apple and the BSDs as epoll does here
 * (EVFILT_READ/WRITE, and EVFILT_TIMER for the timers). static inline: no symbols. */
#ifndef BLINKENGAGE_PLATFORM_EVENTS_H
#define BLINKENGAGE_PLATFORM_EVENTS_H
#include "platform.h"
#ifdef BE_PLATFORM_LINUX
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>

/* Several descriptors' readiness as one descriptor. The wrappers keep struct epoll_event, which is packed on
 * x86-64, out of Swift. */
static inline int be_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Watches `fd` in `epfd` for `interest` (bit 1: readable, bit 2: writable), adding it or changing what is
 * watched; 0 forgets it (not watched: fine). Returns 0, or -1 with errno. */
static inline int be_epoll_watch(int epfd, int fd, int interest) {
    struct epoll_event event = {0};
    if (interest == 0) return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event) == 0 || errno == ENOENT ? 0 : -1;
    event.events = ((interest & 1) ? EPOLLIN : 0) | ((interest & 2) ? EPOLLOUT : 0);
    event.data.fd = fd;
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event) == 0) return 0;
    return errno == ENOENT ? epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) : -1;
}

/* The descriptors of `epfd` ready now, without waiting: up to `max` of them into `fds`, each one's readiness
 * into `ready` (bit 1: readable or hung up, bit 2: writable, bit 4: error; libcurl's CURL_CSELECT_* values).
 * Returns how many, or -1 with errno. */
static inline int be_epoll_ready(int epfd, int *fds, int *ready, int max) {
    struct epoll_event events[16];
    int count = epoll_wait(epfd, events, max < 16 ? max : 16, 0);
    for (int i = 0; i < count; i++) {
        uint32_t e = events[i].events;
        fds[i] = events[i].data.fd;
        ready[i] = ((e & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) ? 1 : 0) | ((e & EPOLLOUT) ? 2 : 0) | ((e & EPOLLERR) ? 4 : 0);
    }
    return count;
}

/* A one-shot timer on the monotonic clock, readable once it expired. */
static inline int be_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

/* Sets the timer to expire at `nanoseconds` on CLOCK_MONOTONIC (clock_gettime's count); an instant already past
 * expires at once; UINT64_MAX disarms it. Absolute: the instant the caller computed is the one kept. */
static inline int be_timerfd_arm_at(int fd, uint64_t nanoseconds) {
    struct itimerspec spec = {{0, 0}, {0, 0}};
    if (nanoseconds != UINT64_MAX) {
        spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000u);
        spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000u);
        if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1; /* zero disarms */
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

/* Empties an expired timer so it stops being readable (one 8-byte read takes the count). */
static inline void be_timerfd_reset(int fd) {
    uint64_t count;
    while (read(fd, &count, sizeof count) < 0 && errno == EINTR) {}
}
#endif
#endif
