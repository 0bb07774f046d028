#if BLINKENGAGE_PLATFORM_POSIX || !os(Linux)
internal import CPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The readiness poller of the portable build: plain poll(2) cannot make many descriptors one, so a thread
/// (`be-poll-relay`) polls the watched descriptors and the timers' nearest deadline, and when something is ready
/// it makes `descriptor` (a self-pipe) readable and stops watching until `ready` has been asked: a descriptor
/// that stays ready costs one wake-up per `ready`, not a busy loop. Idle, with no timer armed, the thread
/// sleeps in poll without a timeout: no wake-ups. `ready` polls the descriptors again itself (timeout 0), so
/// what it says is current, never the relay's old news.
final class PollRelay: Sendable {
    private struct State {
        var interests: [Int32: Int32] = [:]
        var deadlines: [UInt64]
        /// The self-pipe was made readable and `ready` has not run since: the relay waits for that.
        var signalled = false
        /// Bumped by `ready` and `settle`: a relay's poll that began before them is old news, not signalled.
        var generation = 0
        var stopping = false
    }

    private let state: Locked<State>
    /// Readable when something is ready (the host polls it).
    private let output: WakeSignal
    /// Wakes the relay: the watched set or a timer changed, `ready` ran, or it must stop.
    private let control: WakeSignal
    private let thread = Locked<NativeThread?>(nil)

    /// Timer `index` is reported as this identifier: below -1, so never a descriptor nor libcurl's -1.
    static func timerID(_ index: Int) -> Int32 { -2 - Int32(index) }

    init(timers: Int) throws(EngineFailure) {
        state = Locked(State(deadlines: Array(repeating: UInt64.max, count: timers)))
        output = try WakeSignal()
        control = try WakeSignal()
        let (state, output, control) = (state, output, control)
        let started = try NativeThread(name: "be-poll-relay") { Self.run(state, output, control) }
        thread.withLock { $0 = started }
    }

    deinit {
        state.withLock { $0.stopping = true }
        control.signal()
        thread.withLock { $0 }?.join()
    }

    var descriptor: Int32 { output.descriptor }

    func watch(_ fd: Int32, interest: Int32) -> Bool {
        guard fd >= 0 else { return false }
        state.withLock { $0.interests[fd] = interest == 0 ? nil : interest }
        control.signal()
        return true
    }

    func arm(timer index: Int, at deadline: UInt64) {
        state.withLock { $0.deadlines[index] = deadline }
        control.signal()
    }

    /// Nothing to do: `ready` disarmed the timer when it reported it.
    func reset(timer index: Int) {}

    func ready(_ fds: UnsafeMutableBufferPointer<Int32>, _ readiness: UnsafeMutableBufferPointer<Int32>) -> Int {
        output.consume()
        let capacity = min(fds.count, readiness.count)
        var count = 0
        let now = MonotonicClock.now()
        let interests = state.withLock { state in
            state.signalled = false
            state.generation += 1
            // An expired timer is reported once and disarmed, as reading a timerfd does.
            for (index, deadline) in state.deadlines.enumerated() where deadline <= now && count < capacity {
                fds[count] = Self.timerID(index)
                readiness[count] = ReadinessPoller.readable
                count += 1
                state.deadlines[index] = UInt64.max
            }
            return state.interests
        }
        defer { control.signal() }  // the relay watches again
        var polled = interests.map { pollfd(fd: $0.key, events: Self.events($0.value), revents: 0) }
        guard !polled.isEmpty, FileIO.retrying({ poll(&polled, nfds_t(polled.count), 0) }) > 0 else { return count }
        var closed: [Int32] = []
        for entry in polled where entry.revents != 0 {
            // A descriptor closed while watched is forgotten, as epoll forgets it.
            if entry.revents & Int16(POLLNVAL) != 0 { closed.append(entry.fd); continue }
            guard count < capacity else { break }
            fds[count] = entry.fd
            readiness[count] = Self.readiness(entry.revents)
            count += 1
        }
        if !closed.isEmpty { state.withLock { state in for fd in closed { state.interests[fd] = nil } } }
        return count
    }

    /// After the host's dispatch: when nothing is ready any more, `descriptor` stops being readable, so the host
    /// is not woken for what was ready when the relay looked and has been handled since (epoll needs no such
    /// step: its readiness is always the present's).
    func settle() {
        state.withLock { state in
            let now = MonotonicClock.now()
            var polled = state.interests.map { pollfd(fd: $0.key, events: Self.events($0.value), revents: 0) }
            let timerDue = state.deadlines.contains { $0 <= now }
            let descriptorReady = !polled.isEmpty && FileIO.retrying({ poll(&polled, nfds_t(polled.count), 0) }) > 0
            guard !timerDue, !descriptorReady else { return }
            output.consume()
            state.signalled = false
            state.generation += 1
        }
        control.signal()
    }

    private static func events(_ interest: Int32) -> Int16 {
        ((interest & ReadinessPoller.readable) != 0 ? Int16(POLLIN) : 0) | ((interest & ReadinessPoller.writable) != 0 ? Int16(POLLOUT) : 0)
    }

    private static func readiness(_ revents: Int16) -> Int32 {
        ((revents & Int16(POLLIN | POLLHUP)) != 0 ? ReadinessPoller.readable : 0)
            | ((revents & Int16(POLLOUT)) != 0 ? ReadinessPoller.writable : 0)
            | ((revents & Int16(POLLERR)) != 0 ? ReadinessPoller.failed : 0)
    }

    private static func run(_ state: Locked<State>, _ output: WakeSignal, _ control: WakeSignal) {
        while true {
            let (stopping, signalled, interests, deadline, generation) = state.withLock { state in
                (state.stopping, state.signalled, state.interests, state.deadlines.min() ?? UInt64.max, state.generation)
            }
            if stopping { return }
            var polled = [pollfd(fd: control.descriptor, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = -1
            if !signalled {
                polled += interests.map { pollfd(fd: $0.key, events: events($0.value), revents: 0) }
                if deadline != UInt64.max { timeout = max(0, MonotonicClock.pollMilliseconds(until: deadline)) }
            }
            let count = ForkGate.outside { poll(&polled, nfds_t(polled.count), timeout) }
            if count < 0, errno == EINTR { continue }
            if polled[0].revents != 0 { control.consume() }
            // A poll that failed otherwise is the host's to hear about: `ready` polls again and says what it finds.
            let due = !signalled && (count < 0 || polled.dropFirst().contains { $0.revents != 0 }
                || (deadline != UInt64.max && MonotonicClock.now() >= deadline))
            if due {
                // Unless `ready` or `settle` ran meanwhile: then the poll is looked at again, not believed.
                state.withLock { state in
                    guard state.generation == generation else { return }
                    state.signalled = true
                    output.signal()
                }
            }
        }
    }
}
#endif
