@testable import BlinkEngageCore
import Testing

/// The crash-loop breaker's policy without I/O: starts in a row, each dying inside a window (true) or not.
struct CrashLoopBreakerTests {
    @Test func aRowOfDeathsLeadsToSafeModeThenInertThenSafeAgain() {
        var record: CrashLoopBreaker.Record?
        var modes: [CrashLoopBreaker.Mode] = []
        // Each start: decide, then die inside the window (the record stays marked).
        for _ in 0..<7 {
            let breaker = CrashLoopBreaker(previous: record)
            modes.append(breaker.mode)
            record = breaker.record
        }
        #expect(modes == [.normal, .normal, .normal, .safe, .inert, .safe, .inert])
    }

    @Test func aStartThatFinishesItsWindowsBreaksTheRow() {
        var record: CrashLoopBreaker.Record? = CrashLoopBreaker(previous: nil).record
        record = CrashLoopBreaker(previous: record).record  // two starts died in the window
        let finished = CrashLoopBreaker(previous: record)
        #expect(finished.mode == .normal)
        record = finished.cleared  // it closed its windows, then the process ended however it did
        #expect(CrashLoopBreaker(previous: record).mode == .normal)
        #expect(CrashLoopBreaker(previous: record).record.consecutive == 0)
    }

    @Test(arguments: ["", "v1 3 1", "v1 3 2\n", "v2 3 1\n", "v1 -3 1\n", "v1 99999 1\n", "v1 3 1\nx", "v1  3 1\n"])
    func aDamagedRecordReadsAsNone(text: String) {
        #expect(CrashLoopBreaker.Record(text: Array(text.utf8)) == nil)
    }

    @Test func recordsRoundTrip() {
        for record in [CrashLoopBreaker.Record(consecutive: 0, marked: false), CrashLoopBreaker.Record(consecutive: 3, marked: true)] {
            #expect(CrashLoopBreaker.Record(text: record.text) == record)
        }
    }
}
