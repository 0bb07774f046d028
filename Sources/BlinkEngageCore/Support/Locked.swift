import Synchronization

/// A value that is only ever touched under its own lock, through closures.
///
/// `Mutex<Void>` guards a plain stored value so that any `State` works under strict concurrency; every access
/// goes through `withLock`, so the lock is never held past the closure (and never across a host callback).
public final class Locked<State>: @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private var state: State

    public init(_ state: State) { self.state = state }

    @discardableResult
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { (_: inout Void) throws(Failure) -> Result in try body(&state) }
    }
}
