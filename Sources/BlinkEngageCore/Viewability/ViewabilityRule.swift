/// When an offer on screen becomes a viewable impression: at least `threshold` of its pixels visible for at
/// least `durationNanoseconds` without a break (the MRC display rule by default: half, for one second).
public struct ViewabilityRule: Sendable, Equatable {
    public static let mrc = ViewabilityRule(uncheckedThreshold: 0.5, durationNanoseconds: 1_000_000_000)
    /// The longest duration taken: ten minutes (a longer one is a mistake, not a rule).
    public static let maximumMilliseconds: UInt32 = 600_000

    public let threshold: Double
    public let durationNanoseconds: UInt64

    /// - Throws: `.invalidArgument` for a threshold outside (0, 1] (NaN included) or a duration past ten minutes.
    public init(threshold: Double, milliseconds: UInt32) throws(EngineFailure) {
        guard threshold > 0, threshold <= 1 else { throw .invalidArgument("the visible fraction must be above 0 and at most 1") }
        guard milliseconds <= Self.maximumMilliseconds else {
            throw .invalidArgument("the viewable duration is at most \(Self.maximumMilliseconds) ms")
        }
        self.init(uncheckedThreshold: threshold, durationNanoseconds: UInt64(milliseconds) * 1_000_000)
    }

    private init(uncheckedThreshold: Double, durationNanoseconds: UInt64) {
        threshold = uncheckedThreshold
        self.durationNanoseconds = durationNanoseconds
    }
}

/// One offer's view under a `ViewabilityRule`: a policy without I/O, threads or a clock of its own (the caller
/// says what time it is), tested as tables and against a reference model (ViewabilityTests).
///
/// A view begins when the fraction reaches the threshold and becomes a viewable impression once it has stayed
/// there for the duration; dropping below first ends it with nothing counted. A counted view counts nothing
/// more until the offer drops below the threshold: coming back begins a new view.
struct ViewState: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        case away
        case viewing(since: UInt64)
        case counted
    }

    private(set) var phase = Phase.away

    /// The instant the view in progress becomes viewable; nil when none is in progress.
    func deadline(_ rule: ViewabilityRule) -> UInt64? {
        guard case .viewing(let since) = phase else { return nil }
        let (end, overflow) = since.addingReportingOverflow(rule.durationNanoseconds)
        return overflow ? UInt64.max : end
    }

    /// Time passes to `now` with the fraction unchanged. Returns the instant of the viewable impression the view
    /// reached meanwhile (the deadline, not `now`), or nil.
    mutating func advance(to now: UInt64, _ rule: ViewabilityRule) -> UInt64? {
        guard let end = deadline(rule), end != UInt64.max, now >= end else { return nil }
        phase = .counted
        return end
    }

    /// The offer is `fraction` visible from `now` on. Returns the instant of a viewable impression this change
    /// reveals: one the view reached before it, or, with a zero duration, the view it begins.
    mutating func report(_ fraction: Double, at now: UInt64, _ rule: ViewabilityRule) -> UInt64? {
        let reached = advance(to: now, rule)
        if fraction >= rule.threshold {
            if phase == .away { phase = .viewing(since: now) }
        } else {
            phase = .away
        }
        return reached ?? advance(to: now, rule)
    }
}
