/* Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE). static inline: no symbols. */
#ifndef BLINKENGAGE_SYSTEM_SHIMS_H
#define BLINKENGAGE_SYSTEM_SHIMS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <unistd.h>

/* Flushes the whole filesystem holding `fd` to stable storage: one call for a batch of written files. */
static inline int be_syncfs(int fd) { return syncfs(fd); }

/* Names the calling thread (at most 15 bytes), so every SDK thread is recognisable in top, gdb and /proc. */
static inline int be_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }
#endif
