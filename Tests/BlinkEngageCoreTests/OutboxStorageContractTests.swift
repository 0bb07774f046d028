@testable import BlinkEngageCore
import Foundation
import Testing

/// One contract, two storages: every test runs against SQLite (a fresh storage directory) and memory.
@Suite struct OutboxStorageContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, memory
        var testDescription: String { rawValue }
    }

    /// A fresh storage of `kind`, with its directory (SQLite) removed when `body` returns.
    func with(_ kind: Kind, _ body: (any OutboxStorage) throws -> Void) throws {
        switch kind {
        case .memory:
            try body(MemoryOutboxStorage())
        case .sqlite:
            let path = NSTemporaryDirectory() + "be-contract-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: path) }
            try body(SQLiteOutboxStorage(database: try Database.current(at: path), directory: try StorageDirectory.at(path)))
        }
    }

    static func beacon(_ n: Int) -> OutboxItem.Payload { .beacon(url: "http://pixels.test/b/\(n)") }
    static func event(_ id: String, identity: String? = "u") -> OutboxItem.Payload {
        .event(json: #"{"id":"\#(id)"}"#, identity: identity, privacy: "gdpr=1")
    }

    @Test(arguments: Kind.allCases) func insertsKeepOrderAndEveryField(kind: Kind) throws {
        try with(kind) { storage in
            var seen: [Int64] = []
            let ids = try storage.insert([(Self.beacon(1), 10), (Self.event("e", identity: nil), 11), (Self.event("f"), 12)],
                                         movingJournal: nil) { seen = $0 }
            #expect(seen == ids)
            #expect(ids.count == 3 && ids[0] > 0 && ids[0] < ids[1] && ids[1] < ids[2])
            let later = try storage.insert(Self.beacon(2), createdMilliseconds: 13)
            #expect(later > ids[2])
            let rows = storage.load(afterID: 0).rows
            #expect(rows.map(\.item.id) == ids + [later])
            #expect(rows.map(\.item.payload) == [Self.beacon(1), Self.event("e", identity: nil), Self.event("f"), Self.beacon(2)])
            #expect(rows.map(\.item.createdMilliseconds) == [10, 11, 12, 13])
            #expect(rows.allSatisfy { $0.attempts == 0 && $0.nextAttemptMilliseconds == 0 })
            #expect(storage.load(afterID: ids[1]).rows.map(\.item.id) == [ids[2], later])
            #expect(storage.storedIDs() == Set(ids + [later]))
        }
    }

    @Test(arguments: Kind.allCases) func deletesAndAttemptsAreKept(kind: Kind) throws {
        try with(kind) { storage in
            let ids = try storage.insert((1...5).map { (Self.beacon($0), Int64($0)) }, movingJournal: nil, then: { _ in })
            var ran = false
            storage.delete([ids[0], ids[1], ids[3]]) { ran = true }
            #expect(ran)
            storage.recordAttempt(id: ids[2], attempts: 3, nextAttemptMilliseconds: 99_000)
            storage.recordAttempt(id: ids[0], attempts: 1, nextAttemptMilliseconds: 1)  // gone: nothing comes back
            let rows = storage.load(afterID: 0).rows
            #expect(rows.map(\.item.id) == [ids[2], ids[4]])
            #expect(rows[0].attempts == 3 && rows[0].nextAttemptMilliseconds == 99_000)
            // Ids are never reused, even after deletes.
            #expect(try storage.insert(Self.beacon(6), createdMilliseconds: 6) > ids[4])
        }
    }

    @Test(arguments: Kind.allCases) func ownWritesLeaveTheDataVersionAlone(kind: Kind) throws {
        try with(kind) { storage in
            let before = storage.dataVersion()
            let id = try storage.insert(Self.beacon(1), createdMilliseconds: 1)
            storage.delete([id])
            storage.checkpoint()
            #expect(storage.dataVersion() == before)
            #expect(storage.damageAtOpen == nil)
        }
    }

    /// A journal's move is one transaction with its progress: a storage with journals records it, and recovery
    /// of a dead journal moves only what comes after it.
    @Test(arguments: Kind.allCases) func journalsAreMadeMovedAndRecovered(kind: Kind) throws {
        try with(kind) { storage in
            guard var journal = try storage.makeJournal() else {
                #expect(kind == .memory)  // keeps none: each report is an insert
                #expect(storage.recoverDeadJournals(except: nil).recovered == 0)
                return
            }
            let payloads = (0..<3).map { Self.event("j\($0)") }
            var ends: [Int] = []
            for payload in payloads {
                try journal.append(try #require(JournalRecord.encode(payload, createdMilliseconds: 5)))
                ends.append(journal.size)
            }
            try storage.insert([(payloads[0], 5)], movingJournal: (journal.name, ends[0]), then: { _ in })
            // Alive: its own journal is never taken for a dead one.
            #expect(storage.recoverDeadJournals(except: nil).recovered == 0)
            journal.retire(consumed: ends[0])  // closed with two records unmoved: what a death leaves
            let recovery = storage.recoverDeadJournals(except: nil)
            #expect(recovery.recovered == 2 && recovery.damaged.isEmpty && recovery.failed.isEmpty)
            #expect(storage.load(afterID: 0).rows.map(\.item.payload) == payloads)
            #expect(storage.recoverDeadJournals(except: nil).recovered == 0)  // moved once
        }
    }

    /// The storage's rule: a read and its adoption never overlap a write and its bookkeeping, whatever the threads.
    @Test(arguments: Kind.allCases) func readsNeverRunBesideWrites(kind: Kind) throws {
        try with(kind) { storage in
            let inside = Locked(0), overlaps = Locked(0)
            let enter: @Sendable () -> Void = { if inside.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } } }
            let leave: @Sendable () -> Void = { inside.withLock { $0 -= 1 } }
            let ids = try storage.insert((1...200).map { (Self.beacon($0), 1) }, movingJournal: nil, then: { _ in })
            let threads = try (0..<3).map { worker in
                try NativeThread(name: "be-contract-\(worker)") {
                    for round in 0..<60 {
                        switch worker {
                        case 0:
                            storage.load(afterID: 0) { _, _ in enter(); usleep(50); leave() }
                        case 1:
                            storage.delete([ids[round]]) { enter(); usleep(50); leave() }
                        default:
                            _ = try? storage.insert([(Self.beacon(round), 1)], movingJournal: nil) { _ in enter(); usleep(50); leave() }
                        }
                    }
                }
            }
            for thread in threads { thread.join() }
            #expect(overlaps.withLock { $0 } == 0)
            #expect(storage.storedIDs()?.count == 200 - 60 + 60)
        }
    }
}
