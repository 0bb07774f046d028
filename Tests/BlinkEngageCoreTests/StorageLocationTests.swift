@testable import BlinkEngageCore
import TestSupport
import Testing
import Foundation

struct StorageLocationTests {
    @Test func directoryNameIsFNV1a64OfTheKey() {
        // Published FNV-1a 64-bit test vectors.
        #expect(StorageLocation.directoryName(forAPIKey: "") == "cbf29ce484222325")
        #expect(StorageLocation.directoryName(forAPIKey: "a") == "af63dc4c8601ec8c")
        #expect(StorageLocation.directoryName(forAPIKey: "foobar") == "85944171f73967e8")
    }

    @Test func defaultRootFollowsXDGThenHome() {
        let both: [String: String] = ["XDG_STATE_HOME": "/state", "HOME": "/home/u"]
        let relative: [String: String] = ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]
        #expect(StorageLocation.defaultRoot(environment: { both[$0] }) == "/state/blinkengage")
        #expect(StorageLocation.defaultRoot(environment: { relative[$0] }) == "/home/u/.local/state/blinkengage")
        // Neither variable: the password database's home.
        #expect(StorageLocation.defaultRoot(environment: { _ in nil })?.hasSuffix("/.local/state/blinkengage") == true)
    }
}


struct VersionTests {
    @Test func versionAgreesWithTheHeaderMacros() throws {
        let header = try String(contentsOf: ProjectPaths.header, encoding: .utf8)
        for (name, value) in [("MAJOR", LibraryVersion.major), ("MINOR", LibraryVersion.minor), ("PATCH", LibraryVersion.patch)] {
            #expect(header.contains("#define BE_VERSION_\(name) \(value)\n"), "BE_VERSION_\(name)")
        }
        #expect(UserAgent.standard.hasPrefix("blinkengage/\(LibraryVersion.string) ("))
    }
}
