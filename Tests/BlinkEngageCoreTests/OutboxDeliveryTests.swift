@testable import BlinkEngageCore
import Foundation
import TestSupport
import Testing

/// The durable outbox against the sandbox: every item arrives through faults, drops are counted, order holds.
@Suite(.serialized)
final class OutboxDeliveryTests {
    let sandbox: SandboxProcess
    let transport: CurlTransport
    let storage: String

    init() throws {
        sandbox = try SandboxProcess()
        transport = try CurlTransport()
        storage = NSTemporaryDirectory() + "be-outbox-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
    }

    deinit {
        transport.shutdown()
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: storage)
    }

    func makeOutbox(maximumItems: Int = 10_000, maximumAgeSeconds: Int64 = 86_400, timeout: UInt32 = 30_000,
                    engageURL: String? = nil) throws -> Outbox {
        var settings = Outbox.Settings(
            apiKey: "demo-key", engageURL: engageURL ?? sandbox.url, userAgent: "outbox-tests", timeoutMilliseconds: timeout,
            maximumItems: maximumItems, maximumAgeSeconds: maximumAgeSeconds)
        settings.firstRetryNanoseconds = 20_000_000  // fast retries keep the test short; the rules are the same
        return try Outbox(settings: settings, database: try openDatabase(), directory: try StorageDirectory.at(storage), transport: transport,
                          logger: Logger(handler: nil, minimumLevel: .error))
    }

    func openDatabase() throws -> Database {
        try Database.current(at: storage)
    }

    func stop(_ outbox: Outbox) {
        outbox.stopDelivering()
        outbox.close()
    }

    func event(_ id: String, type: String = "did_appear") -> String { #"{"id":"\#(id)","type":"\#(type)"}"# }

    func sandboxEvents() throws -> (distinct: Int, total: Int, ids: [String]) {
        let object = try JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", "/_sandbox/events").utf8)) as! [String: Any]
        let ids = (object["events"] as! [[String: Any]]).map { $0["id"] as! String }
        return (object["distinct"] as! Int, object["total"] as! Int, ids)
    }

    /// The event ids of each `/v1/events` request the sandbox took, in order.
    func eventBatches() throws -> [[String]] {
        try sandbox.requests().filter { ($0["path"] as? String) == "/v1/events" }.map { request in
            let body = Data((request["body"] as? String ?? "").utf8)
            let events = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["events"] as? [[String: Any]]
            return events?.compactMap { $0["id"] as? String } ?? []
        }
    }

    func sandboxBeacons() throws -> (total: Int, hits: [String: Int], order: [String]) {
        let object = try JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", "/_sandbox/beacons").utf8)) as! [String: Any]
        return (object["total"] as! Int, object["hits"] as! [String: Int], object["order"] as! [String])
    }

    /// Flushes until everything is delivered (each flush tries each item once), generously bounded.
    func deliverAll(_ outbox: Outbox) {
        for _ in 0..<200 where outbox.statistics.queueDepth > 0 {
            _ = outbox.flush(timeoutMilliseconds: 2000)
        }
    }

    @Test func deliversBeaconsWithFreshCacheBustersAndEventsInBatches() throws {
        // Queue everything while another owner holds the directory, so the batches show their cap.
        let blocker = try DirectoryOwnership(directory: try StorageDirectory.at(storage))
        #expect(blocker.tryAcquire().held)
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        try outbox.enqueueBeacon(url: sandbox.url + "/b/one?cb={cbuster}&x=%7BCBUSTER%7D&keep=%7Bother%7D")
        for index in 0..<250 { try outbox.enqueueEvent(json: event("e\(index)"), identity: "user-1") }
        blocker.release()
        #expect(outbox.flush(timeoutMilliseconds: 60_000) == .delivered)

        let beaconQuery = try sandbox.requests().first { ($0["path"] as? String) == "/b/one" }?["raw_query"] as? String
        let parts = (beaconQuery ?? "").split(separator: "&").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0].hasPrefix("cb=") && UInt64(parts[0].dropFirst(3)) != nil)
        #expect(parts[1].hasPrefix("x=") && UInt64(parts[1].dropFirst(2)) != nil)
        #expect(parts[2] == "keep=%7Bother%7D")  // anything else is sent exactly as given

        let events = try sandboxEvents()
        #expect(events.ids == (0..<250).map { "e\($0)" })  // queue order
        let batches = try sandbox.requests().filter { ($0["path"] as? String) == "/v1/events" }
        // 100 + 100 + 50, unless the delivery thread took the directory over in a round that began while the
        // reports were still coming: it sends what that round took in, then the rest in full batches (20 + 100 +
        // 100 + 30 and 55 + 100 + 95 were seen with busy loops beside the suite). The cap and the order are the
        // promise, and no short batch between the first and the last.
        let sizes = try eventBatches().map(\.count)
        #expect(sizes.reduce(0, +) == 250 && sizes.allSatisfy { $0 <= 100 } && sizes.dropFirst().dropLast().allSatisfy { $0 == 100 },
                "\(sizes)")
        let headers = batches[0]["headers"] as? [String: String] ?? [:]
        #expect(headers["content-type"] == "application/json")
        #expect(batches[0]["raw_query"] as? String == "api_key=demo-key")
        let statistics = outbox.statistics
        #expect(statistics.eventsQueued == 250 && statistics.eventsDelivered == 250)
        #expect(statistics.beaconsQueued == 1)
        #expect(statistics.beaconsDelivered == 1)
        #expect(statistics.queueDepth == 0)
        stop(outbox)
        #expect(SQLiteOutboxStorage(database: try openDatabase()).storedIDs()?.isEmpty == true)
    }

    @Test func everyItemArrivesThrough5xxStormsResetsAndTimeouts() throws {
        try sandbox.addFault(#"{"path": "/v1/events", "status": 503, "times": 4}"#)
        try sandbox.addFault(#"{"path": "/b/", "status": 500, "times": 3}"#)
        try sandbox.addFault(#"{"path": "/b/", "reset": true, "times": 2}"#)
        try sandbox.addFault(#"{"path": "/b/", "hang": true, "times": 1}"#)
        try sandbox.addFault(#"{"path": "/b/", "drop": true, "times": 2}"#)
        let outbox = try makeOutbox(timeout: 500)
        defer { stop(outbox) }
        for index in 0..<20 {
            try outbox.enqueueBeacon(url: sandbox.url + "/b/\(index)")
            try outbox.enqueueEvent(json: event("s\(index)"), identity: nil)
        }
        deliverAll(outbox)
        #expect(try sandboxEvents().distinct == 20)
        let beacons = try sandboxBeacons()
        #expect(Set(beacons.hits.keys) == Set((0..<20).map { "/b/\($0)" }))
        #expect(outbox.statistics.eventsDelivered == 20)
        #expect(outbox.statistics.beaconsDelivered == 20)
        #expect(outbox.statistics.droppedRejected == 0)
    }

    @Test func honoursRetryAfterOn429() throws {
        try sandbox.addFault(#"{"path": "/v1/events", "status": 429, "retry_after": 1, "times": 1}"#)
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        try outbox.enqueueEvent(json: event("late"), identity: nil)
        deliverAll(outbox)
        let times = try sandbox.requests().filter { ($0["path"] as? String) == "/v1/events" }.map { $0["time"] as! Double }
        #expect(times.count == 2)
        // The second attempt waited the second the server asked for (backoff alone would have waited ~20 ms).
        #expect(times[1] - times[0] >= 0.95)
        #expect(try sandboxEvents().ids == ["late"])
    }

    @Test func otherClientErrorsAreDroppedAndCountedNotRetried() throws {
        try sandbox.addFault(#"{"path": "/b/gone", "status": 410}"#)
        try sandbox.addFault(#"{"path": "/v1/events", "status": 400, "times": 1}"#)
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        try outbox.enqueueBeacon(url: sandbox.url + "/b/gone")
        try outbox.enqueueEvent(json: event("bad"), identity: nil)
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)  // dropped by rule counts as done
        let statistics = outbox.statistics
        #expect(statistics.droppedRejected == 2)
        #expect(statistics.beaconsDropped == 1 && statistics.eventsDropped == 1)
        #expect(try sandbox.requests().count == 2)  // one attempt each, no retry
    }

    // MARK: - Journals

    func journalRows(_ database: Database) throws -> Int {
        try database.withConnection { session throws(EngineFailure) -> Int in
            var count = 0
            try session.run("SELECT COUNT(*) FROM outbox_journal") { row throws(EngineFailure) in count = Int(row.integer(0)) }
            return count
        }
    }

    @Test func aDeadInstancesJournalIsRecoveredOnceFromWhereItWasMoved() throws {
        // An instance that died: three reports journaled, the first of them already moved into the database.
        let database = try openDatabase()
        let store = SQLiteOutboxStorage(database: database)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var journal = try OutboxJournal(directory: try StorageDirectory.at(storage))
        let payloads = (0..<3).map { OutboxItem.Payload.event(json: event("dead-\($0)"), identity: nil) }
        var firstEnd = 0
        for payload in payloads {
            try journal.append(try #require(JournalRecord.encode(payload, createdMilliseconds: now)))
            if firstEnd == 0 { firstEnd = journal.size }
        }
        try store.insert([(payloads[0], now)], movingJournal: (journal.name, firstEnd), then: { _ in })
        journal.retire(consumed: firstEnd)  // closed and kept, its lock gone with it: what a death leaves
        let path = storage + "/" + journal.name
        #expect(FileManager.default.fileExists(atPath: path))

        let outbox = try makeOutbox()
        // Recovered at start, or, if a process another test spawned at that instant still held a copy of the
        // descriptor (and so its lock), as soon as that copy closes and the directory watch sees it.
        let deadline = Date().addingTimeInterval(30)
        while FileManager.default.fileExists(atPath: path), Date() < deadline { usleep(10_000) }
        #expect(!FileManager.default.fileExists(atPath: path))
        // Never the first twice. The delivery thread may already have sent some, so the exact count is the
        // sandbox's below: each of the three once.
        #expect(outbox.storedItemCount().map { $0 <= 3 } == true)
        deliverAll(outbox)
        stop(outbox)
        let received = try sandboxEvents()
        #expect(received.ids.sorted() == ["dead-0", "dead-1", "dead-2"] && received.total == 3)

        // A later start finds nothing more, and the journal's progress row went with its file.
        let again = try makeOutbox()
        defer { stop(again) }
        #expect(again.storedItemCount() == 0)
        #expect(try journalRows(database) == 0)
    }

    @Test func aLiveInstancesJournalIsLeftToIt() throws {
        let blocker = try DirectoryOwnership(directory: try StorageDirectory.at(storage))  // a third owner: nothing is delivered meanwhile
        #expect(blocker.tryAcquire().held)
        let first = try makeOutbox()
        for index in 0..<40 { try first.enqueueEvent(json: event("live-\(index)"), identity: nil) }
        let second = try makeOutbox()  // starts beside it: must not take the first one's journal for a dead one
        for index in 40..<80 { try second.enqueueEvent(json: event("live-\(index)"), identity: nil) }
        blocker.release()
        deliverAll(first)
        deliverAll(second)
        // The instance that does not own the directory moves its reports into the database after its batch window,
        // and the owner then delivers them. Neither flush waits for that (the owner's has nothing of its own left,
        // the other's returns at once), so the wait is on the stored counts, bounded; a fixed number of flushes
        // could all pass before the move (one run in four, measured).
        let deadline = MonotonicClock.now() + 30_000_000_000
        while (first.storedItemCount() ?? 1) + (second.storedItemCount() ?? 1) > 0, MonotonicClock.now() < deadline {
            _ = first.flush(timeoutMilliseconds: 1000)
            _ = second.flush(timeoutMilliseconds: 1000)
            usleep(5_000)
        }
        stop(first)
        stop(second)
        let received = try sandboxEvents()
        // Should an event come twice, the requests say which (first id..last id, count).
        let requests = try eventBatches().map { "\($0.first ?? "")..\($0.last ?? "") (\($0.count))" }
        #expect(received.distinct == 80 && received.total == 80, "\(requests)")
    }

    @Test func erasureLeavesNoRecordInAJournal() throws {
        let blocker = try DirectoryOwnership(directory: try StorageDirectory.at(storage))
        #expect(blocker.tryAcquire().held)
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        for index in 0..<5 { try outbox.enqueueEvent(json: event("private-\(index)"), identity: "user-1") }
        #expect(outbox.eraseAll() == 5)
        let journals = try StorageDirectory.at(storage).files().filter { OutboxJournal.isJournal($0.name) }
        #expect(journals.count == 1 && journals.first?.size == 0)  // a fresh, empty one
        #expect(outbox.storedItemCount() == 0)
        blocker.release()
    }

    /// Files named like journals that are no journal a library wrote: a FIFO (reading it would block until a
    /// writer came), a directory, symbolic links to /etc/passwd and to another instance's journal, a 2 GB sparse
    /// file, records with absurd lengths. Start reads none of them as a journal, blocks on none, changes nothing
    /// they point to, and delivers as ever.
    @Test func filesThatAreNoJournalAreLeftAlone() throws {
        let other = NSTemporaryDirectory() + "be-outbox-other-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: other) }
        var foreign = try OutboxJournal(directory: try StorageDirectory.at(other))  // another storage directory's journal, of a dead instance
        try foreign.append(try #require(JournalRecord.encode(.event(json: event("foreign"), identity: nil), createdMilliseconds: 1)))
        let foreignSize = foreign.size
        foreign.retire(consumed: 0)
        let name = { (kind: String) in self.storage + "/" + OutboxJournal.prefix + kind + OutboxJournal.suffix }
        #expect(mkfifo(name("fifo"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: name("directory"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: name("passwd"), withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: name("foreign"), withDestinationPath: other + "/" + foreign.name)
        let sparse = open(name("sparse"), O_WRONLY | O_CREAT, 0o600)
        #expect(sparse >= 0 && ftruncate(sparse, 2 << 30) == 0)
        close(sparse)
        try Data([0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0x41, count: 64)).write(to: URL(fileURLWithPath: name("absurd")))
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))

        let outbox = try makeOutbox()  // returns: nothing above blocked it
        defer { stop(outbox) }
        try outbox.enqueueEvent(json: event("after-hostile-files"), identity: nil)
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)
        #expect(try sandboxEvents().ids == ["after-hostile-files"])  // nothing read from the links or the foreign journal
        #expect(try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd")) == passwd)
        #expect(FileManager.default.fileExists(atPath: other + "/" + foreign.name))
        #expect((try FileManager.default.attributesOfItem(atPath: other + "/" + foreign.name)[.size] as? Int) == foreignSize)
        var status = stat()
        #expect(lstat(name("sparse"), &status) == 0 && status.st_size == 2 << 30)
    }

    @Test func capDropsTheOldestAndCountsThem() throws {
        let blocker = try DirectoryOwnership(directory: try StorageDirectory.at(storage))  // another owner: nothing is delivered meanwhile
        #expect(blocker.tryAcquire().held)
        let outbox = try makeOutbox(maximumItems: 5)
        defer { stop(outbox) }
        for index in 0..<8 { try outbox.enqueueBeacon(url: sandbox.url + "/b/\(index)") }
        #expect(outbox.statistics.droppedOverflow == 3)
        #expect(outbox.statistics.queueDepth == 5)
        #expect(outbox.flush(timeoutMilliseconds: 1000) == .notOwner)
        blocker.release()
        let deadline = Date().addingTimeInterval(60)
        while outbox.statistics.queueDepth > 0, Date() < deadline { _ = outbox.flush(timeoutMilliseconds: 1000) }
        #expect(try sandboxBeacons().order == (3..<8).map { "/b/\($0)" })  // the newest five, in order
    }

    @Test func itemsOlderThanTheMaximumAgeAreDroppedAndCounted() throws {
        // Rows written by an earlier run, one of them two hours old.
        let store = SQLiteOutboxStorage(database: try openDatabase())
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try store.insert(.beacon(url: sandbox.url + "/b/old"), createdMilliseconds: now - 7_200_000)
        _ = try store.insert(.beacon(url: sandbox.url + "/b/new"), createdMilliseconds: now)
        let outbox = try makeOutbox(maximumAgeSeconds: 3600)
        defer { stop(outbox) }
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)
        #expect(outbox.statistics.droppedExpired == 1)
        #expect(try sandboxBeacons().order == ["/b/new"])
    }

    @Test func rowsThatCannotBeItemsAreDeletedAndCounted() throws {
        let database = try openDatabase()
        let store = SQLiteOutboxStorage(database: database)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try store.insert(.event(json: event("survivor"), identity: nil), createdMilliseconds: now)
        try database.withConnection { session throws(EngineFailure) in
            let insert = "INSERT INTO outbox (kind, body, identity, host, created_ms) VALUES (?, ?, ?, '', ?)"
            try session.run(insert, [.integer(7), .text("what kind is this"), .null, .integer(now)])                // unknown kind
            try session.run(insert, [.integer(0), .text("javascript:alert(1)"), .null, .integer(now)])              // not http(s)
            try session.run(insert, [.integer(1), .text("{\"id\": \"cut"), .null, .integer(now)])                  // not JSON
            try session.run("INSERT INTO outbox (kind, body, host, created_ms) VALUES (1, CAST(X'FFFE7B7D' AS TEXT), '', ?)",
                            [.integer(now)])                                                                        // not UTF-8
        }
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        #expect(outbox.statistics.corruptRecords == 4)
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)
        #expect(try sandboxEvents().ids == ["survivor"])
        #expect(try sandboxBeacons().total == 0)
        #expect(store.storedIDs()?.isEmpty == true)
    }

    /// A database that is not SQLite, is cut short, or fails quick_check is moved aside; the SDK works on.
    @Test(arguments: ["not-sqlite", "truncated", "damaged-page"])
    func aDamagedDatabaseIsMovedAsideAndReplaced(damage: String) throws {
        let path = storage + "/" + Database.fileName
        do {
            let store = SQLiteOutboxStorage(database: try openDatabase())
            for index in 0..<400 { _ = try store.insert(.beacon(url: sandbox.url + "/b/\(index)?padding=\(String(repeating: "x", count: 200))"),
                                                         createdMilliseconds: 1) }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        switch damage {
        case "not-sqlite": bytes = Array("this is not a database at all, just text\n".utf8)
        case "truncated": bytes = Array(bytes.prefix(bytes.count / 3))
        default: for index in stride(from: 4096 + 100, to: min(bytes.count, 4096 * 6), by: 7) { bytes[index] ^= 0x5A }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        #expect(outbox.statistics.corruptRecords == 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: storage).filter { $0.hasPrefix(Database.fileName + ".corrupt-") }
        #expect(aside.count == 1)
        try outbox.enqueueEvent(json: event("after"), identity: nil)
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)
        #expect(try sandboxEvents().ids == ["after"])
    }

    /// A database of another program's: valid SQLite, tables of the same names and other columns. The outbox
    /// must neither crash nor lose reports: it starts, and what is reported is delivered.
    @Test func aDatabaseWithAForeignSchemaIsNoOutbox() throws {
        do {
            _ = try Database(directory: try StorageDirectory.at(storage)) { session throws(EngineFailure) in
                for statement in ["CREATE TABLE outbox (name TEXT, colour INTEGER)", "INSERT INTO outbox VALUES ('x', 1)",
                                  "CREATE TABLE outbox_journal (a, b, c)", "CREATE TABLE settings (k BLOB)"] {
                    try session.run(statement)
                }
            }
        }
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        try outbox.enqueueEvent(json: event("after-foreign"), identity: nil)
        #expect(outbox.flush(timeoutMilliseconds: 30_000) == .delivered)
        #expect(try sandboxEvents().ids == ["after-foreign"])
    }

    @Test func aDeadHostNeverHoldsBackTheOthers() throws {
        let dead = "http://127.0.0.1:\(try unusedPort())/b/dead"
        let outbox = try makeOutbox()
        defer { stop(outbox) }
        try outbox.enqueueBeacon(url: dead)
        for index in 0..<5 { try outbox.enqueueBeacon(url: sandbox.url + "/b/\(index)") }
        try outbox.enqueueEvent(json: event("alive"), identity: nil)
        let deadline = Date().addingTimeInterval(60)
        while outbox.statistics.queueDepth > 1, Date() < deadline { _ = outbox.flush(timeoutMilliseconds: 500) }
        #expect(try sandboxBeacons().order == (0..<5).map { "/b/\($0)" })
        #expect(try sandboxEvents().ids == ["alive"])
        #expect(outbox.statistics.queueDepth == 1)  // the dead host's beacon, still queued, still retried
    }

    @Test func flushReturnsAtOnceWhenTheNetworkIsDown() throws {
        let outbox = try makeOutbox(engageURL: "http://127.0.0.1:\(try unusedPort())")
        defer { stop(outbox) }
        try outbox.enqueueEvent(json: event("offline"), identity: nil)
        let started = Date()
        #expect(outbox.flush(timeoutMilliseconds: 120_000) == .offline)
        // Not a speed limit: a refused connection answers at once; only a wait for the full timeout could fail this.
        #expect(Date().timeIntervalSince(started) < 100)
        #expect(outbox.statistics.queueDepth == 1)
    }

    @Test func unauthorizedEventsAskForANewTokenAndAreRetriedNotDropped() throws {
        /// Hands out a token the sandbox never issued until told it was refused, then a real one.
        final class Tokens: EventAuthorization, @unchecked Sendable {
            let refused = Locked(0)
            let fresh: String
            init(fresh: String) { self.fresh = fresh }
            func bearerToken(forIdentity identity: String?) -> String? { refused.withLock { $0 } == 0 ? "stale-token" : fresh }
            func tokenWasRefused(forIdentity identity: String?) { refused.withLock { $0 += 1 } }
        }
        let registration = try sandbox.control("POST", "/v1/users?api_key=demo-key", body: #"{"pub_user_id":"u1","device_id":"d"}"#)
        let fresh = try #require((try JSONSerialization.jsonObject(with: Data(registration.utf8)) as? [String: Any])?["token"] as? String)
        let tokens = Tokens(fresh: fresh)
        let outbox = try makeOutbox()
        outbox.setAuthorization(tokens)
        defer { stop(outbox) }
        try outbox.enqueueEvent(json: event("authorized"), identity: "u1")
        deliverAll(outbox)
        #expect(tokens.refused.withLock { $0 } == 1)
        let authorizations = try sandbox.requests().compactMap { ($0["headers"] as? [String: String])?["authorization"] }
        #expect(authorizations.count == 2)
        #expect(authorizations.first == "Bearer stale-token")
        #expect(authorizations.last == "Bearer \(fresh)")
        #expect(try sandboxEvents().ids == ["authorized"])
        #expect(outbox.statistics.eventsDropped == 0)
    }

    @Test func eventsAreRefusedWithoutAnEngageURL() throws {
        var settings = Outbox.Settings(apiKey: "k", engageURL: nil, userAgent: "t", timeoutMilliseconds: 1000, maximumItems: 10, maximumAgeSeconds: 10)
        settings.firstRetryNanoseconds = 1
        let outbox = try Outbox(settings: settings, database: nil, directory: nil, transport: transport, logger: Logger(handler: nil, minimumLevel: .error))
        defer { stop(outbox) }
        #expect(throws: EngineFailure.self) { try outbox.enqueueEvent(json: "{}", identity: nil) }
        #expect(throws: EngineFailure.self) { try outbox.enqueueBeacon(url: "javascript:alert(1)") }
    }
}
