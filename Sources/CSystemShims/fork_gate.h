/* The fork gate: what makes fork() safe for a process that runs SDKs (gRPC core's fork support, in small).
 *
 * Every thread that runs the library's code holds the gate, shared: an SDK thread from its start to its end except
 * while it blocks (poll, a condition wait, a join), a host thread for the length of a library call. Calls nest (a
 * callback that calls the library), so each thread counts its depth and only the outermost entry counts. The
 * pthread_atfork prepare handler closes the gate (new entries wait) and waits, at most `bound_ms`, until no thread
 * but the forking one holds it: then no thread of the parent holds a lock of the library or of the Swift runtime
 * inside it, and the child may run Swift code and start an SDK of its own. If the bound passes first, the child is
 * marked unsafe and its library calls refuse at once. The parent handler opens the gate again; the child handler
 * makes it anew (the threads it counted do not exist in the child) and clears the Swift runtime's cached thread id
 * (swift_tid.h).
 *
 * The state is C's own (be_fork_gate_get), not a Swift global: a child must not meet a lazy initialiser's lock. */
#ifndef BLINKENGAGE_FORK_GATE_H
#define BLINKENGAGE_FORK_GATE_H
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "swift_tid.h"

typedef struct be_fork_gate {
    int inside;        /* threads holding the gate (atomic) */
    int closing;       /* a fork is being prepared: entries wait (atomic) */
    int drained;       /* the prepare step's verdict: no thread but the forking one was inside */
    int child_unsafe;  /* in a child whose prepare step timed out: library calls refuse */
    int bound_ms;
    pthread_key_t depth; /* this thread's depth of entries, as an intptr_t */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    be_swift_tid swift_tid; /* the Swift runtime's thread-id cache (swift_tid.h), looked up at the first fork */
    int32_t *tid_slots[BE_SWIFT_TID_RUNTIMES]; /* the forking thread's caches, cleared in the child (NULL: none) */
} be_fork_gate;

static inline intptr_t be_fork_gate_depth(be_fork_gate *gate) { return (intptr_t)pthread_getspecific(gate->depth); }

/* Counts this thread in; waits while a fork is being prepared. */
static inline void be_fork_gate_take(be_fork_gate *gate) {
    for (;;) {
        __atomic_add_fetch(&gate->inside, 1, __ATOMIC_SEQ_CST);
        if (!__atomic_load_n(&gate->closing, __ATOMIC_SEQ_CST)) return;
        /* Closing: step back out (this thread ran nothing of the library), tell the preparing thread, wait until
         * the gate opens. */
        __atomic_sub_fetch(&gate->inside, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_lock(&gate->lock);
        pthread_cond_broadcast(&gate->changed);
        while (__atomic_load_n(&gate->closing, __ATOMIC_SEQ_CST)) pthread_cond_wait(&gate->changed, &gate->lock);
        pthread_mutex_unlock(&gate->lock);
    }
}

static inline void be_fork_gate_give(be_fork_gate *gate) {
    __atomic_sub_fetch(&gate->inside, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&gate->closing, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&gate->lock);
        pthread_cond_broadcast(&gate->changed);
        pthread_mutex_unlock(&gate->lock);
    }
}

/* Entering a library call or an SDK thread's work; returns 0 in a child that must not run the library. */
static inline int be_fork_gate_enter(be_fork_gate *gate) {
    intptr_t depth = be_fork_gate_depth(gate);
    if (gate->child_unsafe) return 0;
    if (depth == 0) be_fork_gate_take(gate);
    pthread_setspecific(gate->depth, (void *)(depth + 1));
    return 1;
}

static inline void be_fork_gate_leave(be_fork_gate *gate) {
    intptr_t depth = be_fork_gate_depth(gate);
    if (depth <= 0) return;
    pthread_setspecific(gate->depth, (void *)(depth - 1));
    if (depth == 1) be_fork_gate_give(gate);
}

/* Around a blocking wait or host code: lets go of the gate entirely; returns the depth to restore. */
static inline intptr_t be_fork_gate_suspend(be_fork_gate *gate) {
    intptr_t depth = be_fork_gate_depth(gate);
    if (depth > 0) {
        pthread_setspecific(gate->depth, (void *)0);
        be_fork_gate_give(gate);
    }
    return depth;
}

static inline void be_fork_gate_resume(be_fork_gate *gate, intptr_t depth) {
    if (depth <= 0) return;
    be_fork_gate_take(gate);
    pthread_setspecific(gate->depth, (void *)depth);
}

/* The one gate: static storage of this function. Only ForkGate.swift calls into this header, so the process has
 * one copy of it (a static of a static inline function is per object file). */
static inline be_fork_gate *be_fork_gate_storage(void) {
    static be_fork_gate gate;
    return &gate;
}

static inline void be_fork_gate_prepare(void) {
    be_fork_gate *gate = be_fork_gate_storage();
    int self = be_fork_gate_depth(gate) > 0; /* a fork from inside a library call (a callback) counts itself */
    int i;
    struct timespec deadline;
    /* The lock stays taken across fork(): no thread is inside it in the child, which makes it anew anyway. */
    pthread_mutex_lock(&gate->lock);
    be_swift_tid_look_up(&gate->swift_tid);
    for (i = 0; i < BE_SWIFT_TID_RUNTIMES; i++) gate->tid_slots[i] = be_swift_tid_slot(&gate->swift_tid, i);
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += gate->bound_ms / 1000;
    deadline.tv_nsec += (long)(gate->bound_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    __atomic_store_n(&gate->closing, 1, __ATOMIC_SEQ_CST);
    /* Drained the moment the count is seen at `self` with `closing` set: a thread that counts itself in after
     * that sees `closing` and steps back out before it runs anything of the library. So the verdict is that
     * reading, never a later one, which could catch such a thread in its moment in the count. */
    gate->drained = 0;
    for (;;) {
        if (__atomic_load_n(&gate->inside, __ATOMIC_SEQ_CST) <= self) {
            gate->drained = 1;
            break;
        }
        if (pthread_cond_timedwait(&gate->changed, &gate->lock, &deadline) == ETIMEDOUT) {
            gate->drained = __atomic_load_n(&gate->inside, __ATOMIC_SEQ_CST) <= self;
            break;
        }
    }
}

static inline void be_fork_gate_parent(void) {
    be_fork_gate *gate = be_fork_gate_storage();
    __atomic_store_n(&gate->closing, 0, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&gate->changed);
    pthread_mutex_unlock(&gate->lock);
}

static inline void be_fork_gate_child(void) {
    be_fork_gate *gate = be_fork_gate_storage();
    int self = be_fork_gate_depth(gate) > 0, i;
    for (i = 0; i < BE_SWIFT_TID_RUNTIMES; i++) /* before any Swift code runs here (swift_tid.h) */
        if (gate->tid_slots[i]) *gate->tid_slots[i] = 0;
    /* Threads still inside (beyond this one) when the bound passed were somewhere in the library: not safe. */
    if (!gate->drained) gate->child_unsafe = 1;
    gate->inside = self;
    gate->closing = 0;
    pthread_mutex_init(&gate->lock, NULL);
    pthread_cond_init(&gate->changed, NULL);
}

static inline void be_fork_gate_setup(void) {
    be_fork_gate *gate = be_fork_gate_storage();
    gate->inside = 0;
    gate->closing = 0;
    gate->drained = 0;
    gate->child_unsafe = 0;
    gate->bound_ms = 2000;
    pthread_key_create(&gate->depth, NULL);
    pthread_mutex_init(&gate->lock, NULL);
    pthread_cond_init(&gate->changed, NULL);
    pthread_atfork(be_fork_gate_prepare, be_fork_gate_parent, be_fork_gate_child);
}

/* The gate, set up (and its handlers registered) on first use: pthread_once, whose finished state a child
 * inherits as finished. */
static inline be_fork_gate *be_fork_gate_get(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, be_fork_gate_setup);
    return be_fork_gate_storage();
}

#endif
