/* C that Swift cannot say itself: atomics with acquire and release order (the fork gate is in fork_gate.h).
 * Operating-system calls are not here: they live in CPlatform, for Platform/ alone. static inline: no symbols. */
#ifndef BLINKENGAGE_SYSTEM_SHIMS_H
#define BLINKENGAGE_SYSTEM_SHIMS_H

/* A pointer published once, read without a lock: the store releases what was written before it, and a load
 * that sees it acquires that (C11 atomics, which Swift reaches only through the Synchronization module). */
static inline void *be_load_acquire(void *const *cell) { return __atomic_load_n(cell, __ATOMIC_ACQUIRE); }
static inline void be_store_release(void **cell, void *value) { __atomic_store_n(cell, value, __ATOMIC_RELEASE); }

#endif
