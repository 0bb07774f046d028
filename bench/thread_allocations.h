/* Counts the calling thread's heap allocations: the program's own malloc family, which every library of the
 * process (the Swift runtime's included) calls instead of the C library's, forwards to glibc and counts per
 * thread, so other threads' work cannot blur the count. glibc only (__libc_malloc and friends). */
#ifndef BE_THREAD_ALLOCATIONS_H
#define BE_THREAD_ALLOCATIONS_H
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static __thread unsigned long thread_allocations;

void *malloc(size_t size) { thread_allocations++; return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { thread_allocations++; return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { thread_allocations++; return __libc_realloc(pointer, size); }
void *aligned_alloc(size_t alignment, size_t size) { thread_allocations++; return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    thread_allocations++;
    *out = __libc_memalign(alignment, size);
    return *out ? 0 : 12; /* ENOMEM */
}
#endif
