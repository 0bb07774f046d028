#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many times this process's ancestry forked since the library was loaded, as this process sees it: a
/// `pthread_atfork` child handler counts up. An SDK remembers the value at start; a different one means "we
/// are a forked child". Reading it is a plain load, where `getpid()` is a system call on every host call.
enum ForkGeneration {
    // Safe: written only by the child handler, which runs in a freshly forked child before fork() returns,
    // when that process has a single thread; every other access is a read.
    nonisolated(unsafe) private static var generation = 0

    private static let registered: Bool = pthread_atfork(nil, nil, { ForkGeneration.generation &+= 1 }) == 0

    /// The current generation; the first call registers the handler (an SDK's start does it).
    static func current() -> Int {
        guard registered else { return -Int(getpid()) }  // no handler: fall back to the process id
        return generation
    }
}
