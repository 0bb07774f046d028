@testable import BlinkEngageCore
import Testing

/// The driven transport's socket policy without I/O: which of libcurl's requests change the epoll set, and which
/// ready sockets reach libcurl.
struct SocketWatchTests {
    /// libcurl asks `what` for `socket`; `change` is what the set gets, `wanted` the sockets libcurl has after.
    struct Step: Sendable, CustomTestStringConvertible {
        let socket: Int32
        let what: Int32
        let change: SocketWatch.Change
        let wanted: [Int32]
        var testDescription: String { "\(socket) asks \(what)" }
    }

    @Test(arguments: [
        // One fetch after another on a kept connection: in, then forgotten (parked: no change), and in again.
        [Step(socket: 7, what: 1, change: .watch(1), wanted: [7]),
         Step(socket: 7, what: 4, change: .none, wanted: []),
         Step(socket: 7, what: 1, change: .watch(1), wanted: [7]),
         Step(socket: 7, what: 4, change: .none, wanted: [])],
        // Sending, then reading; a second transfer on its own connection.
        [Step(socket: 7, what: 2, change: .watch(2), wanted: [7]),
         Step(socket: 9, what: 3, change: .watch(3), wanted: [7, 9]),
         Step(socket: 7, what: 1, change: .watch(1), wanted: [7, 9]),
         Step(socket: 9, what: 4, change: .none, wanted: [7]),
         Step(socket: 7, what: 0, change: .none, wanted: [])],
        // Forgetting a socket never asked for changes nothing.
        [Step(socket: 3, what: 4, change: .none, wanted: [])],
    ])
    func parksWhatLibcurlForgets(steps: [Step]) {
        var watch = SocketWatch()
        for step in steps {
            #expect(watch.libcurlAsks(step.socket, step.what) == step.change, "\(step.testDescription)")
            #expect(watch.wanted == step.wanted, "\(step.testDescription)")
        }
    }

    @Test func onlyWantedSocketsReachLibcurl() {
        var watch = SocketWatch()
        _ = watch.libcurlAsks(7, 1)
        #expect(watch.wants(7))
        _ = watch.libcurlAsks(7, 4)
        #expect(!watch.wants(7))  // parked: its readiness is the server closing it, removed from the set
        #expect(!watch.wants(8))
    }
}
