internal import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// HTTP over libcurl with no thread of its own: `send` sends when it can, whoever calls `drive` does the rest of
/// the I/O that is ready, and the completions run there. With BE_FETCH_IO_ON_DISPATCH, offer fetches go through
/// one that `be_sdk_dispatch` drives, so the host's threads send the request, read the answer, decode it and run
/// the callback: no thread is woken between the socket and the callback, where the threaded path wakes two.
///
/// `descriptor` is readable whenever `drive` has something to do. It is a readiness poller (Platform/) over
/// libcurl's sockets (kept by libcurl's socket callback, idle connections' sockets parked in it: SocketWatch), a
/// timer for libcurl's timeouts (TimeoutTimer), a timer for `schedule`, the wake-up signal `send` writes, and the
/// one descriptor the owner adds (the callback queue's pipe), which `drive` leaves alone.
public final class DrivenTransport: Transport {
    /// The transfers, under the driver lock: one thread drives at a time. Made by the first drive (`made(in:)`),
    /// never by `init` or `send`: so libcurl's global initialisation (OpenSSL's, about 2.3M instructions and a read
    /// of its configuration) runs on a thread of the SDK's, or in `be_sdk_dispatch`, not in `be_sdk_start`.
    private let driver = Locked<CurlMulti?>(nil)
    private let watch: Watch
    private let waker: WakeSignal
    private let ownersDescriptor: Int32
    private let state = Locked(TransportState())
    public let options: TransportOptions
    /// Rounds of "act on what is ready" one `drive` makes at most, so a socket that stays ready cannot hold the
    /// host's thread: what is left makes `descriptor` readable again.
    private static let maximumRounds = 8

    /// - Parameter ownersDescriptor: a descriptor `descriptor` is also readable with (-1 for none).
    public init(options: TransportOptions, alsoReadableWith ownersDescriptor: Int32) throws(EngineFailure) {
        CurlGlobal.prepareUnlessThreadSafe()
        watch = try Watch()
        waker = try WakeSignal()
        self.ownersDescriptor = ownersDescriptor
        self.options = options
        for descriptor in [waker.descriptor, ownersDescriptor] where descriptor >= 0 {
            guard watch.poller.watch(descriptor, interest: ReadinessPoller.readable) else {
                throw .invalidState("cannot watch a descriptor in the dispatch descriptor (errno \(errno))")
            }
        }
    }

    /// The multi handle in `slot`, made now if this is the first drive, with libcurl's callbacks on `watch`. Throws
    /// when libcurl cannot start (the drive then fails what is queued), and once the transport is stopping (there is
    /// nothing left to start).
    private func made(in slot: inout CurlMulti?) throws(EngineFailure) -> CurlMulti {
        if let multi = slot { return multi }
        guard !state.withLock({ $0.stopping }) else { throw .invalidState("the transport is shut down") }
        let multi = try CurlMulti(options: options)
        let context = Unmanaged.passUnretained(watch).toOpaque()
        _ = be_curl_multi_setopt_socket_fn(multi.raw) { _, socket, what, context, _ in
            let watch = Unmanaged<Watch>.fromOpaque(context!).takeUnretainedValue()
            // CURL_POLL_IN 1, OUT 2, INOUT 3 are the shim's interest bits; a socket libcurl forgets stays parked.
            if case .watch(let interest) = watch.sockets.withLock({ $0.libcurlAsks(socket, what) }) {
                _ = watch.poller.watch(socket, interest: interest)
            }
            return 0
        }
        _ = be_curl_multi_setopt_pointer(multi.raw, CURLMOPT_SOCKETDATA, context)
        _ = be_curl_multi_setopt_timer_fn(multi.raw) { _, milliseconds, context in
            let watch = Unmanaged<Watch>.fromOpaque(context!).takeUnretainedValue()
            // "Now" is taken by the drive in progress (every libcurl call is made inside one), without a
            // round trip through the timer; the timer is set only when the deadline comes earlier (TimeoutTimer).
            let now = milliseconds > 0 ? MonotonicClock.now() : 0
            watch.timeout.withLock { timeout in
                if let expiry = timeout.libcurlAsks(milliseconds, now: now) { watch.poller.arm(timer: Watch.timeouts, at: expiry) }
            }
            return 0
        }
        _ = be_curl_multi_setopt_pointer(multi.raw, CURLMOPT_TIMERDATA, context)
        slot = multi
        return multi
    }

    deinit {
        shutdown()
        // libcurl calls the socket callback while it cleans up; `watch` may be gone by then.
        driver.withLock { multi in
            guard let multi else { return }
            _ = be_curl_multi_setopt_socket_fn(multi.raw, nil)
            _ = be_curl_multi_setopt_timer_fn(multi.raw, nil)
        }
    }

    /// Readable whenever `drive` has something to do, or the owner's descriptor is readable. Poll it; never read it.
    public var descriptor: Int32 { watch.poller.descriptor }

    /// Sends a request: at once, on the calling thread, when no drive is in progress; else the drive in progress
    /// (another thread's, or the one this call is made from) starts it. What cannot be done without waiting is
    /// left to a `drive`. `completion` runs exactly once: inside `send` when the transfer ends there (a refused
    /// request, a connection that fails at once, an answer that was already there), else inside a `drive` or
    /// `shutdown`; after `shutdown` it runs with `.cancelled` on the calling thread.
    public func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
        guard state.withLock({ $0.accept(request, completion: completion) }) else { return completion(.failure(.cancelled)) }
        // Starting here sends the request within the host's fetch call, not at its next dispatch, and saves the
        // wake-up round trip (a write, a poll, a readiness check and a read); before the first drive made the
        // multi handle, that drive starts it.
        let started = driver.withLockIfFree { multi -> Bool in
            guard let multi else { return false }
            startQueued(on: multi)
            return true
        }
        if started != true { waker.signal() }
    }

    /// Starts the queued requests and lets libcurl send them (a transfer added asks for its first timeout at once),
    /// without waiting on any descriptor; under the driver lock.
    private func startQueued(on multi: CurlMulti) {
        multi.take(state.withLock { $0.takeWork() })
        _ = actOnDueTimeout(multi)
        multi.completeFinished()
        keepDueTimeoutVisible()
    }

    /// Lets libcurl handle a timeout it asked for at once (its timer callback said 0); whether there was one.
    private func actOnDueTimeout(_ multi: CurlMulti) -> Bool {
        guard watch.timeout.withLock({ timeout in defer { timeout.dueNow = false }; return timeout.dueNow }) else { return false }
        act(on: multi, socket: -1, readiness: 0)  // -1 is CURL_SOCKET_TIMEOUT
        return true
    }

    /// A timeout libcurl wants at once that no round handled: the descriptor says so, for the next drive.
    private func keepDueTimeoutVisible() {
        watch.timeout.withLock { timeout in
            if let now = timeout.keepDueVisible(now: MonotonicClock.now()) { watch.poller.arm(timer: Watch.timeouts, at: now) }
        }
    }

    /// Runs `action` in the first `drive` about `nanoseconds` from now. Dropped when the transport shuts down first.
    public func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if state.schedule(afterNanoseconds: nanoseconds, action) { armTimers(state) }
        }
    }

    /// Sets `watch.timers` to the next timer; under the state lock, so the setting is the latest list's.
    private func armTimers(_ state: TransportState) {
        watch.poller.arm(timer: Watch.timers, at: state.nextTimer ?? UInt64.max)
    }

    public var requestsSent: UInt64 { state.withLock { $0.requestsSent } }

    /// Cancels everything in flight and queued; every completion has run on return. Waits for a drive in progress.
    public func shutdown() {
        state.withLock { $0.stop() }
        // Whatever the taken work says (a drive may have taken the stop's cancel already), all of it ends here.
        driver.withLock { multi in
            let incoming = state.withLock { $0.takeWork() }.incoming
            guard let multi else { return incoming.forEach { $0.1(.failure(.cancelled)) } }
            multi.take((incoming, cancel: true))
        }
    }

    /// Does what is ready now, without waiting: starts queued requests, moves data on ready sockets, lets libcurl
    /// handle its due timeouts, and runs the completions of finished transfers and the due timers. Any thread;
    /// a second thread waits for the first.
    public func drive() {
        var timersDue = false
        driver.withLock { slot in
            let multi: CurlMulti
            do throws(EngineFailure) { multi = try made(in: &slot) } catch {
                // No libcurl: what is queued fails, and the timers run (what they send fails at the next drive).
                waker.consume()
                watch.poller.reset(timer: Watch.timers)
                timersDue = true
                for (_, completion) in state.withLock({ $0.takeWork() }).incoming {
                    completion(.failure(CurlGlobal.unavailable(error)))
                }
                return
            }
            var descriptors = InlineArray<8, Int32>(repeating: -1)
            var readiness = InlineArray<8, Int32>(repeating: 0)
            for _ in 0..<Self.maximumRounds {
                var acted = actOnDueTimeout(multi)
                var fds = descriptors.mutableSpan
                var ready = readiness.mutableSpan
                let count = fds.withUnsafeMutableBufferPointer { fds in
                    ready.withUnsafeMutableBufferPointer { ready in watch.poller.ready(fds, ready) }
                }
                for index in 0..<count {
                    let descriptor = descriptors[index]
                    switch descriptor {
                    case waker.descriptor:
                        waker.consume()
                        multi.take(state.withLock { $0.takeWork() })
                    case watch.poller.timer(Watch.timeouts):
                        watch.poller.reset(timer: Watch.timeouts)
                        watch.timeout.withLock { $0.fired() }
                        // Early or not (TimeoutTimer), libcurl handles what is due and tells its next deadline.
                        act(on: multi, socket: -1, readiness: 0)
                    case watch.poller.timer(Watch.timers):
                        watch.poller.reset(timer: Watch.timers)
                        timersDue = true
                        continue
                    case ownersDescriptor:
                        continue
                    default:
                        guard watch.sockets.withLock({ $0.wants(descriptor) }) else {
                            // A parked socket that became ready: out of the set, so it cannot keep the host awake.
                            _ = watch.poller.watch(descriptor, interest: 0)
                            continue
                        }
                        act(on: multi, socket: descriptor, readiness: readiness[index])
                    }
                    acted = true
                }
                multi.completeFinished()
                // With nothing in flight, a request queued since makes the descriptor readable for the next drive.
                if !acted || !multi.isBusy { break }
            }
            // A timeout libcurl wants at once but the rounds ran out for.
            keepDueTimeoutVisible()
        }
        guard timersDue else { return }
        let now = MonotonicClock.now()
        let due = state.withLock { state in
            defer { armTimers(state) }
            return state.takeDueTimers(now: now)
        }
        for action in due { action() }
    }

    /// After a dispatch (its drive and the callbacks it ran): `descriptor` stops being readable when nothing is
    /// left to do, so the host is not woken for work already done.
    public func settle() { watch.poller.settle() }

    private func act(on multi: CurlMulti, socket: Int32, readiness: Int32) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi.raw, socket, readiness, &running)
    }
}

/// The poller behind `DrivenTransport.descriptor`, which libcurl's callbacks (their user data) change.
private final class Watch: Sendable {
    /// Timer 0: libcurl's next timeout; timer 1: the next `schedule`d action.
    static let timeouts = 0, timers = 1
    let poller: ReadinessPoller
    /// libcurl's timeout: asked for at once (the drive in progress handles it), and when its timer expires.
    let timeout = Locked(TimeoutTimer())
    /// The sockets libcurl wants watched; the others in the poller are parked.
    let sockets = Locked(SocketWatch())

    init() throws(EngineFailure) { poller = try ReadinessPoller(timers: 2) }
}
