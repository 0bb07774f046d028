internal import BlinkEngageCore

/// The SDK: offers for a moment, the offer feed with its screens and events, zone ads, images, privacy and
/// tracking, for Swift hosts.
///
/// Use ``shared`` when the app wants one SDK, or make instances with ``init(configuration:)`` when a host needs
/// several (one per API key or storage directory). Every method may be called from any thread or task.
///
/// Completion handlers run where ``BlinkEngageConfiguration/callbackQueue`` says: the main queue on Apple platforms,
/// the SDK's own delivery on Linux (its callback thread `be-callbacks`, or, with
/// ``BlinkEngageConfiguration/CallbackMode/dispatch``, inside ``dispatch(maximum:)`` on the thread that calls it):
/// never inside the call that registered them. An `async` call is resumed from the SDK's delivery, and the waiting
/// task goes on on its own executor.
public final class BlinkEngageSDK: Sendable {
    /// The instance for apps that want one: ``start(_:)`` it once, early.
    public static let shared = BlinkEngageSDK()

    private let state: Locked<RunningSDK?>

    /// An instance that is not started yet: ``start(_:)`` starts it; until then every call throws
    /// ``BlinkEngageError/notStarted``.
    public init() { state = Locked(nil) }

    /// Starts an SDK from a copy of `configuration`.
    /// - Throws: ``BlinkEngageError`` when the configuration cannot start (an unusable storage directory, a
    ///   transport that cannot be made).
    public init(configuration: BlinkEngageConfiguration) throws(BlinkEngageError) {
        state = Locked(try Self.running(configuration))
    }

    /// Starts this instance from a copy of `configuration`.
    /// - Throws: ``BlinkEngageError/alreadyStarted`` when it runs already; otherwise as ``init(configuration:)``.
    public func start(_ configuration: BlinkEngageConfiguration) throws(BlinkEngageError) {
        try state.withLock { (running: inout RunningSDK?) throws(BlinkEngageError) in
            guard running == nil else { throw .alreadyStarted }
            running = try Self.running(configuration)
        }
    }

    private static func running(_ configuration: BlinkEngageConfiguration) throws(BlinkEngageError) -> RunningSDK {
        do throws(EngineFailure) {
            return RunningSDK(engine: try SDK(configuration: configuration.engineConfiguration()),
                              callbackQueue: configuration.callbackQueue)
        } catch {
            throw BlinkEngageError(error)
        }
    }

    /// Whether the SDK runs (started and not shut down).
    public var isStarted: Bool { state.withLock { $0 != nil } }

    /// The running engine, or ``BlinkEngageError/notStarted``.
    func engine() throws(BlinkEngageError) -> SDK { try running().engine }

    /// The running engine with its callback queue, or ``BlinkEngageError/notStarted``.
    func running() throws(BlinkEngageError) -> RunningSDK {
        guard let running = state.withLock({ $0 }) else { throw .notStarted }
        return running
    }

    /// Runs `body` on the engine, translating its synchronous failure.
    func call<Value>(_ body: (SDK) throws(EngineFailure) -> Value) throws(BlinkEngageError) -> Value {
        let engine = try engine()
        do throws(EngineFailure) { return try body(engine) } catch { throw BlinkEngageError(error) }
    }

    /// Cancels what is in flight, runs every handler still owed (with ``BlinkEngageError/cancelled`` or the
    /// request's own error), delivers what tracking it can within `timeoutMilliseconds` and keeps the rest on
    /// disk for the next start, then stops the SDK's threads. The instance can be started again afterwards.
    ///
    /// Called from one of this SDK's own completion handlers it does nothing and returns false (the handler's
    /// thread is the one shutdown would wait for); true otherwise, also when the SDK was not running.
    @discardableResult
    public func shutdown(timeoutMilliseconds: UInt32 = 2000) -> Bool {
        guard let engine = state.withLock({ $0?.engine }) else { return true }
        guard engine.shutdown(timeoutMilliseconds: timeoutMilliseconds) else { return false }
        state.withLock { if $0?.engine === engine { $0 = nil } }
        return true
    }

    /// Dispatch mode: runs up to `maximum` owed completion handlers on the calling thread (all of them when
    /// `maximum` <= 0), and the fetches' network I/O when ``BlinkEngageConfiguration/fetchIOOnDispatch`` is set.
    /// Returns how many handlers ran: 0 in the default mode, when another thread is dispatching, or from inside
    /// a handler.
    @discardableResult
    public func dispatch(maximum: Int = 0) -> Int {
        (try? engine())?.dispatch(maximum: maximum) ?? 0
    }

    /// Dispatch mode: a descriptor that is readable while handlers wait, for a host's poll loop; -1 otherwise.
    public var dispatchDescriptor: Int32 { (try? engine())?.dispatchDescriptor ?? -1 }

    /// Waits, at most `timeoutMilliseconds`, until every beacon and event reported before the call is
    /// delivered or dropped by rule. Blocks the calling thread; never call it from a completion handler in
    /// dispatch mode.
    /// - Throws: ``BlinkEngageError/timeout(_:)`` when something is still queued at the deadline or the
    ///   network is down.
    public func flush(timeoutMilliseconds: UInt32) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.flush(timeoutMilliseconds: timeoutMilliseconds) }
    }

    /// Counters since start.
    public func stats() throws(BlinkEngageError) -> BlinkEngageStats {
        BlinkEngageStats(try call { (engine: SDK) throws(EngineFailure) in try engine.statistics() })
    }

    /// What the storage directory `storageDirectory` holds for `apiKey`, read without starting an SDK.
    public static func inspectStorage(_ storageDirectory: String, apiKey: String) throws(BlinkEngageError) -> BlinkEngageStorageInfo {
        do throws(EngineFailure) {
            return BlinkEngageStorageInfo(try StorageInspection.inspect(root: storageDirectory, apiKey: apiKey))
        } catch {
            throw BlinkEngageError(error)
        }
    }

    /// The library's version, "MAJOR.MINOR.PATCH".
    public static var version: String { LibraryVersion.string }
}
