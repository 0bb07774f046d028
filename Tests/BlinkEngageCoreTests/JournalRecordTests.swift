@testable import BlinkEngageCore
import Foundation
import Testing

/// The journal's record format without a file: what goes in comes out, and a torn or damaged record ends the
/// readable part instead of being read as something else.
struct JournalRecordTests {
    static let payloads: [OutboxItem.Payload] = [
        .beacon(url: "https://t.example/p?o=1&cb={cbuster}"),
        .event(json: #"{"id":"e1","type":"did_tap"}"#, identity: "user-1", privacy: "gdpr=1&gdpr_consent=abc"),
        .event(json: #"{"id":"e2","type":"did_appear"}"#, identity: nil),
        .event(json: #"{"id":"é3","type":"did_appear","name":"Zoë 🎁"}"#, identity: "", privacy: ""),
    ]

    @Test(arguments: payloads)
    func aRecordReadsBackAsWritten(payload: OutboxItem.Payload) throws {
        let bytes = try #require(JournalRecord.encode(payload, createdMilliseconds: 1_764_000_000_123))
        let (records, damaged) = JournalRecord.decode(bytes)
        #expect(!damaged)
        #expect(records == [JournalRecord.Decoded(payload: payload, createdMilliseconds: 1_764_000_000_123, end: bytes.count)])
    }

    /// Three records back to back, and the offsets where each ends.
    static func three() -> (bytes: [UInt8], ends: [Int]) {
        var bytes: [UInt8] = [], ends: [Int] = []
        for (index, payload) in payloads.prefix(3).enumerated() {
            bytes += JournalRecord.encode(payload, createdMilliseconds: Int64(index))!
            ends.append(bytes.count)
        }
        return (bytes, ends)
    }

    @Test func readingStartsWhereTheDatabaseSaysTheJournalWasMoved() {
        let (bytes, ends) = Self.three()
        #expect(JournalRecord.decode(bytes).records.count == 3)
        #expect(JournalRecord.decode(bytes, from: ends[0]).records.map(\.createdMilliseconds) == [1, 2])
        let atEnd = JournalRecord.decode(bytes, from: ends[2])
        #expect(atEnd.records.isEmpty && !atEnd.damaged)
        let pastEnd = JournalRecord.decode(bytes, from: ends[2] + 100)
        #expect(pastEnd.records.isEmpty && !pastEnd.damaged)
    }

    /// (what is done to the three records, how many stay readable)
    static let damage: [(String, @Sendable ([UInt8], [Int]) -> [UInt8], Int)] = [
        ("the last record torn by the death of its writer", { bytes, _ in Array(bytes.dropLast(5)) }, 2),
        ("only the last record's header written", { bytes, ends in Array(bytes.prefix(ends[1] + 3)) }, 2),
        ("a flipped byte in the second body", { bytes, ends in var b = bytes; b[ends[0] + 20] ^= 0x40; return b }, 1),
        ("a length far past the end", { bytes, ends in var b = bytes; b[ends[0] + 3] = 0x7F; return b }, 1),
        ("a length over the record cap", { bytes, _ in var b = bytes; b[2] = 0x20; return b }, 0),
        ("garbage after the records", { bytes, _ in bytes + [1, 2, 3, 4, 5, 6, 7, 8, 9] }, 3),
    ]

    @Test(arguments: damage.indices)
    func aTornOrDamagedRecordEndsTheReadablePart(index: Int) {
        let (name, harm, readable) = Self.damage[index]
        let (bytes, ends) = Self.three()
        let (records, damaged) = JournalRecord.decode(harm(bytes, ends))
        #expect(records.count == readable, "\(name)")
        #expect(damaged, "\(name)")
        #expect(records.map(\.payload) == Array(Self.payloads.prefix(readable)), "\(name)")
    }

    @Test func aRecordWithAValidChecksumButAnUnknownKindIsDamage() {
        var body: [UInt8] = [9] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + [0, 0, 0, 0]
        let hash = FNV1a.hash(body[...])
        let sum = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        body = withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + withUnsafeBytes(of: sum.littleEndian, Array.init) + body
        let (records, damaged) = JournalRecord.decode(body)
        #expect(records.isEmpty && damaged)
    }

    @Test func anItemOverTheRecordCapIsNotEncoded() {
        let huge = String(repeating: "x", count: JournalRecord.maximumBody)
        #expect(JournalRecord.encode(.beacon(url: "https://t.example/" + huge), createdMilliseconds: 0) == nil)
    }
}

/// `be_storage_inspect` counts what is still in journals as queued.
struct JournalInspectionTests {
    @Test func reportsStillInAJournalCountAsQueued() throws {
        let root = NSTemporaryDirectory() + "be-inspect-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = StorageLocation.directory(root: root, apiKey: "inspect-key")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let database = try Database.current(at: directory)
        let created = Int64(Date().timeIntervalSince1970 * 1000) - 90_000
        var journal = try OutboxJournal(directory: try StorageDirectory.at(directory))
        let payloads: [OutboxItem.Payload] = [.event(json: #"{"id":"a"}"#, identity: nil), .beacon(url: "https://t.example/b"),
                                              .event(json: #"{"id":"b"}"#, identity: "u")]
        for payload in payloads { try journal.append(try #require(JournalRecord.encode(payload, createdMilliseconds: created))) }
        var info = try StorageInspection.inspect(root: root, apiKey: "inspect-key")
        #expect(info.eventsQueued == 2 && info.beaconsQueued == 1)
        #expect(info.oldestItemAgeSeconds >= 90)
        // Once moved, they are counted from the table, not twice.
        try SQLiteOutboxStorage(database: database).insert(payloads.map { ($0, created) }, movingJournal: (journal.name, journal.size),
                                                           then: { _ in })
        info = try StorageInspection.inspect(root: root, apiKey: "inspect-key")
        #expect(info.eventsQueued == 2 && info.beaconsQueued == 1)
        journal.retire(consumed: journal.size)
    }
}
