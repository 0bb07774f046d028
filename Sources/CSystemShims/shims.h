/* Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE, or live in headers it leaves
 * out). static inline: no symbols. */
#ifndef BLINKENGAGE_SYSTEM_SHIMS_H
#define BLINKENGAGE_SYSTEM_SHIMS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* Fills `buffer` from the kernel's random generator in one call (ids: 16 bytes each); returns the bytes filled,
 * or -1 with errno. The raw system call: <sys/random.h> clashes with Swift's Glibc module over fd_set. */
static inline long be_getrandom(void *buffer, size_t length) { return syscall(SYS_getrandom, buffer, length, 0); }

/* Names the calling thread (at most 15 bytes), so every SDK thread is recognisable in top, gdb and /proc. */
static inline int be_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

/* A counter descriptor that is readable while non-zero: one thread's wake-up call for another. */
static inline int be_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/* Change notification on a directory: another process touching the ownership lock file (after it queued an
 * item, or when it lets go of the lock), or closing its files (which the kernel does when that process exits).
 * Plain writes are not watched, so this process's own database writes wake no one. */
static inline int be_inotify_watch_directory(const char *path) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, path, IN_ATTRIB | IN_CLOSE_WRITE) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}
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
#endif
