#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether the calling thread is inside a stretch of code marked with `run` (a host function the SDK called):
/// one thread-specific key per context, so nested and concurrent runs on other threads do not mix.
final class ThreadContext: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    /// Runs `body` with the calling thread marked (a run inside a run keeps the mark until the outer one ends).
    func run(_ body: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        body()
        pthread_setspecific(key, previous)
    }

    var isCurrentThreadInside: Bool { pthread_getspecific(key) != nil }
}
