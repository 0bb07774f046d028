internal import BlinkEngageCore
import Dispatch

/// Where the handlers of the completion-handler calls run (``BlinkEngageSDK/loadOfferFeed(completion:)``,
/// ``BlinkEngageSDK/fetchZoneAd(_:completion:)``, ``BlinkEngageSDK/fetchImage(_:completion:)``). An `async` call
/// is not affected: its task goes on on its own executor.
///
/// The feed guide's handlers touch views, so on Apple platforms they run on the main queue by default. On Linux a
/// main queue runs only under `dispatchMain()` or a run loop, so the default there is the SDK's own delivery. A
/// handler given to a queue that does not run it within 5 seconds is not lost silently: the log says so, once per
/// start, as an error naming the queue.
public enum BlinkEngageCallbackQueue: Sendable {
    /// `DispatchQueue.main`: the default on Apple platforms.
    case main
    /// A queue of the host's.
    case queue(DispatchQueue)
    /// Where the SDK delivers: its callback thread `be-callbacks`, or the thread in
    /// ``BlinkEngageSDK/dispatch(maximum:)`` with ``BlinkEngageConfiguration/CallbackMode/dispatch``. The default
    /// on Linux.
    case sdkThread

    /// `.main` on Apple platforms, `.sdkThread` elsewhere.
    public static var platformDefault: Self {
        #if canImport(Darwin)
        return .main
        #else
        return .sdkThread
        #endif
    }
}

extension BlinkEngageCallbackQueue {
    /// Runs `body` later, never inside the caller's call: on this queue, or for ``sdkThread`` (whose thread may be
    /// gone or not started) on a global queue. For handlers answered without the engine.
    func later(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .main: DispatchQueue.main.async(execute: body)
        case .queue(let queue): queue.async(execute: body)
        case .sdkThread: DispatchQueue.global().async(execute: body)
        }
    }
}

/// A started engine with the queue its completion handlers go to.
struct RunningSDK: Sendable {
    let engine: SDK
    let callbackQueue: BlinkEngageCallbackQueue
    /// Whether the queue has run a handler yet (then it is known to run: no more watching), whether a check is
    /// pending, and whether the log already said it does not run (once per start).
    private let queueState = Locked((ran: false, watching: false, reported: false))

    init(engine: SDK, callbackQueue: BlinkEngageCallbackQueue) {
        self.engine = engine
        self.callbackQueue = callbackQueue
    }

    static let stallNanoseconds: UInt64 = 5_000_000_000

    /// `completion` made to run where the configuration says. Until the queue has run one handler, one check at a
    /// time looks 5 s after a handler was given to it; once it has, nothing is scheduled (an idle SDK wakes no
    /// thread).
    func delivering<Value: Sendable>(_ completion: @escaping @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
        let queue: DispatchQueue, name: String
        switch callbackQueue {
        case .sdkThread: return completion
        case .main: (queue, name) = (.main, "the main queue")
        case .queue(let host): (queue, name) = (host, "the callback queue \(host.label)")
        }
        return { [engine, queueState] value in
            queue.async {
                queueState.withLock { $0.ran = true }
                completion(value)
            }
            let watch = queueState.withLock { state -> Bool in
                guard !state.ran, !state.watching, !state.reported else { return false }
                state.watching = true
                return true
            }
            guard watch else { return }
            engine.afterDelay(nanoseconds: Self.stallNanoseconds) {
                let stalled = queueState.withLock { state -> Bool in
                    state.watching = false
                    guard !state.ran, !state.reported else { return false }
                    state.reported = true
                    return true
                }
                guard stalled else { return }
                engine.log(.error, "a completion handler has waited 5 s for \(name) to run it; on Linux the main queue runs only "
                    + "under dispatchMain() or a run loop: set BlinkEngageConfiguration.callbackQueue to .sdkThread or a queue that runs")
            }
        }
    }
}
