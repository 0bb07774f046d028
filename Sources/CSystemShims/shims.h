/* Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE, or live in headers it leaves
 * out). static inline: no symbols. */
#ifndef BLINKENGAGE_SYSTEM_SHIMS_H
#define BLINKENGAGE_SYSTEM_SHIMS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Fills `buffer` from the kernel's random generator in one call (ids: 16 bytes each); returns the bytes filled,
 * or -1 with errno. The raw system call: <sys/random.h> clashes with Swift's Glibc module over fd_set. */
static inline long be_getrandom(void *buffer, size_t length) { return syscall(SYS_getrandom, buffer, length, 0); }

/* Names the calling thread (at most 15 bytes), so every SDK thread is recognisable in top, gdb and /proc. */
static inline int be_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

/* A pointer published once, read without a lock: the store releases what was written before it, and a load
 * that sees it acquires that (C11 atomics, which Swift reaches only through the Synchronization module). */
static inline void *be_load_acquire(void *const *cell) { return __atomic_load_n(cell, __ATOMIC_ACQUIRE); }
static inline void be_store_release(void **cell, void *value) { __atomic_store_n(cell, value, __ATOMIC_RELEASE); }

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
#endif
