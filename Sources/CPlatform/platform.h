/* The operating-system calls the engine makes beyond plain POSIX, each behind a name for what the engine needs
 * (Sources/BlinkEngageCore/Platform/ is their only user). Two implementations, chosen at compile time:
 *   - Linux: eventfd, getrandom, inotify, renameat2 (and epoll and timerfd in events.h);
 *   - portable POSIX (BLINKENGAGE_PLATFORM_POSIX defined, or any system that is not Linux): a self-pipe,
 *     getentropy or /dev/urandom, Unix-domain sockets for the storage directory's change notice, and poll.
 * static inline: no symbols. */
#ifndef BLINKENGAGE_PLATFORM_H
#define BLINKENGAGE_PLATFORM_H
#if defined(__linux__) && !defined(BLINKENGAGE_PLATFORM_POSIX)
#define BE_PLATFORM_LINUX 1
#endif
/* No _GNU_SOURCE: under it glibc's fd_set disagrees with Swift's Glibc module. What it would declare is
 * declared here instead (pthread_setname_np, as glibc does). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#ifdef BE_PLATFORM_LINUX
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#endif

/* Which implementation this build uses: 1 Linux, 0 portable POSIX. */
static inline int be_platform_is_linux(void) {
#ifdef BE_PLATFORM_LINUX
    return 1;
#else
    return 0;
#endif
}

/* --- The wake signal: one thread's wake-up call for another, a descriptor readable while a signal is pending.
 * Linux: an eventfd (both ends are the same descriptor). Portable: a non-blocking self-pipe. Elsewhere: kqueue's
 * EVFILT_USER on Apple and the BSDs, an event object on Windows. Returns 0 with `ends` set, or -1 with errno. */
static inline int be_wake_create(int ends[2]) {
#ifdef BE_PLATFORM_LINUX
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) return -1;
    ends[0] = ends[1] = fd;
    return 0;
#else
    if (pipe(ends) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        if (fcntl(ends[i], F_SETFL, O_NONBLOCK) != 0 || fcntl(ends[i], F_SETFD, FD_CLOEXEC) != 0) {
            int saved = errno;
            close(ends[0]);
            close(ends[1]);
            errno = saved;
            return -1;
        }
    }
    return 0;
#endif
}

/* Makes the read end readable. A full pipe means a signal is pending already: nothing is lost. */
static inline void be_wake_signal(int write_end) {
#ifdef BE_PLATFORM_LINUX
    uint64_t one = 1;
    (void)!write(write_end, &one, sizeof one);
#else
    char one = 1;
    while (write(write_end, &one, 1) < 0 && errno == EINTR) {}
#endif
}

/* Takes every pending signal: the read end stops being readable. Non-blocking: nothing pending is fine. */
static inline void be_wake_drain(int read_end) {
#ifdef BE_PLATFORM_LINUX
    uint64_t count;
    while (read(read_end, &count, sizeof count) < 0 && errno == EINTR) {}
#else
    char buffer[64];
    for (;;) {
        ssize_t got = read(read_end, buffer, sizeof buffer);
        if (got > 0) continue;
        if (got < 0 && errno == EINTR) continue;
        break;
    }
#endif
}

static inline void be_wake_close(int ends[2]) {
    close(ends[0]);
    if (ends[1] != ends[0]) close(ends[1]);
}

/* --- Random bytes: fills `buffer` (at most 256 bytes) from the system's generator; 0, or -1 with errno.
 * Linux: getrandom, the raw system call (<sys/random.h> clashes with Swift's Glibc module over fd_set).
 * Portable: getentropy where the C library has it (glibc 2.25+, Bionic 28+, Apple, the BSDs), else /dev/urandom.
 * Windows: BCryptGenRandom. */
static inline int be_random_bytes(void *buffer, size_t length) {
#ifdef BE_PLATFORM_LINUX
    long filled = syscall(SYS_getrandom, buffer, length, 0);
    if (filled == (long)length) return 0;
    if (filled >= 0) errno = EIO;
    return -1;
#else
#if (defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 25)) || defined(__APPLE__) || defined(__OpenBSD__) || defined(__FreeBSD__)
    if (getentropy(buffer, length) == 0) return 0;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < length) {
        ssize_t got = read(fd, (char *)buffer + done, length - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    close(fd);
    if (done == length) return 0;
    errno = EIO;
    return -1;
#endif
}

/* --- Thread names (at most 15 bytes), so every SDK thread is recognisable in top, gdb and /proc. There is no
 * POSIX call: glibc, Bionic and the BSDs take (thread, name); Apple names only the calling thread; Windows has
 * SetThreadDescription. Returns 0, or an error number (ENOSYS where no form is known). */
static inline int be_set_thread_name(const char *name) {
#if defined(__APPLE__)
    return pthread_setname_np(name);
#elif defined(__GLIBC__) || defined(__BIONIC__) || defined(__FreeBSD__) || defined(__NetBSD__)
    extern int pthread_setname_np(pthread_t, const char *);
    return pthread_setname_np(pthread_self(), name);
#else
    (void)name;
    return ENOSYS;
#endif
}

/* --- A finished file put in place only where nothing has its name yet: a rename that never replaces, so two
 * processes making the same file cannot take turns overwriting it. Linux: renameat2 with RENAME_NOREPLACE, the raw
 * system call (glibc declares it only under _GNU_SOURCE). Elsewhere: -1 with ENOSYS. Returns 0 when `from` in
 * `directory` now has the name `to`; -1 with errno otherwise (EEXIST: the name was taken; EINVAL: this file
 * system has no such rename), and the caller makes the file another way. */
static inline int be_rename_exclusive(int directory, const char *from, const char *to) {
#ifdef BE_PLATFORM_LINUX
    return (int)syscall(SYS_renameat2, directory, from, directory, to, 1u /* RENAME_NOREPLACE */);
#else
    (void)directory;
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}

/* --- The storage directory's change notice between processes.
 * Linux: inotify on the directory, for another process touching the ownership lock file (after it queued an
 * item, or when it lets go of the lock) or closing its files (which the kernel does when that process exits).
 * Plain writes are not watched, so this process's own database writes wake no one.
 * be_directory_watch_open makes the descriptor (readable on a change; -1 on failure), be_directory_watch_add
 * watches `path` on it (the watch's number, or -1), be_directory_watch_remove ends that watch and drains what the
 * descriptor still holds, leaving it empty and quiet for another watch. */
static inline int be_directory_watch_open(void) {
#ifdef BE_PLATFORM_LINUX
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    errno = ENOSYS;
    return -1;
#endif
}

static inline int be_directory_watch_add(int fd, const char *path) {
#ifdef BE_PLATFORM_LINUX
    return inotify_add_watch(fd, path, IN_ATTRIB | IN_CLOSE_WRITE);
#else
    (void)fd;
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

static inline void be_directory_watch_remove(int fd, int watch) {
#ifdef BE_PLATFORM_LINUX
    char events[4096];
    (void)inotify_rm_watch(fd, watch);
    while (read(fd, events, sizeof events) > 0) {}
#else
    (void)fd;
    (void)watch;
#endif
}

/* Portable: a Unix-domain stream socket at `path`. The owner of the directory listens there; every other
 * instance keeps a connection to it, writes a byte after it queued items, and sees end of file when the owner
 * lets go or dies (the kernel closes its descriptors); the owner sees the same of theirs. Listening replaces a
 * stale socket file. Both return a non-blocking, close-on-exec descriptor, or -1 with errno (ENAMETOOLONG when
 * the path does not fit a socket address). */
static inline int be_unix_socket_at(const char *path, struct sockaddr_un *address) {
    size_t length = strlen(path);
    memset(address, 0, sizeof *address);
    if (length >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, length + 1);
    address->sun_family = AF_UNIX;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        close(fd);
        return -1;
    }
#ifdef SO_NOSIGPIPE
    int on = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
    return fd;
}

static inline int be_unix_listen(const char *path) {
    struct sockaddr_un address;
    int fd = be_unix_socket_at(path, &address);
    if (fd < 0) return -1;
    /* The caller removes what was at `path` (StorageDirectory.remove): bind refuses an existing name. */
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 16) != 0
        || fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Connects (blocking, to a listener on this machine: it either accepts into its backlog or refuses at once). */
static inline int be_unix_connect(const char *path) {
    struct sockaddr_un address;
    int fd = be_unix_socket_at(path, &address);
    if (fd < 0) return -1;
    int result;
    do { result = connect(fd, (struct sockaddr *)&address, sizeof address); } while (result != 0 && errno == EINTR);
    if (result != 0 || fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Accepts one pending connection of a listener: non-blocking, close-on-exec; -1 with errno (EAGAIN: none). */
static inline int be_unix_accept(int listener) {
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) return -1;
    if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Writes one byte without blocking and without SIGPIPE (a peer that died is not this process's death). */
static inline int be_unix_poke(int fd) {
    char one = 1;
#ifdef MSG_NOSIGNAL
    return (int)send(fd, &one, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
#else
    return (int)send(fd, &one, 1, MSG_DONTWAIT); /* Apple: SO_NOSIGPIPE is set on the socket instead */
#endif
}
#endif
