@testable import BlinkEngageCore
import Foundation
import Testing

/// Two connections to one database (as two processes have): each sees the other's commits at once.
struct DatabaseSharingTests {
    @Test func eachConnectionSeesTheOthersCommits() throws {
        let directory = NSTemporaryDirectory() + "be-sharing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let first = SQLiteOutboxStorage(database: try Database.current(at: directory))
        let second = SQLiteOutboxStorage(database: try Database.current(at: directory))
        for index in 0..<50 { _ = try first.insert(.beacon(url: "http://h/\(index)"), createdMilliseconds: 1) }
        #expect(second.storedIDs()?.count == 50)
        #expect(second.load(afterID: 0).rows.count == 50)
        second.delete(Array(second.storedIDs() ?? []))
        #expect(first.storedIDs()?.count == 0)
        _ = try second.insert(.event(json: #"{"id":"x"}"#, identity: nil), createdMilliseconds: 1)
        #expect(first.load(afterID: 0).rows.count == 1)
        #expect(first.storedIDs()?.count == 1)
    }
}
