/// The host's send function, as the engine calls it: once per request, on whichever thread sends.
public typealias HostHTTPSend = @Sendable (HostHTTPExchange) -> Void

/// HTTP through the host's own stack (`be_config_set_http_transport`): each request goes to the host's send
/// function as a `HostHTTPExchange`, and the host completes it from any thread, at any later time. Nothing here
/// opens a socket.
///
/// One thread of its own (named like the libcurl transport it stands in for) runs the completions, the timers
/// and the timeouts, so the engine above sees the same contract as with libcurl: completions on the transport
/// thread, exactly once, `.cancelled` at shutdown. A request the host never completes fails with `.timeout` at
/// its timeout; a completion after that, or after shutdown, is accepted and ignored.
final class HostTransport: Transport {
    typealias Send = HostHTTPSend

    private struct State {
        var pending: [UInt64: (completion: HTTPCompletion, deadline: UInt64)] = [:]
        /// Completions ready to run on the thread, in order.
        var ready: [@Sendable () -> Void] = []
        var timers: [(at: UInt64, action: @Sendable () -> Void)] = []
        var stopping = false
        var requestsSent: UInt64 = 0

        var nextDeadline: UInt64? { (pending.values.map(\.deadline) + timers.map(\.at)).min() }
    }

    private let hostSend: Send
    private let state = ConditionLock(State())
    private let thread = Locked<NativeThread?>(nil)

    init(options: TransportOptions, send: @escaping Send) throws(EngineFailure) {
        hostSend = send
        let started = try NativeThread(name: options.threadName) { [unowned self] in self.run() }
        thread.withLock { $0 = started }
    }

    deinit { shutdown() }

    func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
        let deadline = MonotonicClock.deadline(afterMilliseconds: request.timeoutMilliseconds)
        do {
            try HTTPRequestRules.check(request)
        } catch {
            let accepted = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.ready.append { completion(.failure(error)) }
                return true
            }
            if !accepted { completion(.failure(.cancelled)) }
            return
        }
        let exchange = HostHTTPExchange.register(request) { [weak self] id, outcome in self?.deliver(outcome, for: id) }
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.pending[exchange.id] = (completion, deadline)
            state.requestsSent += 1
            return true
        }
        guard accepted else {
            try? HostHTTPExchange.fail(exchange.id, message: nil)  // never shown to the host: nothing to answer
            return completion(.failure(.cancelled))
        }
        hostSend(exchange)  // outside every lock: the host may complete inside its send function
    }

    func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        let (at, overflow) = MonotonicClock.now().addingReportingOverflow(nanoseconds)
        state.withLock { state in
            if !state.stopping { state.timers.append((overflow ? UInt64.max : at, action)) }
        }
    }

    var requestsSent: UInt64 { state.withLock { $0.requestsSent } }

    func shutdown() {
        state.withLock { $0.stopping = true; $0.timers = [] }
        thread.withLock { $0 }?.join()
    }

    /// The host's outcome for one exchange: runs its completion on the thread, unless it timed out or the
    /// transport stopped (then the request is no longer waited for and the outcome is dropped).
    private func deliver(_ outcome: Result<HTTPResponse, TransportError>, for id: UInt64) {
        state.withLock { state in
            guard let waiting = state.pending.removeValue(forKey: id) else { return }
            state.ready.append { waiting.completion(outcome) }
        }
    }

    private func run() {
        while true {
            // Sleeps until there is work, the earliest deadline passes, or a new earlier one appears (every
            // change of the state wakes the wait). Idle, with nothing pending, it never wakes.
            let expected = state.withLock { $0.nextDeadline }
            let taken = state.wait(until: { state in
                !state.ready.isEmpty || state.stopping || state.nextDeadline != expected
            }, deadline: expected) { state in Self.takeJobs(&state) }
            let (jobs, finished) = taken ?? state.withLock { Self.takeJobs(&$0) }
            for job in jobs { job() }
            if finished { return }
        }
    }

    /// What is due now: answered completions, timed-out requests, due timers; when stopping, also the
    /// cancellation of everything still waited for, and true (the thread ends).
    private static func takeJobs(_ state: inout State) -> ([@Sendable () -> Void], Bool) {
        var jobs = state.ready
        state.ready = []
        let now = MonotonicClock.now()
        for (id, waiting) in state.pending where waiting.deadline <= now {
            state.pending[id] = nil
            jobs.append { waiting.completion(.failure(.timeout("the host's transport did not complete the request in time"))) }
        }
        jobs += state.timers.filter { $0.at <= now }.map(\.action)
        state.timers.removeAll { $0.at <= now }
        guard state.stopping else { return (jobs, false) }
        jobs += state.pending.values.map { waiting in { waiting.completion(.failure(.cancelled)) } }
        state.pending = [:]
        return (jobs, true)
    }
}
