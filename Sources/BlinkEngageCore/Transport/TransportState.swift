/// What callers hand a libcurl transport, kept under its lock: requests not started yet, timers, and whether it
/// is stopping. The same for a transport with a thread of its own (`CurlTransport`) and a driven one
/// (`DrivenTransport`); only who takes the work differs.
struct TransportState {
    typealias Action = @Sendable () -> Void

    private var incoming: [(HTTPRequest, HTTPCompletion)] = []
    /// Timers run when due (monotonic instant, action), by whoever drives the transport.
    private var timers: [(at: UInt64, action: Action)] = []
    private var cancelRequested = false
    private(set) var stopping = false
    /// How many requests were handed to the transport so far.
    private(set) var requestsSent: UInt64 = 0

    /// Queues a request; false once the transport is stopping (the caller then completes it with `.cancelled`).
    mutating func accept(_ request: HTTPRequest, completion: @escaping HTTPCompletion) -> Bool {
        guard !stopping else { return false }
        incoming.append((request, completion))
        requestsSent += 1
        return true
    }

    /// Queues `action` for about `nanoseconds` from now; false once stopping (it is then dropped).
    mutating func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping Action) -> Bool {
        guard !stopping else { return false }
        let (at, overflow) = MonotonicClock.now().addingReportingOverflow(nanoseconds)
        timers.append((overflow ? UInt64.max : at, action))
        return true
    }

    /// Shutdown: nothing more is accepted, timers are dropped, and the next `takeWork` cancels what is in flight.
    mutating func stop() {
        stopping = true
        cancelRequested = true
        timers = []
    }

    /// The requests to start, and whether to cancel everything in flight first (then they are cancelled too).
    mutating func takeWork() -> (incoming: [(HTTPRequest, HTTPCompletion)], cancel: Bool) {
        defer { incoming = []; cancelRequested = false }
        return (incoming, cancelRequested)
    }

    /// When the next timer is due, if one is set.
    var nextTimer: UInt64? { timers.map(\.at).min() }

    /// Takes the timers due at `now`, to run outside the lock.
    mutating func takeDueTimers(now: UInt64) -> [Action] {
        let due = timers.filter { $0.at <= now }.map(\.action)
        timers.removeAll { $0.at <= now }
        return due
    }
}
