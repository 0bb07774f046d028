#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one home of host callbacks: a serial queue drained either by the SDK's callback thread or, in
/// dispatch mode, by whichever host thread calls `dispatch`. Callbacks never run inside the call that queued
/// them, never run under a lock (so a callback may call back into the library), and never two at once: one
/// thread drains at a time, and a `dispatch` from inside a callback returns 0 at once.
///
/// The callback thread drains as a dispatching host would: it sleeps in poll on the queue's pipe or, when it
/// drives the offer fetches too, on their transport's descriptor (which the pipe joins). The thread that reads
/// an answer then decodes it and runs its callback, with no thread woken in between.
final class CallbackQueue: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var closing = false
        /// A thread is draining; others return at once instead of running jobs beside it.
        var draining = false
        /// Whether the pipe's byte was asked for: it is there, or its writer is about to write it.
        var signalled = false
        /// Bytes asked for and not yet read back. The byte is written after the lock is let go, so a byte asked
        /// for before a drain took the jobs may land after it: it is read at the next drain, which it wakes.
        var owed = 0
        var pending: Int { jobs.count - head }
    }

    let mode: SDKConfiguration.CallbackMode
    private let state = ConditionLock(State())
    private let thread = Locked<NativeThread?>(nil)
    /// The read end of a pipe that holds a byte while jobs wait and no thread drains (a drain runs what is queued
    /// meanwhile, so jobs queued from inside it, by driven fetches, cost no byte); after `close` began, also to
    /// wake the callback thread. A byte may land just after a drain took its job (`owed`): it wakes one drain that
    /// finds nothing and reads it. Polled by the host in dispatch mode, else by the callback thread.
    let readinessDescriptor: Int32
    private let readinessWriter: Int32

    /// In SDK-thread mode the thread starts with `startThread`, once the transport it drives exists.
    init(mode: SDKConfiguration.CallbackMode) throws(EngineFailure) {
        self.mode = mode
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .invalidState("cannot create the callback queue's pipe (errno \(errno))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readinessDescriptor = ends[0]
        readinessWriter = ends[1]
    }

    deinit {
        Glibc.close(readinessDescriptor)
        Glibc.close(readinessWriter)
    }

    /// SDK-thread mode: starts the callback thread, which also does the I/O of `fetches` (nil: none to drive).
    func startThread(driving fetches: DrivenTransport?) throws(EngineFailure) {
        guard mode == .sdkThread else { return }
        let started = try NativeThread(name: "be-callbacks") { [unowned self] in self.runOnCallbackThread(driving: fetches) }
        thread.withLock { $0 = started }
    }

    /// Queues a job. Jobs queued after `close` began still run before `close` returns.
    func enqueue(_ job: @escaping Job) {
        writeByte(state.withLock { state in
            state.jobs.append(job)
            return !state.draining && asksForByte(&state)
        })
    }

    /// Whether the pipe needs its byte: jobs wait (or `close` began) and it was not asked for yet; under the lock.
    private func asksForByte(_ state: inout State) -> Bool {
        guard state.pending > 0 || state.closing, !state.signalled else { return false }
        state.signalled = true
        state.owed += 1
        return true
    }

    /// Writes the byte `asksForByte` asked for, after the lock is let go: the thread it wakes (on another core, at
    /// once) then finds the lock free instead of sleeping on it again.
    private func writeByte(_ asked: Bool) {
        guard asked else { return }
        var one: UInt8 = 1
        _ = write(readinessWriter, &one, 1)
    }

    /// Dispatch mode: does the ready I/O of `fetches` when they are driven here, then runs up to `maximum` jobs
    /// (all when <= 0) on this thread; returns how many ran. Returns 0 at once inside a callback, or while another
    /// thread is draining (its drain runs what is queued).
    func dispatch(maximum: Int, driving fetches: DrivenTransport?) -> Int {
        guard mode == .dispatch else { return 0 }
        return drain(maximum: maximum, driving: fetches)
    }

    /// `dispatch` for any mode: the host's in dispatch mode, the callback thread's otherwise. The fetches' drive
    /// is admitted like the jobs (one thread at a time, never inside a callback); after it all, their descriptor
    /// settles: it stops being readable when nothing is left to do.
    private func drain(maximum: Int, driving fetches: DrivenTransport?) -> Int {
        defer { fetches?.settle() }
        guard !isCurrentThreadInCallback else { return 0 }
        let admitted = state.withLock { state -> Bool in
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard admitted else { return 0 }
        defer { writeByte(state.withLock { $0.draining = false; return asksForByte(&$0) }) }  // what is left over (`maximum`)
        fetches?.drive()
        var ran = 0
        while maximum <= 0 || ran < maximum, let job = takeJob() {
            CallbackContext.run(for: self, job)
            ran += 1
        }
        return ran
    }

    /// Runs every queued job (on the callback thread, or here in dispatch mode) and stops the thread. In
    /// dispatch mode it first waits for a drain in progress on another thread, so jobs never run two at once.
    func close() {
        writeByte(state.withLock { $0.closing = true; return asksForByte(&$0) })
        if let thread = thread.withLock({ $0 }) {
            thread.join()
        } else {
            _ = state.wait(until: { !$0.draining }) { $0.draining = true }
            while let job = takeJob() { CallbackContext.run(for: self, job) }
            state.withLock { $0.draining = false }
        }
    }

    /// Whether the current thread is running one of this queue's jobs.
    var isCurrentThreadInCallback: Bool { CallbackContext.current == Unmanaged.passUnretained(self).toOpaque() }

    private func takeJob() -> Job? { state.withLock { pop(&$0) } }

    /// The next job, under the lock; drained, the dispatch descriptor stops being readable.
    private func pop(_ state: inout State) -> Job? {
        guard state.pending > 0 else {
            readOwedBytes(&state)  // a byte that landed after the last drain took its jobs
            return nil
        }
        let job = state.jobs[state.head]
        state.head += 1
        if state.pending == 0 {
            state.jobs.removeAll(keepingCapacity: true)
            state.head = 0
            state.signalled = false
            readOwedBytes(&state)
        }
        return job
    }

    /// Reads back the bytes owed that are in the pipe; under the lock, with no job waiting. No system call when
    /// none is owed.
    private func readOwedBytes(_ state: inout State) {
        var bytes = InlineArray<16, UInt8>(repeating: 0)
        var span = bytes.mutableSpan
        while state.owed > 0 {
            let got = span.withUnsafeMutableBufferPointer { read(readinessDescriptor, $0.baseAddress, min(state.owed, $0.count)) }
            guard got > 0 else { return }  // the rest is still on its way
            state.owed -= got
        }
    }

    /// Sleeps until there is something to do, does it as a host's dispatch would, and returns once `close`
    /// began and nothing is left. A callback that takes long holds the fetches' I/O (and counts against their
    /// timeouts) as it holds the callbacks after it.
    private func runOnCallbackThread(driving fetches: DrivenTransport?) {
        var ready = pollfd(fd: fetches?.descriptor ?? readinessDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if ForkGate.outside({ poll(&ready, 1, -1) }) < 0, errno == EINTR { continue }
            _ = drain(maximum: 0, driving: fetches)
            if state.withLock({ $0.closing && $0.pending == 0 }) { return }
        }
    }
}

/// Which callback queue the current thread is running a job for, so `shutdown` and `dispatch` from inside a
/// callback can be detected. Swift has no thread-local storage of its own here: a pthread key holds it.
enum CallbackContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The address of the queue whose job this thread runs, nil outside callbacks.
    static var current: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    static func run(for queue: CallbackQueue, _ job: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(queue).toOpaque())
        job()
        pthread_setspecific(key, previous)
    }
}
