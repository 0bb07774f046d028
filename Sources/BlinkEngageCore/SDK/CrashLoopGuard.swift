#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The crash-loop breaker at work in one SDK (CrashLoopBreaker.swift says what it does and why): the decision
/// taken at start, the record in the storage directory while a window is open, and the refusals of an inert SDK.
final class CrashLoopGuard: Sendable {
    let breaker: CrashLoopBreaker
    private let file: BreakerFile?
    /// The first answer's window was opened (it opens once per SDK).
    private let firstAnswerOpened = Locked(false)
    /// `breaker.lock` held shared while this instance is inside a window (-1: none).
    private let windowHold = Locked<Int32>(-1)

    /// Reads the record left by earlier starts, decides, and opens the start's window (unless inert). With
    /// `threshold` 0 the breaker is off: every start is normal and nothing is recorded.
    init(directory: StorageDirectory?, threshold: Int = CrashLoopBreaker.defaultThreshold, logger: Logger) {
        file = threshold > 0 ? directory.map { BreakerFile(directory: $0) } : nil
        // A mark left by an instance still inside its window (another SDK of this app, another process) is no
        // crash: only a mark no live instance holds counts.
        let entered = file?.enterWindow()
        var previous = file?.read()
        if entered?.othersInside == true { previous?.marked = false }
        breaker = CrashLoopBreaker(previous: previous, threshold: max(1, threshold))
        if let entered {
            // An inert start opens no window: its mark stays for the next start to count.
            if breaker.mode == .inert, entered.descriptor >= 0 { close(entered.descriptor) }
            if breaker.mode != .inert { windowHold.withLock { $0 = entered.descriptor } }
        }
        if let file, !file.write(breaker.record) {
            logger.warning("cannot write the crash-loop record in \(file.directory.path): repeated crashes at start will not be noticed")
        }
        switch breaker.mode {
        case .normal: break
        case .safe:
            logger.error("the last \(breaker.threshold) starts stopped while reading stored or remote data: starting in safe mode, with fresh state")
        case .inert:
            logger.error("safe mode stopped too: the SDK is inert for this process (fetches fail, reports stay in memory)")
        }
    }

    /// A start that failed part-way lets go of the lock too (its mark stays: it did not finish).
    deinit { releaseWindow() }

    var mode: CrashLoopBreaker.Mode { breaker.mode }

    /// Moves stored data aside for safe mode; the quarantine's path, if anything was moved.
    func moveAside() -> String? { file?.moveAside() }

    /// What a safe start moved aside, for a normal start to bring back; nil when there is none (or not now).
    func takeQuarantine() -> StorageDirectory? { breaker.mode == .normal ? file?.takeQuarantine() : nil }

    func keep(_ quarantine: StorageDirectory) { file?.keep(quarantine) }

    /// The start's stored-data work is done.
    func startFinished() {
        if breaker.mode != .inert { file?.write(breaker.cleared) }
        releaseWindow()
    }

    private func releaseWindow() {
        windowHold.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }  // closing lets go of the shared lock
            descriptor = -1
        }
    }

    /// The first answer of this SDK (a Moments fetch or prefetch, a feed load) opens a window from its request
    /// until it is decoded: `completion` wrapped to close it. Later answers pass through as they are.
    func watchingFirstAnswer<Value>(_ completion: @escaping @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
        guard breaker.mode != .inert, let file, firstAnswerOpened.withLock({ opened in defer { opened = true }; return !opened }) else {
            return completion
        }
        windowHold.withLock { $0 = file.enterWindow().descriptor }
        file.write(breaker.record)
        let cleared = breaker.cleared
        return { [self] value in
            file.write(cleared)
            releaseWindow()
            completion(value)
        }
    }

    /// Fetches of an inert SDK fail at once, with the reason.
    func refuseIfInert() throws(EngineFailure) {
        guard breaker.mode == .inert else { return }
        throw .invalidState("the SDK is inert for this process: the starts before it kept stopping while reading stored or remote data (see the log)")
    }
}
