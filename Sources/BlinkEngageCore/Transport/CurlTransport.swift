internal import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// HTTP over libcurl: one dedicated thread drives one `curl_multi` handle, so every request sent through one
/// transport shares its connections (keep-alive, a total-connection cap) and none blocks a caller.
///
/// An SDK has two: first-party requests (Moments, Engage, zone ads) and third-party beacons each have their own
/// connections and caps, so hanging pixel hosts can never take the connections a fetch needs.
///
/// Completions run on the transport thread, exactly once per `send`: with the answer, a transport error, or
/// `.cancelled` when `shutdown` comes first. They must be quick and must not block on the transport.
public final class CurlTransport: Transport {

    /// Wakes the transport thread out of `curl_multi_poll` (polled there beside the sockets): an eventfd (on
    /// Linux) costs one write and one read per wake, where `curl_multi_wakeup`'s socket pair costs a send and two reads.
    private let waker: WakeSignal
    private let state = Locked(TransportState())
    private let thread = Locked<NativeThread?>(nil)
    /// Another transport whose I/O this thread does too, when its descriptor is readable: the offer fetches with
    /// dispatched callbacks, sent by the fetch call itself so that this thread wakes only for their answers.
    private let fetches: DrivenTransport?
    public let options: TransportOptions

    public init(options: TransportOptions = TransportOptions(), driving fetches: DrivenTransport? = nil) throws(EngineFailure) {
        CurlGlobal.prepareUnlessThreadSafe()
        waker = try WakeSignal()
        self.options = options
        self.fetches = fetches
        let started = try NativeThread(name: options.threadName) { [unowned self] in self.run() }
        thread.withLock { $0 = started }
    }

    deinit { shutdown() }

    /// Queues a request. `completion` runs exactly once on the transport thread; after `shutdown` it runs
    /// with `.cancelled` on the calling thread.
    public func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
        guard state.withLock({ $0.accept(request, completion: completion) }) else { return completion(.failure(.cancelled)) }
        waker.signal()
    }

    /// Runs `action` on the transport thread about `nanoseconds` from now (it must be quick, like a completion).
    /// Dropped, never run, when the transport shuts down first.
    public func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        if state.withLock({ $0.schedule(afterNanoseconds: nanoseconds, action) }) { waker.signal() }
    }

    /// How many requests were handed to the transport so far.
    public var requestsSent: UInt64 { state.withLock { $0.requestsSent } }

    /// Cancels everything in flight, stops the thread and waits for it. Every completion has run on return.
    public func shutdown() {
        state.withLock { $0.stop() }
        waker.signal()
        thread.withLock { $0 }?.join()
    }

    // MARK: - The transport thread

    /// Milliseconds until the next of our timers (rounded up), or "for ever" without one.
    private func pollTimeout() -> Int32 {
        guard let next = state.withLock({ $0.nextTimer }) else { return Int32.max }
        return MonotonicClock.pollMilliseconds(until: next)
    }

    private func runDueTimers() {
        let now = MonotonicClock.now()
        for action in state.withLock({ $0.takeDueTimers(now: now) }) { action() }
    }

    private func run() {
        // The transfers, made here and touched only here: so libcurl's global initialisation (OpenSSL's, about 2.3M
        // instructions and a read of its configuration) runs on this thread, not in be_sdk_start.
        let multi: CurlMulti
        do { multi = try CurlMulti(options: options) } catch { return runWithoutLibcurl(error) }
        while true {
            let (work, stopping) = state.withLock { ($0.takeWork(), $0.stopping) }
            multi.take(work)
            if stopping { break }

            var running: Int32 = 0
            curl_multi_perform(multi.raw, &running)
            multi.completeFinished()
            // Sleeps until a socket is ready, one of libcurl's own timers is due (it shortens the wait to its
            // next timeout), one of ours is, or the waker is signalled. Idle, with nothing in flight and
            // no timer set, it never wakes. The driven fetches' descriptor counts their timers and sockets.
            var waits = InlineArray<2, curl_waitfd>(repeating: curl_waitfd(fd: -1, events: Int16(CURL_WAIT_POLLIN), revents: 0))
            waits[0].fd = waker.descriptor
            waits[1].fd = fetches?.descriptor ?? -1
            let timeout = pollTimeout()
            ForkGate.outside {
                var fds = waits.mutableSpan
                fds.withUnsafeMutableBufferPointer { _ = curl_multi_poll(multi.raw, $0.baseAddress, fetches == nil ? 1 : 2, timeout, nil) }
            }
            woke(waker: waits[0].revents != 0, fetches: waits[1].revents != 0)
        }
    }

    /// After a wait, what woke it: the waker is taken before the state is read again at the top of the loop, so
    /// no request queued after it is missed; then the driven fetches' I/O, and our due timers.
    private func woke(waker wakerReady: Bool, fetches fetchesReady: Bool) {
        if wakerReady { waker.consume() }
        if let fetches, fetchesReady {
            fetches.drive()
            fetches.settle()
        }
        runDueTimers()
    }

    /// The loop of a transport whose libcurl could not start: every request fails with `failure` (the driven
    /// fetches' too, in their drive) until the transport stops; timers still run.
    private func runWithoutLibcurl(_ failure: EngineFailure) {
        var waits = [pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: fetches?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
        while true {
            let (work, stopping) = state.withLock { ($0.takeWork(), $0.stopping) }
            for (_, completion) in work.incoming { completion(.failure(work.cancel ? .cancelled : CurlGlobal.unavailable(failure))) }
            if stopping { break }
            let timeout = pollTimeout()
            ForkGate.outside { _ = poll(&waits, nfds_t(waits.count), timeout == Int32.max ? -1 : timeout) }
            woke(waker: waits[0].revents != 0, fetches: waits[1].revents != 0)
        }
    }
}
