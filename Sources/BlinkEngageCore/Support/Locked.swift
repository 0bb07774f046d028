/// A value that is only ever touched under its own lock, through closures (swift-nio's `NIOLockedValueBox`).
///
/// The lock is never held past the closure, so never across a host callback. `Sendable` exactly when `State`
/// is: the box moves a value between threads, so that value must be safe to move.
public final class Locked<State> {
    private let mutex = PthreadMutex()
    /// No dynamic exclusivity check (about 4K instructions a fetch over all boxes): the mutex already makes every
    /// access exclusive, and a nested `withLock` by the holder blocks on it before it could overlap an access.
    @exclusivity(unchecked) private var state: State
    #if DEBUG
    /// Where this lock stands in `LockRank`'s order, checked in debug builds; nil: not checked.
    private let rank: LockRank?
    #endif

    public init(_ state: State) {
        self.state = state
        #if DEBUG
        rank = nil
        #endif
    }

    /// A lock that takes part in `LockRank`'s order.
    init(_ state: State, rank: LockRank) {
        self.state = state
        #if DEBUG
        self.rank = rank
        #endif
    }

    @discardableResult
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        #if DEBUG
        rank?.willLock()
        defer { rank?.didUnlock() }
        #endif
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }

    /// `body` under the lock when the lock is free now; nil, at once, when a thread holds it (this one included).
    public func withLockIfFree<Result>(_ body: (inout State) -> Result) -> Result? {
        guard mutex.tryLock() else { return nil }
        #if DEBUG
        rank?.didTryLock()
        defer { rank?.didUnlock() }
        #endif
        defer { mutex.unlock() }
        return body(&state)
    }
}

// Safe: `state` is read and written only inside `withLock` and `withLockIfFree`, under `mutex`.
extension Locked: @unchecked Sendable where State: Sendable {}
