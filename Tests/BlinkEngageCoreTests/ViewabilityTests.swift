@testable import BlinkEngageCore
import Testing

/// The viewability rule as tables on a millisecond clock, the tracker with an injected clock and scheduler, and
/// both against a tiny reference model over random visibility traces.
struct ViewabilityTests {
    static let ms: UInt64 = 1_000_000
    static let t0: UInt64 = 5_000 * ms
    static let mrc = ViewabilityRule.mrc

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// (milliseconds after t0, fraction); a nil fraction is time passing with no report.
        let trace: [(UInt64, Double?)]
        /// Milliseconds after t0 of each viewable impression.
        let impressions: [UInt64]
        var testDescription: String { name }
    }

    @Test(arguments: [
        Row(name: "a second on screen counts once, at the second", trace: [(0, 1), (1000, nil), (5000, nil)], impressions: [1000]),
        Row(name: "999 ms is not a view", trace: [(0, 0.6), (999, nil), (999, 0.2), (5000, nil)], impressions: []),
        Row(name: "exactly 1000 ms is", trace: [(0, 0.6), (1000, 0.2)], impressions: [1000]),
        Row(name: "the threshold itself counts", trace: [(0, 0.5), (1000, nil)], impressions: [1000]),
        Row(name: "flicker at the threshold starts over each time",
            trace: [(0, 0.5), (400, 0.49), (401, 0.5), (1200, 0.49), (1201, 0.5), (2201, nil)], impressions: [2201]),
        Row(name: "changes above the threshold keep the view", trace: [(0, 0.5), (300, 1), (600, 0.7), (1000, nil)], impressions: [1000]),
        Row(name: "off screen and back is a new view", trace: [(0, 1), (1500, 0), (2000, 1), (3000, nil)], impressions: [1000, 3000]),
        Row(name: "a counted view counts no more while it lasts", trace: [(0, 1), (5000, 0.8), (9000, nil)], impressions: [1000]),
        Row(name: "a report after the deadline reveals the impression at the deadline", trace: [(0, 1), (4000, 0)], impressions: [1000]),
        Row(name: "never reaching the threshold counts nothing", trace: [(0, 0.49), (10_000, nil)], impressions: []),
    ])
    func followsTheRule(row: Row) {
        var view = ViewState()
        var seen: [UInt64] = []
        for (at, fraction) in row.trace {
            let now = Self.t0 + at * Self.ms
            let instant = fraction.map { view.report($0, at: now, Self.mrc) } ?? view.advance(to: now, Self.mrc)
            if let instant { seen.append((instant - Self.t0) / Self.ms) }
        }
        #expect(seen == row.impressions, "\(row.name)")
    }

    @Test func aZeroDurationCountsAtOnceAndRulesAreChecked() throws {
        let instant = try ViewabilityRule(threshold: 0.3, milliseconds: 0)
        var view = ViewState()
        #expect(view.report(0.3, at: Self.t0, instant) == Self.t0)
        #expect(view.report(0.9, at: Self.t0 + 1, instant) == nil)
        for (fraction, milliseconds) in [(0.0, 1000 as UInt32), (-0.1, 1000), (1.01, 1000), (Double.nan, 1000), (0.5, 600_001)] {
            #expect(throws: EngineFailure.self) { try ViewabilityRule(threshold: fraction, milliseconds: milliseconds) }
        }
        #expect(try ViewabilityRule(threshold: 1, milliseconds: 600_000).durationNanoseconds == 600_000 * Self.ms)
    }

    /// A clock the test moves, and a scheduler that keeps the checks for the test to run when their time comes.
    final class Harness: Sendable {
        let now = Locked(ViewabilityTests.t0)
        let checks = Locked<[(at: UInt64, run: @Sendable () -> Void)]>([])
        let counted = Locked<[(offer: ObjectIdentifier, instant: UInt64)]>([])
        let tracker: ViewTracker

        init(rule: ViewabilityRule = ViewabilityTests.mrc) {
            let now = now, checks = checks
            tracker = ViewTracker(rule: rule, clock: { now.withLock { $0 } }, schedule: { delay, run in
                let at = now.withLock { $0 } + delay
                checks.withLock { $0.append((at, run)) }
            })
            let counted = counted
            tracker.whenCounted { impression in counted.withLock { $0.append((ObjectIdentifier(impression.offer), impression.instant)) } }
        }

        /// Moves the clock to `milliseconds` after t0, running the checks that come due on the way, in order.
        func advance(to milliseconds: UInt64) {
            let target = ViewabilityTests.t0 + milliseconds * ViewabilityTests.ms
            while let next = checks.withLock({ checks -> (UInt64, @Sendable () -> Void)? in
                guard let index = checks.indices.min(by: { checks[$0].at < checks[$1].at }), checks[index].at <= target else { return nil }
                return checks.remove(at: index)
            }) {
                now.withLock { $0 = max($0, next.0) }
                next.1()
            }
            now.withLock { $0 = target }
        }

        func instants(of offer: Offer) -> [UInt64] {
            counted.withLock { $0.filter { $0.offer == ObjectIdentifier(offer) }.map { ($0.instant - ViewabilityTests.t0) / ViewabilityTests.ms } }
        }
    }

    static func offers(_ count: Int) throws -> [Offer] {
        let body = "{\"data\": {\"offers\": [" + (1...count).map { "{\"id\": \(100 + $0 % 2), \"title\": \"t\"}" }.joined(separator: ",") + "]}}"
        return try MomentsResponseDecoder.decodeBody(Array(body.utf8)).offers
    }

    @Test func twoOffersAtOnceAndTheSameOfferTwiceAreSeparateViews() throws {
        let harness = Harness()
        let offers = try Self.offers(3)  // ids 101, 100, 101: the first and last are the same offer, twice
        #expect(offers[0].id == offers[2].id)
        harness.tracker.report(offers[0], fraction: 1)
        harness.advance(to: 200)
        harness.tracker.report(offers[1], fraction: 0.7)
        harness.tracker.report(offers[2], fraction: 0.6)
        harness.advance(to: 1100)
        harness.tracker.report(offers[1], fraction: 0.1)  // 900 ms: nothing
        harness.advance(to: 1300)
        #expect(harness.instants(of: offers[0]) == [1000])
        #expect(harness.instants(of: offers[1]).isEmpty)
        #expect(harness.instants(of: offers[2]) == [1200])
        #expect(harness.tracker.impressions == 2)
        #expect(harness.tracker.activeViews == 2)  // two counted views still on screen; the one that left is gone
        harness.tracker.report(offers[0], fraction: 0)
        harness.tracker.report(offers[2], fraction: 0)
        #expect(harness.tracker.activeViews == 0)
    }

    @Test func flickerSchedulesOneCheckAtATimeAndShutdownCountsNothing() throws {
        let harness = Harness()
        let offer = try Self.offers(1)[0]
        for step in 0..<100 as Range<UInt64> {
            harness.advance(to: step * 10)
            harness.tracker.report(offer, fraction: step % 2 == 0 ? 0.5 : 0.4)
        }
        #expect(harness.checks.withLock { $0.count } == 1)
        harness.tracker.report(offer, fraction: 1)
        harness.tracker.stop()
        harness.advance(to: 60_000)
        harness.tracker.report(offer, fraction: 1)
        harness.advance(to: 120_000)
        #expect(harness.tracker.impressions == 0)
        #expect(harness.counted.withLock { $0.isEmpty })
    }

    /// The reference: a view is a maximal stretch at or above the threshold, and it counts at its start plus the
    /// duration if it lasts that long (and the trace reaches that instant).
    static func reference(_ trace: [(at: UInt64, fraction: Double)], end: UInt64, rule: ViewabilityRule) -> [UInt64] {
        var impressions: [UInt64] = []
        var start: UInt64?
        func close(at stop: UInt64) {
            if let begun = start, stop - begun >= rule.durationNanoseconds / ms { impressions.append(begun + rule.durationNanoseconds / ms) }
        }
        for (at, fraction) in trace {
            if fraction >= rule.threshold {
                if start == nil { start = at }
            } else {
                close(at: at)
                start = nil
            }
        }
        close(at: end)
        return impressions
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func agreesWithTheReferenceOverRandomTraces(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let rule = try ViewabilityRule(threshold: [0.5, 0.3, 1.0][Int(random.next() % 3)], milliseconds: [1000, 250, 0][Int(random.next() % 3)])
            let harness = Harness(rule: rule)
            let offer = try Self.offers(1)[0]
            var trace: [(at: UInt64, fraction: Double)] = []
            var at: UInt64 = 0
            for _ in 0..<Int(random.next() % 40) {
                at += random.next() % 700
                let fraction = [0, 0.29, 0.3, 0.49, 0.5, 0.51, 1][Int(random.next() % 7)]
                trace.append((at, fraction))
                harness.advance(to: at)
                harness.tracker.report(offer, fraction: fraction)
            }
            let end = at + random.next() % 2000
            harness.advance(to: end)
            #expect(harness.instants(of: offer) == Self.reference(trace, end: end, rule: rule), "seed \(seed), trace \(trace)")
        }
    }
}
