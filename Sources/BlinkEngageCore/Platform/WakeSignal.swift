internal import CPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a sleeping thread is woken: by another thread of this process (`signal`), by another process on the
/// storage directory (`DirectoryWatch`), or by its own deadline. With none of these it sleeps: an idle SDK costs
/// no wake-ups. Linux: an eventfd; portable build: a self-pipe (Platform.swift).
final class WakeSignal: Sendable {
    /// Read end, write end (one eventfd on Linux).
    private let ends: (read: Int32, write: Int32)
    private let watch: DirectoryWatch?

    init(watching watch: DirectoryWatch? = nil) throws(EngineFailure) {
        var pair: (Int32, Int32) = (-1, -1)
        let made = withUnsafeMutableBytes(of: &pair) { be_wake_create($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        guard made == 0 else { throw .invalidState("cannot create a wake-up descriptor (errno \(errno))") }
        ends = (pair.0, pair.1)
        self.watch = watch
    }

    deinit {
        var pair = (ends.read, ends.write)
        withUnsafeMutableBytes(of: &pair) { be_wake_close($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
    }

    /// Wakes the waiter (now, or at once when it next waits).
    func signal() { be_wake_signal(ends.write) }

    /// The signal's descriptor, for a waiter that polls it among descriptors of its own (the transport thread,
    /// inside `curl_multi_poll`; the readiness poller); readable while a signal is pending.
    var descriptor: Int32 { ends.read }

    /// Takes the pending signals after such a poll saw the descriptor readable, however many came.
    func consume() { be_wake_drain(ends.read) }

    enum Reason { case signalled, directoryChanged, deadline }

    /// Sleeps until signalled, the directory changes, or the monotonic `deadline` (nil: no deadline).
    func wait(until deadline: UInt64?) -> Set<Reason> {
        while true {
            var descriptors = [pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)]
            for watched in watch?.descriptors() ?? [] { descriptors.append(pollfd(fd: watched, events: Int16(POLLIN), revents: 0)) }
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
            for watched in descriptors.dropFirst() where watched.revents != 0 {
                if watch?.serviceReadable(watched.fd) == true { reasons.insert(.directoryChanged) }
            }
            // Only the watch's own business (a connection accepted): wait again, with the new descriptors.
            if !reasons.isEmpty { return reasons }
        }
    }
}
