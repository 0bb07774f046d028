@testable import BlinkEngageCore
import Foundation
import TestSupport
import Testing

/// Shutdown flushes for at most its timeout, keeps what is left on disk, and the next start delivers it.
@Suite(.serialized)
final class SDKShutdownTests {
    let sandbox: SandboxProcess
    let root: String

    init() throws {
        sandbox = try SandboxProcess()
        root = NSTemporaryDirectory() + "be-shutdown-\(UUID().uuidString)"
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    func start(engageURL: String? = nil) throws -> SDK {
        var configuration = SDKConfiguration(apiKey: "demo-key")
        configuration.storageRoot = root
        try configuration.setEngageURL(engageURL ?? sandbox.url)
        return try SDK(configuration: configuration)
    }

    func storedItems(_ sdk: SDK) throws -> Int {
        sdk.outbox.storedItemCount() ?? -1
    }

    @Test func aHangingServerDelaysShutdownOnlyUpToItsTimeoutAndNothingIsLost() throws {
        try sandbox.addFault(#"{"path": "/b/", "hang": true}"#)
        let sdk = try start()
        try sdk.outbox.enqueueBeacon(url: sandbox.url + "/b/patient")
        let started = Date()
        sdk.shutdown(timeoutMilliseconds: 300)
        // Loose on purpose: it tells "returned after its timeout" from "waited for the server" (which never answers).
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(try storedItems(sdk) == 1)

        try sandbox.control("POST", "/_sandbox/faults/clear")
        let next = try start()
        try next.flush(timeoutMilliseconds: 60_000)
        #expect(try storedItems(next) == 0)
        #expect(try sandbox.requests().filter { ($0["path"] as? String) == "/b/patient" }.count == 2)
        next.shutdown(timeoutMilliseconds: 1000)
    }

    /// The size of the database's WAL under `root`, nil when there is none.
    func walSize() -> Int? {
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        guard let wal = files.first(where: { $0.hasSuffix(Database.fileName + "-wal") }) else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: root + "/" + wal)[.size] as? Int) ?? nil
    }

    @Test func aShutdownOwingNothingLeavesTheWALToTheNextOpenAndOneOwingItemsFoldsItIn() throws {
        // Nothing owed: the close skips the checkpoint and its syncs, and the WAL stays for the next open.
        do {
            let sdk = try start()
            #expect(sdk.shutdown(timeoutMilliseconds: 5000))
        }
        #expect((walSize() ?? 0) > 0)
        do {
            let sdk = try start(engageURL: "http://127.0.0.1:\(try unusedPort())")
            try sdk.outbox.enqueueEvent(json: #"{"id":"e1","type":"did_tap"}"#, identity: nil)
            sdk.shutdown(timeoutMilliseconds: 1000)
            #expect(try storedItems(sdk) == 1)
        }
        // Something owed: the close folds the WAL into the file and syncs it, as it always did; the item is there
        // for the next start.
        #expect(walSize() == nil)
        let next = try start(engageURL: "http://127.0.0.1:\(try unusedPort())")
        #expect(try storedItems(next) == 1)
        next.shutdown(timeoutMilliseconds: 5000)
    }

    @Test func offlineShutdownDoesNotWaitForItsWholeTimeout() throws {
        let sdk = try start(engageURL: "http://127.0.0.1:\(try unusedPort())")
        try sdk.outbox.enqueueEvent(json: #"{"id":"e1","type":"did_tap"}"#, identity: nil)
        let started = Date()
        sdk.shutdown(timeoutMilliseconds: 120_000)
        #expect(Date().timeIntervalSince(started) < 100)  // a refused connection ends the flush at once
        #expect(try storedItems(sdk) == 1)
    }
}
