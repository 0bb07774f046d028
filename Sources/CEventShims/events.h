/* epoll and timerfd for the dispatch descriptor of fetches driven in be_sdk_dispatch (DrivenTransport). A module
 * of their own, without _GNU_SOURCE: CSystemShims defines it, and these headers under it make fd_set disagree
 * with Swift's Glibc module. static inline: no symbols. */
#ifndef BLINKENGAGE_EVENT_SHIMS_H
#define BLINKENGAGE_EVENT_SHIMS_H
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>

/* Several descriptors' readiness as one descriptor: the dispatch descriptor when fetches do their I/O in
 * be_sdk_dispatch (libcurl's sockets, its timer, a wake-up signal, the callback queue's pipe). The wrappers keep
 * struct epoll_event, which is packed on x86-64, out of Swift. */
static inline int be_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Watches `fd` in `epfd` for `interest` (bit 1: readable, bit 2: writable), adding it or changing what is
 * watched; 0 forgets it. Returns 0, or -1 with errno. */
static inline int be_epoll_watch(int epfd, int fd, int interest) {
    struct epoll_event event = {0};
    if (interest == 0) return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
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

/* Sets the timer to expire `milliseconds` from now; a negative value disarms it. 0 expires at once (an
 * it_value of zero would disarm, so it becomes one nanosecond). */
static inline int be_timerfd_arm(int fd, long milliseconds) {
    struct itimerspec spec = {{0, 0}, {0, 0}};
    if (milliseconds == 0) spec.it_value.tv_nsec = 1;
    else if (milliseconds > 0) {
        spec.it_value.tv_sec = milliseconds / 1000;
        spec.it_value.tv_nsec = (milliseconds % 1000) * 1000000L;
    }
    return timerfd_settime(fd, 0, &spec, NULL);
}

/* Sets the timer to expire at `nanoseconds` on CLOCK_MONOTONIC (clock_gettime's count); an instant already past
 * expires at once. Absolute: the instant the caller computed is the one kept, whenever the call runs. */
static inline int be_timerfd_arm_at(int fd, uint64_t nanoseconds) {
    struct itimerspec spec = {{0, 0}, {0, 0}};
    spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000u);
    spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000u);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1; /* zero would disarm */
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}
#endif
