@testable import BlinkEngageCore
import Foundation
import TestSupport
import Testing

/// Upgrades lose nothing: storage directories written by the real earlier releases (0.1.0 and 0.2.0, made by
/// scripts/make-storage-fixtures.sh and committed in Tests/Fixtures/storage) start today's library, and every
/// report they queued reaches the server exactly once, with the identity, feed cache and image they kept. A newer
/// format is left untouched, a damaged database gives up what can still be read, and the schema is the committed
/// one for the format it records.
@Suite(.serialized)
final class StoreFormatTests {
    let sandbox: SandboxProcess
    let root: String
    var directory: String { StorageLocation.directory(root: root, apiKey: "demo-key") }
    static let fixtures = ProjectPaths.root.appendingPathComponent("Tests/Fixtures/storage")

    init() throws {
        sandbox = try SandboxProcess()
        root = NSTemporaryDirectory() + "be-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The release's storage directory, copied where an SDK of "demo-key" under `root` finds it. "0.1.0+0.2.0" is
    /// an app that went through both: 0.2.0 left 0.1.0's files beside its database.
    func install(_ version: String) throws {
        let versions = version.split(separator: "+").map(String.init)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(versions.last!), to: URL(fileURLWithPath: directory))
        for older in versions.dropLast() {
            for name in [LegacyFormat.folder, LegacyFormat.identityFile, LegacyFormat.deviceIDFile] {
                try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("\(older)/\(name)").path,
                                                 toPath: directory + "/" + name)
            }
        }
    }

    /// The release's manifest; for several, their counts added up.
    func manifest(_ version: String) throws -> [String: Any] {
        var merged: [String: Any] = [:]
        for one in version.split(separator: "+") {
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("\(one).json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for (key, value) in manifest {
                if let count = value as? Int { merged[key] = (merged[key] as? Int ?? 0) + count } else { merged[key] = value }
            }
        }
        return merged
    }

    func start(feedCache: UInt32 = 0) throws -> SDK {
        var configuration = SDKConfiguration(apiKey: "demo-key")
        configuration.storageRoot = root
        try configuration.setEngageURL(sandbox.url)
        configuration.warmUpAtStart = false
        configuration.feedCacheMaxAgeSeconds = feedCache
        // The releases queued beacons to the sandbox of the day they ran, on another port: every request goes
        // through this one as a proxy, which answers a URL in absolute form by its path.
        try configuration.setProxy(sandbox.url)
        return try SDK(configuration: configuration)
    }

    func sandboxJSON(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(sandbox.control("GET", path).utf8)) as? [String: Any])
    }

    @Test(arguments: ["0.1.0", "0.2.0", "0.1.0+0.2.0"])
    func everyReportOfAnEarlierReleaseReachesTheServerOnce(version: String) throws {
        try install(version)
        let expected = try manifest(version)
        let events = try #require(expected["events"] as? Int), beacons = try #require(expected["beacons"] as? Int)
        #expect(events + beacons == expected["queued"] as? Int)
        do {
            let sdk = try start()
            defer { sdk.shutdown(timeoutMilliseconds: 1000) }
            #expect(sdk.registrar.currentIdentity == "fixture-user")
            let storage = try sdk.statistics().storage
            let carried = version.hasPrefix("0.1.0") ? try #require(try manifest("0.1.0")["queued"] as? Int) : 0
            #expect(storage.reportsMigrated == UInt64(carried))
            #expect(storage.reportsUnrecoverable == 0)
            try sdk.flush(timeoutMilliseconds: 60_000)
        }
        // A second start finds nothing more to send: nothing was carried or recovered twice.
        do {
            let again = try start()
            defer { again.shutdown(timeoutMilliseconds: 1000) }
            try again.flush(timeoutMilliseconds: 60_000)
            #expect(try again.statistics().storage.reportsMigrated == 0)
        }
        let received = try sandboxJSON("/_sandbox/events")
        #expect(received["distinct"] as? Int == events)
        #expect(received["total"] as? Int == events)
        #expect(try sandboxJSON("/_sandbox/beacons")["total"] as? Int == beacons)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!left.contains(LegacyFormat.folder) && !left.contains(LegacyFormat.identityFile) && !left.contains(LegacyFormat.deviceIDFile))
    }

    /// 0.1.0's device id is kept, so the service sees the same device.
    @Test func theDeviceIDOfAnEarlierReleaseIsKept() throws {
        try install("0.1.0")
        let stored = try String(contentsOfFile: directory + "/" + LegacyFormat.deviceIDFile, encoding: .utf8)
        let sdk = try start()
        defer { sdk.shutdown(timeoutMilliseconds: 1000) }
        #expect(sdk.registrar.deviceID == stored)
    }

    /// 0.2.0's feed cache answers a load the service fails, and its cached image a fetch, without a request.
    @Test func theFeedCacheAndImagesOfAnEarlierReleaseAnswer() throws {
        try install("0.2.0")
        let expected = try manifest("0.2.0")
        try sandbox.addFault(#"{"path": "/v1/offer-feed", "status": 503}"#)
        let sdk = try start(feedCache: 3650 * 86_400)
        defer { sdk.shutdown(timeoutMilliseconds: 1000) }
        let feed = ConditionBox<Result<OfferFeed, ServiceError>?>(nil)
        try sdk.loadOfferFeed { feed.set($0) }
        let loaded = try feed.wait { $0 }.get()
        #expect(loaded.id == expected["feed_id"] as? String)
        #expect(loaded.cacheAgeSeconds != nil)
        let image = ConditionBox<Result<Image, ServiceError>?>(nil)
        try sdk.fetchImage(url: try #require(expected["image_url"] as? String)) { image.set($0) }
        #expect(try image.wait { $0 }.get().isFromCache)
        #expect(try sdk.statistics().images.diskHits == 1)
    }

    /// Killed between the commit and the removal of 0.1.0's files: the next start finds every name recorded and
    /// only removes them.
    @Test func aStartThatDiesAfterTheMigrationsCommitMovesNothingTwice() throws {
        try install("0.1.0")
        let legacy = root + "/legacy-copy"
        try FileManager.default.copyItem(atPath: directory + "/" + LegacyFormat.folder, toPath: legacy)
        let storage = try StorageDirectory.at(directory)
        guard case .ready(_, let first) = try StoreFormat.open(storage) else { Issue.record("not ready"); return }
        #expect(first.from == 1 && first.carried == 13 && first.lost == 0)
        try FileManager.default.moveItem(atPath: legacy, toPath: directory + "/" + LegacyFormat.folder)
        guard case .ready(let database, let second) = try StoreFormat.open(storage) else { Issue.record("not ready"); return }
        #expect(second.carried == 0 && second.lost == 0)
        #expect(SQLiteOutboxStorage(database: database).storedIDs()?.count == 13)
        #expect(!FileManager.default.fileExists(atPath: directory + "/" + LegacyFormat.folder))
    }

    /// A crash inside the migration is a transaction that never committed: a database another connection holds
    /// locked makes the start fail, and nothing of 0.1.0's files or of the format has changed.
    @Test func aMigrationThatCannotCommitChangesNothing() throws {
        try install("0.1.0")
        let before = try FileManager.default.contentsOfDirectory(atPath: directory + "/" + LegacyFormat.folder)
        let holder = try Database(directory: try StorageDirectory.at(directory))
        try holder.withConnection { session throws(EngineFailure) in
            try session.run("CREATE TABLE IF NOT EXISTS unrelated (x)")
            try session.run("BEGIN IMMEDIATE")
        }
        #expect(throws: EngineFailure.self) { _ = try StoreFormat.open(try StorageDirectory.at(self.directory)) }
        try holder.withConnection { session throws(EngineFailure) in
            try session.run("ROLLBACK")
            #expect(try StoreFormat.userVersion(session) == 0)
            #expect(try !StoreFormat.hasTable("legacy_items", session))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/" + LegacyFormat.folder) == before)
    }

    /// A downgrade: a newer library's directory is left exactly as it is, and this start tracks in memory.
    @Test func aNewerFormatIsLeftUntouched() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            _ = try Database(directory: try StorageDirectory.at(directory)) { session throws(EngineFailure) in
                try session.run("CREATE TABLE future (x)")
                try session.run("INSERT INTO future VALUES ('kept')")
                try session.run("PRAGMA user_version = 99")
                try session.run("PRAGMA journal_mode = DELETE")
            }
        }
        #expect(FileManager.default.createFile(atPath: directory + "/outbox-future.journal", contents: Data("a newer journal".utf8)))
        func files() throws -> [String: Data] {
            var found: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                found[name] = FileManager.default.contents(atPath: directory + "/" + name)
            }
            return found
        }
        let before = try files()
        let sdk = try start()
        #expect(try sdk.statistics().storage.heldFormat == 99)
        try sdk.outbox.enqueueBeacon(url: sandbox.url + "/b/held")
        try sdk.flush(timeoutMilliseconds: 30_000)
        sdk.shutdown(timeoutMilliseconds: 1000)
        #expect(try sandboxJSON("/_sandbox/beacons")["total"] as? Int == 1)
        let after = try files().filter { !["outbox.lock", "breaker", "breaker.lock"].contains($0.key) }
        #expect(after == before)
    }

    /// A damaged database: what can be read is copied into the new one before it is moved aside; the rest is
    /// counted. Reading and counting together account for every report that was there.
    @Test(arguments: ["truncated", "damaged-page", "not-sqlite"])
    func aDamagedDatabaseGivesUpWhatCanStillBeRead(damage: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + Database.fileName
        do {
            let store = SQLiteOutboxStorage(database: try Database.current(at: directory))
            for index in 0..<400 {
                _ = try store.insert(.beacon(url: "http://127.0.0.1:1/b/\(index)?padding=\(String(repeating: "x", count: 200))"),
                                     createdMilliseconds: 1)
            }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        switch damage {
        case "truncated": bytes = Array(bytes.prefix(bytes.count / 3))
        case "damaged-page": for index in stride(from: 4096 * 6 + 100, to: 4096 * 9, by: 7) { bytes[index] ^= 0x5A }
        default: bytes = Array("this is not a database at all, just text\n".utf8)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard case .ready(let database, let migration) = try StoreFormat.open(try StorageDirectory.at(directory)) else {
            Issue.record("not ready")
            return
        }
        let stored = SQLiteOutboxStorage(database: database).storedIDs()?.count ?? -1
        #expect(stored == migration.salvaged)
        switch damage {
        case "not-sqlite": #expect(migration.salvaged == 0)
        default:
            #expect(migration.salvaged > 0)
            #expect(migration.salvaged + migration.salvageLost >= 400)
        }
        print("damage \(damage): \(migration.salvaged) of 400 reports copied, \(migration.salvageLost) ids unreadable")
    }

    /// Each format's schema is committed; a fresh database and a migrated 0.2.0 one both hold the current one.
    @Test func theSchemaIsTheCommittedOneForItsFormat() throws {
        let committed = (try? String(contentsOf: Self.fixtures.appendingPathComponent("schema-\(StoreFormat.current).sql"), encoding: .utf8)) ?? ""
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fresh = try Self.schema(of: Database.current(at: directory))
        #expect(fresh == committed, "a new schema needs a new format, its migration and its file; it is now:\n\(fresh)")
        let upgraded = root + "/upgraded"
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("0.2.0"), to: URL(fileURLWithPath: upgraded))
        #expect(try Self.schema(of: Database.current(at: upgraded)) == committed)
        let previous = (try? String(contentsOf: Self.fixtures.appendingPathComponent("schema-2.sql"), encoding: .utf8)) ?? ""
        // Read from a copy: reading a WAL database makes its -shm and -wal, and the fixture stays as the release left it.
        let pristine = root + "/pristine"
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("0.2.0"), to: URL(fileURLWithPath: pristine))
        var older = ""
        try Database.readOnly(path: pristine + "/" + Database.fileName) { session throws(EngineFailure) in
            older = try Self.schema(session)
        }
        #expect(older == previous, "format 2's schema as 0.2.0 wrote it:\n\(older)")
    }

    static func schema(of database: Database) throws -> String {
        try database.withConnection { session throws(EngineFailure) in try schema(session) }
    }

    /// `CREATE` statements of every table and index, by name, one per line, then the format.
    static func schema(_ session: Database.Session) throws(EngineFailure) -> String {
        var lines: [String] = []
        try session.run("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name") { row throws(EngineFailure) in
            lines.append((row.text(0) ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") + ";")
        }
        lines.append("PRAGMA user_version = \(try StoreFormat.userVersion(session));")
        return lines.joined(separator: "\n") + "\n"
    }
}

