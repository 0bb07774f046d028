@testable import BlinkEngageCore
import Foundation
import Testing

/// The stored identity: one transaction per save, only the registrations still needed, nothing untrustworthy
/// restored.
struct IdentityStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "be-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func open() throws -> Database { try Database.current(at: directory) }

    @Test func keepsTheCurrentRegistrationAndThoseWithQueuedEventsOnly() throws {
        let database = try open()
        _ = try SQLiteOutboxStorage(database: database).insert(.event(json: #"{"id":"e"}"#, identity: "bob"), createdMilliseconds: 1)
        let store = IdentityStore(database: database)
        var snapshot = IdentityStore.Snapshot(current: "carol")
        for name in ["alice", "bob", "carol"] { snapshot.registrations[name] = .init(userID: "u-\(name)", token: "tok-\(name)") }
        store.save(snapshot)
        let restored = IdentityStore(database: try open()).load()
        #expect(restored.current == "carol")
        #expect(Set(restored.registrations.keys) == ["bob", "carol"])
        #expect(restored.registrations["carol"] == .init(userID: "u-carol", token: "tok-carol"))
    }

    @Test func aLogOutForgetsTheCurrentIdentity() throws {
        let store = IdentityStore(database: try open())
        store.save(IdentityStore.Snapshot(current: "dave", registrations: ["dave": .init(userID: "u", token: "t")]))
        store.save(IdentityStore.Snapshot(current: nil, registrations: ["dave": .init(userID: "u", token: "t")]))
        #expect(IdentityStore(database: try open()).load() == IdentityStore.Snapshot())
    }

    @Test func storedTokensThatCouldSplitAHeaderAreNotRestored() throws {
        let database = try open()
        try database.withConnection { session throws(EngineFailure) in
            try session.run("INSERT INTO settings (key, value) VALUES ('current_identity', 'eve')")
            try session.run("INSERT INTO registrations VALUES ('eve', 'u-eve', 'tok\r\nX-Injected: 1')")
        }
        let restored = IdentityStore(database: database).load()
        #expect(restored.current == "eve" && restored.registrations.isEmpty)
    }

    @Test func theDeviceIDIsMadeOnceAndKept() throws {
        let first = IdentityStore(database: try open()).deviceID()
        #expect(IdentityStore(database: try open()).deviceID() == first)
        #expect(IdentityStore(database: nil).deviceID() != first)
    }
}
