@testable import BlinkEngageCore
import Testing

/// The driven transport's timer policy without I/O: which deadlines libcurl asks for set the timer, and that a
/// deadline is never passed without the timer expiring at or before it.
struct TimeoutTimerTests {
    static let second: UInt64 = 1_000_000_000

    /// One step: at `now`, libcurl asks `milliseconds`, or (nil) the timer fires. `sets` is the instant the
    /// timer is set to, nil when it is left alone.
    struct Step: Sendable, CustomTestStringConvertible {
        let now: UInt64
        let milliseconds: Int?
        let sets: UInt64?
        var testDescription: String { "at \(now): \(milliseconds.map { "asks \($0)" } ?? "fires") -> \(sets.map(String.init) ?? "-")" }
    }

    @Test(arguments: [
        // Back-to-back fetches with a 10 s timeout: only the first sets the timer.
        [Step(now: 1 * second, milliseconds: 0, sets: nil),
         Step(now: 1 * second, milliseconds: 10_000, sets: 11 * second),
         Step(now: 2 * second, milliseconds: -1, sets: nil),
         Step(now: 2 * second, milliseconds: 0, sets: nil),
         Step(now: 2 * second, milliseconds: 10_000, sets: nil),
         Step(now: 3 * second, milliseconds: -1, sets: nil)],
        // An earlier deadline sets the timer again; a later one does not.
        [Step(now: 0, milliseconds: 5_000, sets: 5 * second),
         Step(now: 0, milliseconds: 200, sets: 200_000_000),
         Step(now: 0, milliseconds: 300, sets: nil)],
        // Fired early: libcurl, called for the timeout, tells its deadline again, which sets the timer.
        [Step(now: 0, milliseconds: 1_000, sets: 1 * second),
         Step(now: 1 * second / 2, milliseconds: 1_000, sets: nil),
         Step(now: 1 * second, milliseconds: nil, sets: nil),
         Step(now: 1 * second, milliseconds: 500, sets: 3 * second / 2)],
        // Fired with nothing wanted (a stale setting): nothing set afterwards until libcurl asks.
        [Step(now: 0, milliseconds: 1_000, sets: 1 * second),
         Step(now: 0, milliseconds: -1, sets: nil),
         Step(now: 1 * second, milliseconds: nil, sets: nil),
         Step(now: 2 * second, milliseconds: 1_000, sets: 3 * second)],
        // Numbers no clock reaches set nothing and trap nowhere.
        [Step(now: UInt64.max - 1, milliseconds: 1, sets: nil),
         Step(now: 0, milliseconds: Int.max, sets: nil),
         Step(now: 0, milliseconds: Int.min, sets: nil),
         Step(now: 0, milliseconds: 1, sets: 1_000_000)],
    ])
    func setsTheTimerOnlyForAnEarlierDeadline(steps: [Step]) {
        var timer = TimeoutTimer()
        for step in steps {
            if let milliseconds = step.milliseconds {
                #expect(timer.libcurlAsks(milliseconds, now: step.now) == step.sets, "\(step.testDescription)")
                #expect(timer.dueNow == (milliseconds == 0))
            } else {
                timer.fired()
                #expect(timer.expiry == nil)
            }
        }
    }

    /// Whatever libcurl asks in whatever order, the timer expires at or before every deadline libcurl still
    /// wants, so a fire (and libcurl telling its deadline again) always comes in time.
    @Test func neverExpiresAfterTheDeadlineLibcurlWants() {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<200 {
            var timer = TimeoutTimer()
            var now: UInt64 = 0
            for _ in 0..<50 {
                now += generator.next() % (2 * Self.second)
                let choice = generator.next() % 4
                let milliseconds = choice == 0 ? -1 : choice == 1 ? 0 : Int(generator.next() % 20_000) + 1
                if let expiry = timer.expiry, expiry <= now {
                    timer.fired()  // the drive reads the timer; libcurl, called, asks again below
                }
                _ = timer.libcurlAsks(milliseconds, now: now)
                if milliseconds > 0 {
                    let deadline = now + UInt64(milliseconds) * 1_000_000
                    #expect(timer.expiry != nil && timer.expiry! <= deadline)
                }
            }
        }
    }

    @Test func aDueTimeoutIsKeptVisibleOnlyWhenDue() {
        var timer = TimeoutTimer()
        #expect(timer.keepDueVisible(now: 7) == nil)
        _ = timer.libcurlAsks(0, now: 7)
        #expect(timer.keepDueVisible(now: 7) == 7)
        #expect(timer.expiry == 7)
        // Set to now, it is earlier than any deadline: a later one leaves it.
        #expect(timer.libcurlAsks(5, now: 8) == nil)
    }
}
