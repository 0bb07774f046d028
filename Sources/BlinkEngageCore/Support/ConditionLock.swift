#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a pthread mutex with a condition variable, for the places that must wait for a change
/// (queues, shutdown, flush). `Mutex` from Synchronization has no condition variable.
public final class ConditionLock<State> {
    private let lock = PthreadMutex()
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { lock.pointer }
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Unchecked for exclusivity as `Locked`'s state is: every access is under the mutex.
    @exclusivity(unchecked) private var state: State
    #if DEBUG
    /// Where this lock stands in `LockRank`'s order, checked in debug builds; nil: not checked.
    private let rank: LockRank?
    #endif

    public convenience init(_ state: State) { self.init(state, checkedRank: nil) }

    /// A lock that takes part in `LockRank`'s order.
    convenience init(_ state: State, rank: LockRank) { self.init(state, checkedRank: rank) }

    private init(_ state: State, checkedRank: LockRank?) {
        self.state = state
        #if DEBUG
        rank = checkedRank
        #endif
        // Timed waits use the monotonic clock so a wall-clock jump cannot stretch or cut them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Runs `body` under the lock and wakes every waiter afterwards (state may have changed).
    @discardableResult
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if DEBUG
        rank?.willLock()
        defer { rank?.didUnlock() }
        #endif
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `ready` holds, then runs `body` under the lock.
    /// - Parameter deadline: a `MonotonicClock` instant in nanoseconds; nil waits for ever.
    /// - Returns: the body's result, or nil when the deadline passed first (the body then did not run).
    public func wait<Result>(
        until ready: (State) -> Bool, deadline: UInt64? = nil, then body: (inout State) throws -> Result
    ) rethrows -> Result? {
        #if DEBUG
        rank?.willLock()
        defer { rank?.didUnlock() }
        #endif
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !ready(state) {
            if let deadline, MonotonicClock.now() >= deadline { return nil }
            // Without the fork gate while waiting, and it is taken back with the mutex let go, so that a thread
            // waiting at the gate never holds a lock (ForkGate).
            let depth = ForkGate.suspend()
            if let deadline {
                var until = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &until)
            } else {
                pthread_cond_wait(condition, mutex)
            }
            if depth > 0 {
                pthread_mutex_unlock(mutex)
                ForkGate.resume(depth)
                pthread_mutex_lock(mutex)
            }
        }
        return try body(&state)
    }
}

// Safe: `state` is read and written only under `mutex` (in `withLock` and `wait`); Sendable only with its state.
extension ConditionLock: @unchecked Sendable where State: Sendable {}
