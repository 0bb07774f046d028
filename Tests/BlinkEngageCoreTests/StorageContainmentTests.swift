@testable import BlinkEngageCore
import Foundation
import TestSupport
import Testing

/// Nothing is opened, created, written or removed outside the storage directory, whatever a neighbour plants in
/// it: the database, its companions, the lock files and images/ replaced by links (dangling, to an empty file, to a
/// copy of /etc/passwd, to another SQLite file, to a folder elsewhere). Each start refuses the link (moved aside and
/// counted), leaves its target as it was, and works: a report is stored and delivered.
@Suite(.serialized)
final class StorageContainmentTests {
    let sandbox: SandboxProcess
    let root: String, outside: String
    var directory: String { StorageLocation.directory(root: root, apiKey: "demo-key") }

    init() throws {
        sandbox = try SandboxProcess()
        root = NSTemporaryDirectory() + "be-contain-\(UUID().uuidString)"
        outside = NSTemporaryDirectory() + "be-outside-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: StorageLocation.directory(root: root, apiKey: "demo-key"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(atPath: outside)
    }

    func start() throws -> SDK {
        var configuration = SDKConfiguration(apiKey: "demo-key")
        configuration.storageRoot = root
        try configuration.setEngageURL(sandbox.url)
        configuration.warmUpAtStart = false
        configuration.recorderEntries = 16  // recorder.jsonl is written too
        return try SDK(configuration: configuration)
    }

    /// The files outside, by name, with their bytes (nil: absent).
    func snapshot(_ names: [String]) -> [String: Data?] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: outside + "/" + $0)) })
    }

    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: target)
    }

    func refusedEntries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".refused-") }
    }

    /// A start on the directory as it is now, one report stored and delivered through the real database.
    func startAndDeliver() throws -> UInt64 {
        let sdk = try start()
        defer { sdk.shutdown(timeoutMilliseconds: 1000) }
        try sdk.outbox.enqueueBeacon(url: sandbox.url + "/b/contained")
        try sdk.flush(timeoutMilliseconds: 30_000)
        #expect(try sandbox.requests().filter { ($0["path"] as? String) == "/b/contained" }.count == 1)
        return try sdk.statistics().storage.refused
    }

    static let databaseTargets = ["dangling", "empty", "passwd-copy", "other-sqlite"]

    func makeTarget(_ kind: String) throws -> String {
        let target = outside + "/" + kind
        switch kind {
        case "dangling": break
        case "empty": #expect(FileManager.default.createFile(atPath: target, contents: Data()))
        case "passwd-copy": try FileManager.default.copyItem(atPath: "/etc/passwd", toPath: target)
        default:
            let other = try StorageDirectory.at(outside)
            _ = try Database(directory: other) { session throws(EngineFailure) in
                try session.run("CREATE TABLE IF NOT EXISTS theirs (x)")
            }
            try FileManager.default.moveItem(atPath: outside + "/" + Database.fileName, toPath: target)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: outside + "/" + Database.fileName + suffix) }
        }
        return target
    }

    @Test(arguments: databaseTargets)
    func aLinkedDatabaseIsRefusedAndItsTargetUntouched(target kind: String) throws {
        let target = try makeTarget(kind)
        let before = snapshot([kind])
        try link(Database.fileName, to: target)
        #expect(try startAndDeliver() >= 1)
        #expect(snapshot([kind]) == before)
        #expect(!FileManager.default.fileExists(atPath: target + "-wal") && !FileManager.default.fileExists(atPath: target + "-shm"))
        #expect(try refusedEntries().contains { $0.hasPrefix(Database.fileName + ".refused-") })
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + Database.fileName)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test(arguments: ["-wal", "-shm", "-journal"])
    func aLinkedCompanionIsRefusedAndItsTargetUntouched(suffix: String) throws {
        do { _ = try Database.current(at: directory) }  // a database of our own first
        for leftover in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory + "/" + Database.fileName + leftover) }
        let target = try makeTarget("passwd-copy")
        let before = snapshot(["passwd-copy"])
        try link(Database.fileName + suffix, to: target)
        #expect(try startAndDeliver() >= 1)
        #expect(snapshot(["passwd-copy"]) == before)
    }

    @Test(arguments: [(DirectoryOwnership.fileName, "dangling"), (DirectoryOwnership.fileName, "passwd-copy"),
                      (BreakerFile.lockName, "dangling"), (BreakerFile.lockName, "passwd-copy"),
                      (BreakerFile.recordName, "passwd-copy"), (RecorderText.fileName, "dangling")])
    func aLinkedLockOrRecordIsRefusedAndItsTargetUntouched(name: String, target kind: String) throws {
        let target = try makeTarget(kind)
        let before = snapshot([kind])
        try link(name, to: target)
        let refused = try startAndDeliver()
        #expect(snapshot([kind]) == before, "\(name) wrote through its link")
        // The breaker's record is replaced by a rename, which replaces the link itself; the others are refused.
        if name != BreakerFile.recordName { #expect(refused >= 1, "\(name)") }
    }

    /// images/ a link to a folder elsewhere: never emptied by erasure, never written.
    @Test func aLinkedImagesFolderIsRefusedAndErasureEmptiesOnlyOurs() throws {
        let elsewhere = outside + "/pictures"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: elsewhere + "/keep.img", contents: Data("theirs".utf8)))
        try link(ImageDiskCache.folderName, to: elsewhere)
        let sdk = try start()
        defer { sdk.shutdown(timeoutMilliseconds: 1000) }
        try sdk.deleteUserData()
        #expect(FileManager.default.contents(atPath: elsewhere + "/keep.img") == Data("theirs".utf8))
        #expect(try sdk.statistics().storage.refused >= 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + ImageDiskCache.folderName)
        #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
    }

    /// The key's directory itself replaced by a link: refused, and a directory of the SDK's own made in its place.
    @Test func aLinkedStorageDirectoryIsRefused() throws {
        try FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createSymbolicLink(atPath: directory, withDestinationPath: outside)
        #expect(try startAndDeliver() >= 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    /// A database file hard-linked from elsewhere is written through by any path-based open: refused too.
    @Test func aHardLinkedDatabaseIsRefused() throws {
        let target = try makeTarget("other-sqlite")
        let before = snapshot(["other-sqlite"])
        try FileManager.default.linkItem(atPath: target, toPath: directory + "/" + Database.fileName)
        #expect(try startAndDeliver() >= 1)
        #expect(snapshot(["other-sqlite"]) == before)
    }
}
