internal import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a sleeping thread is woken: by another thread of this process (`signal`), by a change in a watched
/// directory (another process writing the database there, or exiting), or by its own deadline. With none of
/// these it sleeps: an idle SDK costs no wake-ups.
final class WakeSignal: Sendable {
    private let event: Int32
    /// inotify on the storage directory; -1 when there is none (memory storage, or inotify refused).
    private let watch: Int32

    init(watching directory: String?) throws(EngineFailure) {
        event = be_eventfd()
        guard event >= 0 else { throw .invalidState("cannot create a wake-up descriptor (errno \(errno))") }
        watch = directory.map { be_inotify_watch_directory($0) } ?? -1
    }

    deinit {
        close(event)
        if watch >= 0 { close(watch) }
    }

    /// Whether changes by other processes are seen; without it a waiter must look again now and then.
    var watchesDirectory: Bool { watch >= 0 }

    /// Wakes the waiter (now, or at once when it next waits).
    func signal() {
        var one: UInt64 = 1
        _ = write(event, &one, 8)
    }

    /// The signal's descriptor, for a waiter that polls it among descriptors of its own (the transport thread,
    /// inside `curl_multi_poll`); readable while a signal is pending.
    var descriptor: Int32 { event }

    /// Takes the pending signals after such a poll saw the descriptor readable: one read, however many came.
    func consume() { FileIO.resetCounter(event) }

    enum Reason { case signalled, directoryChanged, deadline }

    /// Sleeps until signalled, the directory changes, or the monotonic `deadline` (nil: no deadline).
    func wait(until deadline: UInt64?) -> Set<Reason> {
        var descriptors = [pollfd(fd: event, events: Int16(POLLIN), revents: 0)]
        if watch >= 0 { descriptors.append(pollfd(fd: watch, events: Int16(POLLIN), revents: 0)) }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                timeout = MonotonicClock.pollMilliseconds(until: deadline)
                guard timeout > 0 else { return [.deadline] }
            }
            let ready = ForkGate.outside { poll(&descriptors, nfds_t(descriptors.count), timeout) }
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return [.deadline] }
            var reasons = Set<Reason>()
            if descriptors[0].revents != 0 {
                consume()
                reasons.insert(.signalled)
            }
            if descriptors.count > 1, descriptors[1].revents != 0 {
                drain(watch)
                reasons.insert(.directoryChanged)
            }
            return reasons
        }
    }

    private func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
