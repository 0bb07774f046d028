#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread that runs one closure and is joined, never leaked. Long-running loops (the transport, the
/// callback thread) get their own thread instead of occupying a Dispatch worker for ever.
final class NativeThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private var thread: pthread_t
    private var joined = false

    /// Starts the thread. Throws when the system refuses a new thread.
    init(name: String, _ run: @escaping () -> Void) throws(EngineFailure) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            throw EngineFailure.invalidState("cannot start the \(name) thread (error \(result))")
        }
        self.thread = thread
    }

    /// Waits for the closure to return. Idempotent.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    deinit { precondition(joined, "a NativeThread must be joined before it is released") }
}
