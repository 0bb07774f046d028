internal import CPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Many descriptors' readiness, and timers on the monotonic clock, as one descriptor a host can poll: the
/// dispatch descriptor of fetches driven in `be_sdk_dispatch` (DrivenTransport). `descriptor` is readable while
/// a watched descriptor is ready or a timer has expired; `ready` says which, without waiting.
///
/// - Linux: an epoll set, with a timerfd per timer in it.
/// - Portable build: `PollRelay`, poll(2) on a thread of its own that makes a self-pipe readable.
/// - Elsewhere: kqueue (itself a descriptor, `EVFILT_TIMER` for the timers); an I/O completion port on Windows.
final class ReadinessPoller: Sendable {
    /// Readiness bits, as libcurl's CURL_CSELECT_* and CURL_POLL_* use them.
    static let readable: Int32 = 1, writable: Int32 = 2, failed: Int32 = 4

    #if BLINKENGAGE_PLATFORM_POSIX || !os(Linux)
    private let relay: PollRelay

    init(timers: Int) throws(EngineFailure) { relay = try PollRelay(timers: timers) }

    var descriptor: Int32 { relay.descriptor }
    func watch(_ fd: Int32, interest: Int32) -> Bool { relay.watch(fd, interest: interest) }
    func timer(_ index: Int) -> Int32 { PollRelay.timerID(index) }
    func arm(timer index: Int, at deadline: UInt64) { relay.arm(timer: index, at: deadline) }
    func reset(timer index: Int) { relay.reset(timer: index) }
    func ready(_ fds: UnsafeMutableBufferPointer<Int32>, _ readiness: UnsafeMutableBufferPointer<Int32>) -> Int {
        relay.ready(fds, readiness)
    }
    func settle() { relay.settle() }
    #else
    private let epoll: Int32
    private let timers: [Int32]

    /// - Parameter timers: how many timers (each `timer(i)` among the answers of `ready` when it expired).
    init(timers count: Int) throws(EngineFailure) {
        epoll = be_epoll_create()
        var made: [Int32] = []
        for _ in 0..<count { made.append(be_timerfd_create()) }
        timers = made
        guard epoll >= 0, !made.contains(where: { $0 < 0 }),
              made.allSatisfy({ be_epoll_watch(epoll, $0, Self.readable) == 0 }) else {
            let error = errno
            for descriptor in [epoll] + made where descriptor >= 0 { close(descriptor) }
            throw .invalidState("cannot create the dispatch descriptor (errno \(error))")
        }
    }

    deinit {
        close(epoll)
        for timer in timers { close(timer) }
    }

    /// Readable while something is ready. Poll it; never read it.
    var descriptor: Int32 { epoll }

    /// Watches `fd` for `interest` (`readable`, `writable`, both), adding it or changing what is watched; 0
    /// forgets it. A descriptor that is closed is forgotten by itself. False when the system refused.
    func watch(_ fd: Int32, interest: Int32) -> Bool { be_epoll_watch(epoll, fd, interest) == 0 }

    /// The identifier `ready` gives for timer `index` when it expired.
    func timer(_ index: Int) -> Int32 { timers[index] }

    /// Sets timer `index` to expire at `deadline` (MonotonicClock's count; one already past expires at once);
    /// `UInt64.max` disarms it.
    func arm(timer index: Int, at deadline: UInt64) { _ = be_timerfd_arm_at(timers[index], deadline) }

    /// After `ready` gave the timer: it stops being ready until armed again.
    func reset(timer index: Int) { be_timerfd_reset(timers[index]) }

    /// What is ready now, without waiting: descriptors (and timer identifiers) into `fds`, their readiness into
    /// `readiness` (`readable` also for hung up, `failed` for an error). Returns how many.
    func ready(_ fds: UnsafeMutableBufferPointer<Int32>, _ readiness: UnsafeMutableBufferPointer<Int32>) -> Int {
        max(0, Int(be_epoll_ready(epoll, fds.baseAddress, readiness.baseAddress, Int32(min(fds.count, readiness.count)))))
    }

    /// After the work `ready` found is done: `descriptor` is made to say only what is ready now. Nothing to do
    /// with epoll, whose readiness is always the present's.
    func settle() {}
    #endif
}
