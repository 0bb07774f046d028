@testable import BlinkEngageCore
import TestSupport
import Testing

struct ZoneAdParserTests {
    func parse(_ text: String) -> Result<ZoneAd, ServiceError> {
        Result { () throws(ServiceError) in try ZoneAdParser.parse(Array(text.utf8), zoneID: "z") }
    }

    @Test func acceptsTheFixtureWithSurroundingWhitespace() throws {
        let ad = try parse("  " + String(decoding: try Fixtures.bytes("zone-ad.txt"), as: UTF8.self) + " \r\n").get()
        #expect(ad.isEnabled)
        #expect(ad.imageURL?.string == "https://cdn.example.com/zones/1/banner.png")
        #expect(ad.linkURL?.string == "https://www.example.com/landing?zone=1")
    }

    @Test func aHiddenAdMayHaveEmptyURLs() throws {
        let ad = try parse("0||\n").get()
        #expect(!ad.isEnabled && ad.imageURL == nil && ad.linkURL == nil)
    }

    @Test(arguments: [
        "", "1", "1|https://a/x.png", "1|https://a/x.png|https://b/|x", "2|https://a/x.png|https://b/",
        " 1x|https://a/x.png|https://b/", "1|ftp://a/x.png|https://b/", "1|https://a/x.png|", "1|https://a/x.png|https://b/\n0||",
        "01|https://a/x.png|https://b/",
    ])
    func refusesEveryMalformedAnswer(_ text: String) {
        guard case .failure(let error) = parse(text) else { Issue.record("accepted \(text.debugDescription)"); return }
        #expect(error.domain == .zoneAd && error.code == ZoneAdParser.malformed)
    }

    @Test func mapsStatusAndNetworkFailures() {
        let status = ZoneAdParser.decode(.success(HTTPResponse(status: 404, body: [])), zoneID: "z")
        guard case .failure(let error) = status else { Issue.record("a 404 was accepted"); return }
        #expect(error.code == ZoneAdParser.httpStatus && error.httpStatus == 404)
        guard case .failure(let network) = ZoneAdParser.decode(.failure(.network("refused")), zoneID: "z") else { return }
        #expect(network.code == ZoneAdParser.network)
    }
}

struct OfferFeedDecoderTests {
    @Test func decodesTheFixtureWithPositions() throws {
        guard case .feed(let feed) = try OfferFeedDecoder.decode(try Fixtures.bytes("offer-feed.json")) else {
            Issue.record("the fixture is not an enabled feed"); return
        }
        #expect(feed.id == "f_demo_1")
        #expect(feed.groups.map(\.id) == ["g_entertainment", "g_food"])
        #expect(feed.groups[0].offers.map(\.id) == ["4001", "4003"])
        #expect(feed.groups[0].offers[1].placement == FeedPlacement(feedID: "f_demo_1", groupID: "g_entertainment", groupPosition: 0, offerPosition: 1))
        #expect(feed.groups[1].placement == FeedPlacement(feedID: "f_demo_1", groupID: "g_food", groupPosition: 1, offerPosition: nil))
        #expect(feed.contains(feed.groups[1].offers[0]))
        guard case .feed(let reloaded) = try OfferFeedDecoder.decode(try Fixtures.bytes("offer-feed.json")) else { return }
        #expect(!feed.contains(reloaded.groups[1].offers[0]))  // same id, another load: not a member
    }

    @Test func disabledAndEmptyAreDistinct() throws {
        guard case .disabled = try OfferFeedDecoder.decode(Array(#"{"feed_id": "f", "enabled": false, "groups": []}"#.utf8)) else {
            Issue.record("not disabled"); return
        }
        guard case .feed(let empty) = try OfferFeedDecoder.decode(Array(#"{"feed_id": "f", "enabled": true, "groups": []}"#.utf8)) else {
            Issue.record("not a feed"); return
        }
        #expect(empty.groups.isEmpty)
    }

    @Test(arguments: [
        "[]", #"{"feed_id": "f", "groups": []}"#, #"{"feed_id": "f", "enabled": "yes", "groups": []}"#,
        #"{"enabled": true, "groups": []}"#, #"{"feed_id": "f", "enabled": true}"#,
        #"{"feed_id": "f", "enabled": true, "groups": [{"title": "no id"}]}"#,
        #"{"feed_id": "f", "enabled": true, "groups": [{"id": "g", "offers": {}}]}"#,
    ])
    func refusesBadShapes(_ text: String) {
        #expect(throws: OfferFeedDecoder.Failure.self) { try OfferFeedDecoder.decode(Array(text.utf8)) }
    }
}

struct FeedEventWireTests {
    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(Timestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: 1_796_227_200_123) == "2026-12-02T16:00:00.123Z")
        #expect(Timestamp.iso8601(milliseconds: 951_782_400_005) == "2000-02-29T00:00:00.005Z")
    }

    @Test func eventsCarryTheirPlacement() throws {
        guard case .feed(let feed) = try OfferFeedDecoder.decode(try Fixtures.bytes("offer-feed.json")) else { return }
        let appear = try #require(FeedEvent(offer: feed.groups[0].offers[0], kind: .didAppear))
        #expect(appear.impressionURLs.count == 2)
        #expect(EventJSON.feedEvent(appear, id: "e1", occurredAtMilliseconds: 0) ==
            #"{"id":"e1","type":"did_appear","occurred_at":"1970-01-01T00:00:00.000Z","feed_id":"f_demo_1","group_id":"g_entertainment","group_position":0,"offer_id":"4001","offer_position":0}"#)
        let viewAll = try #require(FeedEvent(group: feed.groups[1], kind: .viewAll))
        #expect(EventJSON.feedEvent(viewAll, id: "e2", occurredAtMilliseconds: 0).contains(#""group_position":1}"#))
        #expect(FeedEvent(group: feed.groups[1], kind: .didTap) == nil)
        #expect(FeedEvent(offer: feed.groups[1].offers[0], kind: .viewAll) == nil)
        let tap = try #require(FeedEvent(offer: feed.groups[1].offers[0], kind: .didTap))
        #expect(tap.impressionURLs.isEmpty)
    }
}
