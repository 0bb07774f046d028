import Foundation
import TestSupport
import Testing

/// Processes that die at random moments, and processes that share a storage directory, lose nothing and
/// deliver nothing twice that the server cannot drop (docs/PROTOCOL.md section 4).
@Suite(.serialized)
final class OutboxCrashTests {
    let sandbox: SandboxProcess
    let storage: String
    static let host = ProjectPaths.libraryDirectory.appendingPathComponent("OutboxCrashHost").path

    init() throws {
        sandbox = try SandboxProcess()
        storage = NSTemporaryDirectory() + "be-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: storage)
    }

    /// A running host whose output is collected as it arrives.
    final class Host: Sendable {
        let process = Process()
        /// Everything the host printed, once its pipe reached end of file.
        private let output = ConditionBox<Data?>(nil)

        init(_ arguments: [String]) throws {
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: OutboxCrashTests.host)
            process.arguments = arguments
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            // A thread of its own reads to end of file, so a chatty host never blocks on a full pipe. Not a
            // `readabilityHandler`: that is a dispatch read source, and tearing one down races in libdispatch's
            // epoll bookkeeping on Linux (swift-corelibs-libdispatch issue 949). The test process died once in
            // `_dispatch_event_loop_drain`, where that race lands, while these handlers were its only sources.
            let reader = pipe.fileHandleForReading, output = self.output
            let thread = Thread { output.set(reader.readDataToEndOfFile()) }
            thread.name = "crash-host-pipe"
            thread.start()
        }

        /// Waits for exit and returns everything printed.
        func finish() -> String {
            process.waitUntilExit()
            return String(decoding: output.wait { $0 }, as: UTF8.self)
        }

        func killNow() {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// The last index a host reported as durably queued, or -1.
    static func lastQueued(_ output: String) -> Int {
        output.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("queued ") else { return nil }
            return Int(line.dropFirst(7))
        }.last ?? -1
    }

    func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", path).utf8)) as! [String: Any]
    }

    @Test func killedHostsLoseNoEventAndNoBeacon() throws {
        let total = 1000
        var generator = SeededGenerator(seed: UInt64(Date().timeIntervalSince1970))
        print("crash test seed \(generator.seed)")
        try sandbox.addFault(#"{"path": "/v1/events", "status": 503}"#)
        try sandbox.addFault(#"{"path": "/b/", "status": 503}"#)
        var acknowledged = 0
        let runs = 24
        for run in 0..<runs {
            if run == runs / 2 { try sandbox.control("POST", "/_sandbox/faults/clear") }  // now it accepts
            let host = try Host(["enqueue", storage, sandbox.url, String(acknowledged), String(total), "evt"])
            // The kill lands at a random instant: while queueing, while retrying, or while delivering.
            usleep(UInt32.random(in: 20_000...400_000, using: &generator))
            host.killNow()
            let output = host.finish()
            acknowledged = max(acknowledged, Self.lastQueued(output) + 1)
        }
        // Queue whatever the kills interrupted, then let a surviving host deliver everything.
        let finishing = try Host(["enqueue", storage, sandbox.url, String(acknowledged), String(total), "evt"])
        let finished = finishing.finish()
        #expect(finished.contains("done"), "\(finished)")
        let drain = try Host(["drain", storage, sandbox.url, "120"])
        let drained = drain.finish()
        #expect(drained.contains("done"), "\(drained)")

        let events = try json("/_sandbox/events")
        let ids = Set((events["events"] as! [[String: Any]]).map { $0["id"] as! String })
        #expect(ids == Set((0..<total).map { "evt-\($0)" }), "missing events: \(Set((0..<total).map { "evt-\($0)" }).subtracting(ids).sorted().prefix(10))")
        let beacons = try json("/_sandbox/beacons")
        let hits = beacons["hits"] as! [String: Int]
        let missing = (0..<total).map { "/b/evt-\($0)" }.filter { hits[$0] == nil }
        #expect(missing.isEmpty, "missing beacons: \(missing.prefix(10))")
        let duplicates = (beacons["total"] as! Int) - hits.count
        print("crash test: \(runs) kills, \(events["distinct"] as! Int) distinct events of \(events["total"] as! Int) received; \(duplicates) duplicate beacons")
        let report = "runs=\(runs) events_distinct=\(events["distinct"] as! Int) events_received=\(events["total"] as! Int) beacon_duplicates=\(duplicates)\n"
        try? report.write(toFile: NSTemporaryDirectory() + "be-crash-report.txt", atomically: true, encoding: .utf8)
    }

    @Test func twoProcessesOnOneDirectoryDeliverEachItemOnce() throws {
        let first = try Host(["enqueue", storage, sandbox.url, "0", "500", "first"])
        let second = try Host(["enqueue", storage, sandbox.url, "0", "500", "second"])
        let outputs = [first.finish(), second.finish()]
        for output in outputs { #expect(output.contains("done"), "\(output)") }

        let events = try json("/_sandbox/events")
        #expect(events["distinct"] as! Int == 1000)
        #expect(events["total"] as! Int == 1000)  // not one event sent twice
        let beacons = try json("/_sandbox/beacons")
        let hits = beacons["hits"] as! [String: Int]
        #expect(hits.count == 1000)
        #expect(hits.values.allSatisfy { $0 == 1 })
    }
}

/// A value under a lock that a thread can wait on, for collecting a pipe's output from its reader thread.
final class ConditionBox<Value: Sendable>: @unchecked Sendable {
    // Safe: `value` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var value: Value
    init(_ value: Value) { self.value = value }

    func set(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `ready` makes something of the value, and returns that.
    func wait<Result>(_ ready: (Value) -> Result?) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready(value) { return result }
            condition.wait()
        }
    }
}

/// SplitMix64: random kill moments, and damaged texts, that a printed seed can reproduce.
struct SeededGenerator: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64
    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
