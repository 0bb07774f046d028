import BlinkEngage
import Foundation
import TestSupport
import Testing

/// The offer feed through the Swift surface: shared loads, the registration wait, errors 1 and 2, screens of
/// the newest load only, events with their positions.
@Suite(.serialized)
final class FeedSurfaceTests {
    let fixture: SurfaceFixture
    let sdk: BlinkEngageSDK

    init() throws {
        fixture = try SurfaceFixture()
        sdk = try fixture.start()
    }

    deinit { sdk.shutdown(timeoutMilliseconds: 1000) }

    @Test func thirtyTwoConcurrentLoadsShareOneRequest() async throws {
        try sdk.setUserIdentity("user-32")
        _ = try await sdk.loadOfferFeed()  // registered, one load done
        try fixture.sandbox.addFault(#"{"path": "/v1/offer-feed", "gate": true, "times": 1}"#)
        let sdk = self.sdk
        let feeds = try await withThrowingTaskGroup(of: BlinkEngageOfferFeed.self) { group in
            for _ in 0..<32 { group.addTask { try await sdk.loadOfferFeed() } }
            try fixture.waitForRequests(to: "/v1/offer-feed", count: 2)
            try fixture.sandbox.control("POST", "/_sandbox/release")
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(feeds.count == 32)
        #expect(Set(feeds.map(\.id)).count == 1)
        #expect(try fixture.requests(to: "/v1/offer-feed").count == 2)
    }

    @Test func aLoadWaitsForTheRegistrationInProgress() async throws {
        try fixture.sandbox.addFault(#"{"path": "/v1/users", "latency_ms": 200, "times": 1}"#)
        try sdk.setUserIdentity("user-waits")
        let feed = try await sdk.loadOfferFeed()
        #expect(!feed.groups.isEmpty)
        let paths = try fixture.sandbox.requests().compactMap { $0["path"] as? String }
        #expect(paths.firstIndex(of: "/v1/users")! < paths.firstIndex(of: "/v1/offer-feed")!)
    }

    @Test func withoutAUserTheLoadFailsWithCodeOne() async throws {
        do {
            _ = try await sdk.loadOfferFeed()
            Issue.record("the load should have failed")
        } catch let error as BlinkEngageOfferFeedError {
            #expect(error.code == .noUser)
            let bridged = error as NSError
            #expect(bridged.domain == "BlinkEngageOfferFeed" && bridged.code == 1)
        }
        // The completion form says the same, on the callback thread.
        let result = await withCheckedContinuation { continuation in sdk.loadOfferFeed { continuation.resume(returning: $0) } }
        #expect(throws: BlinkEngageOfferFeedError(code: .noUser, message: "no user identity is set")) { try result.get() }
    }

    @Test func aDisabledFeedFailsWithCodeTwo() async throws {
        try sdk.setUserIdentity("user-off")
        try fixture.sandbox.control("POST", "/_sandbox/feed", body: #"{"mode": "disabled"}"#)
        await #expect { _ = try await self.sdk.loadOfferFeed() } throws: { error in
            (error as? BlinkEngageOfferFeedError)?.code == .unavailable
                && (error as NSError).domain == BlinkEngageOfferFeedError.domain && (error as NSError).code == 2
        }
    }

    @Test func screensAreForTheNewestLoadOnly() async throws {
        try sdk.setUserIdentity("user-screens")
        let old = try await sdk.loadOfferFeed()
        let oldGroup = try #require(old.groups.first)
        let oldOffer = try #require(oldGroup.offers.first)
        #expect(try sdk.offerDetailsViewController(for: oldOffer) != nil)
        let new = try await sdk.loadOfferFeed()
        #expect(new.id != old.id && sdk.newestOfferFeed == new)
        #expect(try sdk.offerDetailsViewController(for: oldOffer) == nil)
        #expect(try sdk.offerGroupViewController(for: oldGroup) == nil)
        let group = try #require(new.groups.first)
        let screen = try #require(try sdk.offerGroupViewController(for: group))
        #expect(screen.offers == group.offers && screen.styles == nil)
        let details = try #require(try sdk.offerDetailsViewController(for: group.offers[0]))
        #expect(details.offers.count == 1 && details.currentOffer == group.offers[0])
        // A Moments offer belongs to no feed.
        let moments = try await sdk.fetchOffers()
        #expect(try sdk.offerDetailsViewController(for: moments[0]) == nil)
    }

    @Test func eventsCarryThePositionsTheSDKRecords() async throws {
        try sdk.setUserIdentity("user-events")
        let feed = try await sdk.loadOfferFeed()
        let group = try #require(feed.groups.last)
        let offer = try #require(group.offers.last)
        #expect(offer.feedPosition! == (group.position, group.offers.count - 1))
        let appear = try #require(BlinkEngageOfferFeedEvent(offer: offer, type: .didAppear))
        #expect(appear.offerPosition == group.offers.count - 1 && appear.groupPosition == group.position)
        #expect(BlinkEngageOfferFeedEvent(offer: offer, type: .viewAll) == nil)
        #expect(BlinkEngageOfferFeedEvent(group: group, type: .didTap) == nil)
        try sdk.reportOfferFeedEvent(appear)
        try sdk.reportOfferFeedEvent(try #require(BlinkEngageOfferFeedEvent(offer: offer, type: .didTap)))
        try sdk.reportOfferFeedEvent(try #require(BlinkEngageOfferFeedEvent(group: group, type: .viewAll)))
        try sdk.flush(timeoutMilliseconds: 30_000)
        let record = try JSONSerialization.jsonObject(with: Data(try fixture.sandbox.control("GET", "/_sandbox/events").utf8)) as? [String: Any]
        let events = try #require(record?["events"] as? [[String: Any]])
        #expect(events.compactMap { $0["type"] as? String } == ["did_appear", "did_tap", "view_all"])
        for event in events {
            #expect(event["feed_id"] as? String == feed.id && event["group_id"] as? String == group.id)
            #expect(event["group_position"] as? Int == group.position)
        }
        #expect(events[0]["offer_position"] as? Int == group.offers.count - 1 && events[0]["offer_id"] as? String == offer.id)
        #expect(events[2]["offer_position"] == nil)
        #expect(try sdk.stats().eventsDelivered == 3)
    }

    @Test func erasureForgetsTheUser() async throws {
        try sdk.setUserIdentity("user-erased")
        _ = try await sdk.loadOfferFeed()
        try sdk.deleteUserData()
        await #expect(throws: BlinkEngageOfferFeedError.self) { _ = try await self.sdk.loadOfferFeed() }
    }
}
