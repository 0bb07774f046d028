#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A named pthread that runs one closure and is joined, never leaked (swift-nio's `ThreadPosix`). Long-running
/// loops (the transport, the outbox, the callback thread) get their own thread instead of occupying a Dispatch
/// worker for ever; the name shows in `top -H`, gdb and `/proc/<pid>/task/*/comm`.
final class NativeThread: Sendable {
    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private let thread: pthread_t
    private let joined = Locked(false)
    let name: String

    /// Starts the thread. Throws when the system refuses a new thread.
    /// - Parameter name: at most 15 bytes (the kernel's limit); longer names are cut.
    init(name: String, _ run: @escaping @Sendable () -> Void) throws(EngineFailure) {
        self.name = name
        let body = Unmanaged.passRetained(Body(name: name, run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            Platform.setThreadName(body.name)
            // The thread holds the fork gate while it runs, except where it blocks (ConditionLock, WakeSignal,
            // the transports' polls): a fork waits for it to get there.
            _ = ForkGate.enter()
            body.run()
            ForkGate.leave()
            return nil
        }, body)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            throw EngineFailure.invalidState("cannot start the \(name) thread (error \(result))")
        }
        self.thread = thread
    }

    /// Whether the calling thread is this one.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Waits for the closure to return. Idempotent, and safe from several threads (one of them joins).
    func join() {
        let first = joined.withLock { joined -> Bool in
            defer { joined = true }
            return !joined
        }
        guard first, !isCurrent else { return }
        ForkGate.outside { _ = pthread_join(thread, nil) }
    }

    deinit { precondition(joined.withLock { $0 }, "a NativeThread must be joined before it is released") }
}
