@testable import BlinkEngageCore
import Foundation
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

    @Test func thresholdZeroTurnsTheBreakerOff() throws {
        let directory = NSTemporaryDirectory() + "be-breaker-off-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = BreakerFile(directory: try StorageDirectory.at(directory))
        #expect(file.write(CrashLoopBreaker.Record(consecutive: 2, marked: true)))  // a row that means safe mode
        let logger = Logger(handler: nil, minimumLevel: .error)
        let off = CrashLoopGuard(directory: try StorageDirectory.at(directory), threshold: 0, logger: logger)
        #expect(off.mode == .normal)
        #expect(off.moveAside() == nil)
        off.startFinished()
        #expect(file.read() == CrashLoopBreaker.Record(consecutive: 2, marked: true))  // not read, not written
        #expect(CrashLoopGuard(directory: try StorageDirectory.at(directory), logger: logger).mode == .safe)  // the default counts it
    }

    @Test func recordsRoundTrip() {
        for record in [CrashLoopBreaker.Record(consecutive: 0, marked: false), CrashLoopBreaker.Record(consecutive: 3, marked: true)] {
            #expect(CrashLoopBreaker.Record(text: record.text) == record)
        }
    }
}
