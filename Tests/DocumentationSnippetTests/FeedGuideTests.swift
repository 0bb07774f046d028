import BlinkEngage
import Foundation
import Synchronization
import TestSupport
import Testing

/// The guide's code, run as written against the sandbox on the shared instance: it compiles (this target builds)
/// and does what the guide says.
@Suite(.serialized)
final class FeedGuideTests {
    let sandbox: SandboxProcess
    let root = NSTemporaryDirectory() + "be-guide-\(UUID().uuidString)"

    init() throws {
        sandbox = try SandboxProcess()
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    func start() throws {
        var configuration = BlinkEngageConfiguration(apiKey: "demo-key")
        configuration.engageURL = sandbox.url
        configuration.storageDirectory = root
        try BlinkEngageSDK.shared.start(configuration)
    }

    /// Runs the guide's load and returns what its handler did: showed a feed, or hid it with a reason. Suspends the
    /// task, never a thread of the cooperative pool.
    static func load() async -> Result<BlinkEngageOfferFeed, Hidden> {
        await withCheckedContinuation { continuation in
            FeedGuide.loadFeed(show: { continuation.resume(returning: .success($0)) },
                               hide: { continuation.resume(returning: .failure(Hidden(reason: $0))) })
        }
    }

    @Test func theGuidesCodeLoadsShowsAndReports() async throws {
        try await SharedInstanceTurn.holding {
            defer { BlinkEngageSDK.shared.shutdown(timeoutMilliseconds: 1000) }
            #expect(await Self.load() == .failure(Hidden(reason: "check the SDK is started and a user identity is set")))  // before start
            try start()
            #expect(await Self.load() == .failure(Hidden(reason: "check the SDK is started and a user identity is set")))  // no identity
            try BlinkEngageSDK.shared.setUserIdentity("guide-user")
            let feed = try await Self.load().get()
            let group = try #require(feed.groups.first)
            let offer = try #require(group.offers.first)
            var presented: [BlinkEngageOfferScreen] = []
            FeedGuide.open(offer: offer, group: group) { presented.append($0) }
            #expect(presented.count == 2 && presented[0].currentOffer == offer)
            FeedGuide.reportInteractions(offer: offer, group: group)
            try BlinkEngageSDK.shared.flush(timeoutMilliseconds: 30_000)
            let record = try JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", "/_sandbox/events").utf8)) as? [String: Any]
            let events = try #require(record?["events"] as? [[String: Any]])
            #expect(events.compactMap { $0["type"] as? String } == ["did_appear", "view_all"])
            // A newer load: the guide's screens answer nil for the older objects.
            _ = try await Self.load().get()
            presented = []
            FeedGuide.open(offer: offer, group: group) { presented.append($0) }
            #expect(presented.isEmpty)
            try sandbox.control("POST", "/_sandbox/feed", body: #"{"mode": "disabled"}"#)
            #expect(await Self.load() == .failure(Hidden(reason: "feed unavailable")))
        }
    }
}

/// What the guide's handler hid the feed with.
struct Hidden: Error, Equatable {
    let reason: String
}
