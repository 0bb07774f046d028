internal import CCurl

/// HTTP over libcurl: one dedicated thread drives one `curl_multi` handle, so every request sent through one
/// transport shares its connections (keep-alive, a total-connection cap) and none blocks a caller.
///
/// An SDK has two: first-party requests (Moments, Engage, zone ads) and third-party beacons each have their own
/// connections and caps, so hanging pixel hosts can never take the connections a fetch needs.
///
/// Completions run on the transport thread, exactly once per `send`: with the answer, a transport error, or
/// `.cancelled` when `shutdown` comes first. They must be quick and must not block on the transport.
public final class CurlTransport: Transport {

    private struct State {
        var incoming: [(HTTPRequest, HTTPCompletion)] = []
        /// Timers the transport thread runs when due (monotonic instant, action), so no other thread waits.
        var timers: [(at: UInt64, action: @Sendable () -> Void)] = []
        var cancelRequested = false
        var stopping = false
        var requestsSent: UInt64 = 0
    }

    /// libcurl's multi handle: used on the transport thread, cleaned up after the join.
    // Safe: only the transport thread calls into it, but for deinit's cleanup after the thread is joined.
    private struct MultiHandle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    private let multi: MultiHandle
    /// Wakes the transport thread out of `curl_multi_poll` (polled there beside the sockets): an eventfd costs
    /// one write and one read per wake, where `curl_multi_wakeup`'s socket pair costs a send and two reads.
    private let waker: WakeSignal
    /// How many finished easy handles the transport thread keeps for reuse.
    private static let idleHandles = 4
    private let state = Locked(State())
    private let thread = Locked<NativeThread?>(nil)
    public let options: TransportOptions

    public init(options: TransportOptions = TransportOptions()) throws(EngineFailure) {
        guard CurlGlobal.isReady else { throw .invalidState("libcurl could not be initialised") }
        guard let raw = curl_multi_init() else { throw .noMemory("libcurl could not create a multi handle") }
        do {
            waker = try WakeSignal(watching: nil)
        } catch {
            curl_multi_cleanup(raw)
            throw error
        }
        multi = MultiHandle(raw: raw)
        self.options = options
        _ = be_curl_multi_setopt_long(raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, options.maximumTotalConnections)
        _ = be_curl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, options.maximumConnectionsPerHost)
        do {
            let started = try NativeThread(name: options.threadName) { [unowned self] in self.run() }
            thread.withLock { $0 = started }
        } catch {
            curl_multi_cleanup(raw)
            throw error
        }
    }

    deinit {
        shutdown()
        curl_multi_cleanup(multi.raw)
    }

    /// Queues a request. `completion` runs exactly once on the transport thread; after `shutdown` it runs
    /// with `.cancelled` on the calling thread.
    public func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.incoming.append((request, completion))
            state.requestsSent += 1
            return true
        }
        guard accepted else { return completion(.failure(.cancelled)) }
        waker.signal()
    }

    /// Runs `action` on the transport thread about `nanoseconds` from now (it must be quick, like a completion).
    /// Dropped, never run, when the transport shuts down first.
    public func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        let (at, overflow) = MonotonicClock.now().addingReportingOverflow(nanoseconds)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.timers.append((overflow ? UInt64.max : at, action))
            return true
        }
        if accepted { waker.signal() }
    }

    /// How many requests were handed to the transport so far.
    public var requestsSent: UInt64 { state.withLock { $0.requestsSent } }

    /// Cancels everything in flight, stops the thread and waits for it. Every completion has run on return.
    public func shutdown() {
        state.withLock { $0.stopping = true; $0.cancelRequested = true; $0.timers = [] }
        waker.signal()
        thread.withLock { $0 }?.join()
    }

    /// In a forked child: forgets the thread (it does not exist there) without joining it.
    public func abandonAfterFork() {
        state.withLock { $0.stopping = true }
        thread.withLock { $0 }?.abandon()
    }

    // MARK: - The transport thread

    /// Milliseconds until the next of our timers (rounded up), or "for ever" without one.
    private func pollTimeout() -> Int32 {
        guard let next = state.withLock({ $0.timers.map(\.at).min() }) else { return Int32.max }
        return MonotonicClock.pollMilliseconds(until: next)
    }

    private func runDueTimers() {
        let now = MonotonicClock.now()
        let due = state.withLock { state -> [@Sendable () -> Void] in
            let due = state.timers.filter { $0.at <= now }.map(\.action)
            state.timers.removeAll { $0.at <= now }
            return due
        }
        for action in due { action() }
    }

    private func run() {
        var active: [UnsafeMutableRawPointer: EasyHandle] = [:]
        // Easy handles of finished requests, reset, for the next ones: a new handle costs an allocation of
        // libcurl's whole per-transfer state and its zeroing, every request.
        var idle: [UnsafeMutableRawPointer] = []
        defer { for raw in idle { curl_easy_cleanup(raw) } }
        let rawMulti = multi.raw
        while true {
            let (incoming, cancel, stopping) = state.withLock { state in
                defer { state.incoming = []; state.cancelRequested = false }
                return (state.incoming, state.cancelRequested, state.stopping)
            }
            if cancel {
                for (raw, easy) in active {
                    curl_multi_remove_handle(rawMulti, raw)
                    easy.completion(.failure(.cancelled))
                }
                active = [:]
                for (_, completion) in incoming { completion(.failure(.cancelled)) }
            } else {
                for (request, completion) in incoming {
                    do {
                        let easy = try EasyHandle(reusing: idle.popLast(), request: request, network: options.network,
                                                  completion: completion)
                        let added = curl_multi_add_handle(rawMulti, easy.rawHandle)
                        guard added == CURLM_OK else {
                            completion(.failure(.network(String(cString: curl_multi_strerror(added)))))
                            continue
                        }
                        active[easy.rawHandle] = easy
                    } catch {
                        completion(.failure(error))
                    }
                }
            }
            if stopping { break }

            var running: Int32 = 0
            curl_multi_perform(rawMulti, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(rawMulti, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                      let easy = active.removeValue(forKey: raw) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(rawMulti, raw)
                easy.completion(easy.outcome(code))
                if idle.count < Self.idleHandles { idle.append(easy.takeHandleForReuse()) }
            }
            // Sleeps until a socket is ready, one of libcurl's own timers is due (it shortens the wait to its
            // next timeout), one of ours is, or the waker is signalled. Idle, with nothing in flight and
            // no timer set, it never wakes.
            var wake = curl_waitfd(fd: waker.descriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            curl_multi_poll(rawMulti, &wake, 1, pollTimeout(), nil)
            // Taken before the state is read again at the top of the loop, so no request queued after it is missed.
            if wake.revents != 0 { waker.consume() }
            runDueTimers()
        }
    }
}
