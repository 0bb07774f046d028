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
    func unlock() { pthread_mutex_unlock(pointer) }
}
