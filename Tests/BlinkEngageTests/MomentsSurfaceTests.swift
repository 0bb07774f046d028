import BlinkEngage
import Foundation
import TestSupport
import Testing

/// Moments through the Swift surface: typed offers, validation before I/O, each error case, the unit.
@Suite(.serialized)
final class MomentsSurfaceTests {
    let fixture: SurfaceFixture
    let sdk: BlinkEngageSDK

    init() throws {
        fixture = try SurfaceFixture()
        sdk = try fixture.start()
    }

    deinit { sdk.shutdown(timeoutMilliseconds: 1000) }

    @Test func offersArriveWithEveryFieldTyped() async throws {
        let response = try await sdk.fetchOffers(payload: ["placement": "checkout", "country": "US"])
        #expect(response.count == 3)
        let offer = try #require(response.first)
        #expect(offer.id == "4001")
        #expect(offer.title == "Get 90 days of Streamly Premium – free")
        #expect(offer.clickURL?.hasPrefix("https://track.example.com/sdk/offer_click?o_id=4001") == true)
        #expect(offer.ctaYes == "Claim offer" && offer.ctaNo == "No, thanks")
        #expect(offer.advertiserName == "Streamly")
        #expect(offer.miniText == nil)  // "" reads as absent
        #expect(offer.termsHTML?.contains("Must be 18 or older.") == true)
        // The sandbox points the tracking URLs at itself.
        #expect(offer.beacons.pixel?.hasPrefix(fixture.sandbox.url + "/b/track/sdk/v2/impression/") == true)
        #expect(offer.beacons.advertiserPixel?.hasPrefix(fixture.sandbox.url + "/b/adv/imp") == true)
        #expect(offer.isLoyaltyBoost == false)
        #expect(!offer.creatives.isEmpty && offer.creatives.allSatisfy { $0.url?.hasPrefix("http") == true })
        #expect(offer[field: "short_headline"] == offer.shortHeadline)
        #expect(offer.feedPosition == nil)
        let json = try JSONSerialization.jsonObject(with: Data(offer.json.utf8)) as? [String: Any]
        #expect((json?["id"] as? Int) == 4001)
        #expect(response.styles["popup.background"] == "#FFFFFF")
        #expect(response.styles["no.such.path"] == nil)
        #expect(response.privacyURL?.hasPrefix("http") == true)

        let sent = try #require(try fixture.requests(to: "/offers.json").last)
        let body = try JSONSerialization.jsonObject(with: Data((sent["body"] as? String ?? "").utf8)) as? [String: String]
        #expect(body?["placement"] == "checkout" && body?["country"] == "US")
    }

    @Test(arguments: [
        (loyaltyBoost: "3", creative: nil as String?, campaign: nil as String?, names: "loyaltyboost"),
        ("", nil, nil, "loyaltyboost"),
        (nil, "2", nil, "creative"),
        (nil, nil, "", "campaign"),
    ] as [(String?, String?, String?, String)])
    func invalidParametersAreRefusedBeforeAnyRequest(_ loyaltyBoost: String?, _ creative: String?, _ campaign: String?,
                                                     _ names: String) async throws {
        do {
            _ = try await sdk.fetchOffers(loyaltyBoost: loyaltyBoost, creative: creative, campaignId: campaign)
            Issue.record("the fetch should have failed")
        } catch BlinkEngageMomentsError.invalidParameter(let message) {
            #expect(message.lowercased().contains(names.lowercased()))
        }
        #expect(try fixture.requests(to: "/offers.json").isEmpty)
        for good in ["0", "1", "2"] { _ = try await sdk.fetchOffers(loyaltyBoost: good, creative: good == "2" ? "1" : good) }
    }

    @Test func eachFailureIsItsOwnCase() async throws {
        try fixture.sandbox.addFault(#"{"path": "/offers.json", "status": 200, "body": "{\"data\": {\"offers\": []}}", "times": 1}"#)
        await #expect(throws: BlinkEngageMomentsError.noOffers) { _ = try await self.sdk.fetchOffers() }

        try fixture.sandbox.addFault(#"{"path": "/offers.json", "malformed": true, "times": 1}"#)
        await #expect { _ = try await self.sdk.fetchOffers() } throws: { error in
            guard case BlinkEngageMomentsError.decodingError = error else { return false }
            return (error as NSError).domain == "BlinkEngageMoments" && (error as NSError).code == 4
        }

        try fixture.sandbox.addFault(#"{"path": "/offers.json", "status": 503, "times": 1}"#)
        await #expect { _ = try await self.sdk.fetchOffers() } throws: { error in
            guard case BlinkEngageMomentsError.httpStatus(503, _) = error else { return false }
            return true
        }

        let offline = try BlinkEngageSDK(configuration: fixture.configuration { $0.momentsURL = "http://127.0.0.1:\(try! unusedPort())" })
        defer { offline.shutdown() }
        await #expect { _ = try await offline.fetchOffers() } throws: { error in
            guard case BlinkEngageMomentsError.networkError = error else { return false }
            return (error as NSError).code == 5
        }
        // An invalid Moments URL is refused when the SDK starts, before any fetch can be made with it.
        #expect(throws: BlinkEngageError.self) {
            try BlinkEngageSDK(configuration: self.fixture.configuration { $0.momentsURL = "ftp://example.com" })
        }
    }

    @Test func theSingleOfferUnitMovesAndFiresItsBeacons() async throws {
        let response = try await sdk.fetchOffers(payload: ["placement": "checkout"])
        let screen = try sdk.offerScreen(for: response)
        #expect(screen.currentOffer == response[0] && screen.hasNext && !screen.hasPrevious)
        #expect(screen.styles?["popup.background"] == "#FFFFFF")
        try screen.showNext()
        #expect(screen.index == 1 && screen.hasPrevious)
        try screen.showPrevious()
        try screen.decline()  // no_thanks_click of the first, then the second
        #expect(screen.currentOffer == response[1])
        let accepted = try screen.accept()
        #expect(accepted == response[1] && screen.currentOffer == response[2])
        try screen.close()
        #expect(screen.isFinished && screen.currentOffer == nil)
        #expect(throws: BlinkEngageError.self) { try screen.showNext() }
        try sdk.flush(timeoutMilliseconds: 30_000)
        let beacons = try fixture.sandbox.control("GET", "/_sandbox/beacons")
        #expect(beacons.contains("no_thanks") && beacons.contains("close"))
    }

    @Test func aPrefetchAnswersTheNextEqualFetchWithoutARequest() async throws {
        try sdk.prefetchOffers(payload: ["placement": "cart"])
        try fixture.waitForRequests(to: "/offers.json", count: 1)
        let response = try await sdk.fetchOffers(payload: ["placement": "cart"])
        #expect(response.count == 3)
        #expect(try fixture.requests(to: "/offers.json").count == 1)
        #expect(try sdk.stats().prefetchHits == 1)
    }

    @Test func theCompletionFormRunsOnceOnTheCallbackThread() async throws {
        let thread = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            do {
                try sdk.fetchOffers(payload: ["placement": "checkout"]) { result in
                    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                    continuation.resume(with: result.map { _ in name.trimmingCharacters(in: .newlines) })
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(thread == "be-callbacks")
    }
}
