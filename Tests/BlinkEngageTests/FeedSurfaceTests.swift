import BlinkEngage
import Foundation
import Synchronization
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
        #expect(sdk.offerDetailsViewController(for: oldOffer) != nil)
        let new = try await sdk.loadOfferFeed()
        #expect(new.id != old.id && sdk.newestOfferFeed == new)
        #expect(sdk.offerDetailsViewController(for: oldOffer) == nil)
        #expect(sdk.offerGroupViewController(for: oldGroup) == nil)
        let group = try #require(new.groups.first)
        let screen = try #require(sdk.offerGroupViewController(for: group))
        #expect(screen.offers == group.offers && screen.styles == nil)
        let details = try #require(sdk.offerDetailsViewController(for: group.offers[0]))
        #expect(details.offers.count == 1 && details.currentOffer == group.offers[0])
        // A Moments offer belongs to no feed.
        let moments = try await sdk.fetchOffers()
        #expect(sdk.offerDetailsViewController(for: moments[0]) == nil)
    }

    @Test func eventsCarryThePositionsTheSDKRecords() async throws {
        try sdk.setUserIdentity("user-events")
        let feed = try await sdk.loadOfferFeed()
        let group = try #require(feed.groups.last)
        let offer = try #require(group.offers.last)
        #expect(offer.feedPosition! == (group.position, group.offers.count - 1))
        let appear = BlinkEngageOfferFeedEvent(offer: offer, type: .didAppear)
        #expect(appear.offerPosition == group.offers.count - 1 && appear.groupPosition == group.position)
        #expect(sdk.reportOfferFeedEvent(appear))
        #expect(sdk.reportOfferFeedEvent(BlinkEngageOfferFeedEvent(offer: offer, type: .didTap)))
        #expect(sdk.reportOfferFeedEvent(BlinkEngageOfferFeedEvent(group: group, type: .viewAll)))
        // The wrong pairings exist too, as the guide's code makes them: refused when reported, logged, counted.
        let wrong = [BlinkEngageOfferFeedEvent(offer: offer, type: .viewAll), BlinkEngageOfferFeedEvent(group: group, type: .didTap)]
        #expect(wrong.allSatisfy { !$0.isRecordable && $0.type != .didAppear })
        for event in wrong { #expect(!sdk.reportOfferFeedEvent(event)) }
        #expect(try sdk.stats().feedEventsRefused == 2)
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

    /// Every failure of a load is code 1 or 2 of the documented domain: before start (1), after shutdown (1), and
    /// a load the shutdown cut short (2); the handler runs once, never inside the call. A report after shutdown
    /// returns false and throws nothing. (Handlers answered on a queue are awaited, never waited for with a blocked
    /// thread: the queue's threads are the test's own pool.)
    @Test func everyFailureOfALoadIsCodeOneOrTwo() async throws {
        let idle = BlinkEngageSDK()
        await #expect { _ = try await idle.loadOfferFeed() } throws: { ($0 as NSError).domain == "BlinkEngageOfferFeed" && ($0 as NSError).code == 1 }
        // The thread inside the call, while it is inside: a handler run there, then, ran inside the call.
        let callingThread = Mutex<pthread_t?>(nil)
        let (before, insideTheCall) = await withCheckedContinuation { continuation in
            callingThread.withLock { $0 = pthread_self() }
            idle.loadOfferFeed { result in
                continuation.resume(returning: (result, callingThread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }))
            }
            callingThread.withLock { $0 = nil }
        }
        #expect(before.failureCode == .noUser)
        #expect(!insideTheCall)

        try sdk.setUserIdentity("user-cut-short")
        let feed = try await sdk.loadOfferFeed()
        try fixture.sandbox.addFault(#"{"path": "/v1/offer-feed", "hang": true}"#)
        let sdk = self.sdk
        let cut = Task { await withCheckedContinuation { continuation in sdk.loadOfferFeed { continuation.resume(returning: $0) } } }
        try fixture.waitForRequests(to: "/v1/offer-feed", count: 2)
        sdk.shutdown(timeoutMilliseconds: 100)
        #expect(await cut.value.failureCode == .unavailable)
        let after = await withCheckedContinuation { continuation in sdk.loadOfferFeed { continuation.resume(returning: $0) } }
        #expect(after.failureCode == .noUser)
        let group = try #require(feed.groups.first)
        #expect(!sdk.reportOfferFeedEvent(BlinkEngageOfferFeedEvent(group: group, type: .viewAll)))
        #expect(sdk.offerGroupViewController(for: group) == nil)
    }

    /// Handlers run on the configured queue; one given to a queue that never runs it is reported in the log.
    @Test func handlersRunOnTheConfiguredQueue() async throws {
        sdk.shutdown(timeoutMilliseconds: 1000)
        let queue = DispatchQueue(label: "host-callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "host")
        let onQueue = try fixture.start { $0.callbackQueue = .queue(queue) }
        defer { onQueue.shutdown(timeoutMilliseconds: 1000) }
        try onQueue.setUserIdentity("user-queue")
        let ran = await withCheckedContinuation { continuation in
            onQueue.loadOfferFeed { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(ran == "host")

        // A queue that never runs (suspended here; on Linux, the main queue of a host without a run loop).
        let stuck = DispatchQueue(label: "never-runs")
        stuck.suspend()
        let logged = Awaited<String>()  // the log handler runs on the SDK's thread
        let onStuck = try fixture.start {
            $0.callbackQueue = .queue(stuck)
            $0.storageDirectory = self.fixture.root + "/stuck"
            $0.logHandler = { level, message in if level == .error, message.contains("never-runs") { logged.set(message) } }
        }
        try onStuck.setUserIdentity("user-stuck")
        let never = Task { await withCheckedContinuation { continuation in onStuck.loadOfferFeed { _ in continuation.resume(returning: true) } } }
        #expect(logged.wait().contains("has waited 5 s"))
        onStuck.shutdown(timeoutMilliseconds: 1000)
        stuck.resume()
        #expect(await never.value)  // not lost: it runs once the queue does
    }

    /// The offer wall through the Swift surface: the SDK walks it and records its own events.
    @Test func theOffersWallRecordsItsOwnEvents() async throws {
        #expect(sdk.offersWallViewController() == nil)  // not started for this identity's feed yet: no feed
        try sdk.setUserIdentity("user-wall")
        let feed = try await sdk.loadOfferFeed()
        let wall = try #require(sdk.offersWallViewController())
        #expect(wall.level == .wall && wall.feed == feed)
        try wall.reportVisibility(group: 0, offer: 0, visibleFraction: 1)
        try wall.openGroup(0)
        #expect(wall.level == .group && wall.currentGroup == feed.groups[0])
        try wall.openOffer(group: 0, offer: 0)
        #expect(wall.level == .offer && wall.currentOffer == feed.groups[0].offers[0])
        #expect(try wall.accept() == feed.groups[0].offers[0])
        try wall.close()
        #expect(wall.level == .closed)
        #expect(throws: BlinkEngageError.self) { try wall.back() }
        try sdk.flush(timeoutMilliseconds: 30_000)
        let record = try JSONSerialization.jsonObject(with: Data(try fixture.sandbox.control("GET", "/_sandbox/events").utf8)) as? [String: Any]
        let types = Set(try #require(record?["events"] as? [[String: Any]]).compactMap { $0["type"] as? String })
        #expect(types == ["did_appear", "view_all", "did_tap"] && record?["distinct"] as? Int == 3)
    }

    @Test func erasureForgetsTheUser() async throws {
        try sdk.setUserIdentity("user-erased")
        _ = try await sdk.loadOfferFeed()
        try sdk.deleteUserData()
        await #expect(throws: BlinkEngageOfferFeedError.self) { _ = try await self.sdk.loadOfferFeed() }
    }
}
