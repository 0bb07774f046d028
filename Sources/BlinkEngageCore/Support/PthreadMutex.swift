#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `pthread_mutex_t` at a stable heap address, the one lock under `Locked` and `ConditionLock`.
///
/// pthread rather than Synchronization's `Mutex`: ThreadSanitizer does not see `Mutex` on Linux (it parks on
/// futexes TSan does not intercept) and would report every guarded access as a race, so `make check-tsan`
/// could prove nothing.
final class PthreadMutex {
    let pointer = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(pointer, nil) }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deallocate()
    }

    func lock() { pthread_mutex_lock(pointer) }
    /// Takes the lock when it is free now; false, without waiting, when any thread holds it (this one included:
    /// the mutex is a default one, so a second lock by its holder is EBUSY here, never a deadlock).
    func tryLock() -> Bool { pthread_mutex_trylock(pointer) == 0 }
    func unlock() { pthread_mutex_unlock(pointer) }
}
