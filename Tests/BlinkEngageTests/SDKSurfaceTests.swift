import BlinkEngage
import Foundation
import Synchronization
import TestSupport
import Testing

/// The SDK's life through the Swift surface: the shared instance, dispatch mode, cancellation, shutdown with
/// work owed, zone ads, images, privacy, the host transport.
@Suite(.serialized)
final class SDKSurfaceTests {
    let fixture: SurfaceFixture

    init() throws { fixture = try SurfaceFixture() }

    @Test func theSharedInstanceStartsOnceAndAgainAfterShutdown() async throws {
        try await SharedInstanceTurn.holding {
            let shared = BlinkEngageSDK.shared
            #expect(!shared.isStarted)
            await #expect(throws: BlinkEngageError.notStarted) { _ = try await shared.fetchOffers() }
            try shared.start(fixture.configuration())
            #expect(throws: BlinkEngageError.alreadyStarted) { try shared.start(self.fixture.configuration()) }
            #expect(try await shared.fetchOffers().count == 3)
            #expect(shared.shutdown(timeoutMilliseconds: 1000))
            #expect(!shared.isStarted)
            try shared.start(fixture.configuration())
            #expect(try await shared.fetchOffers().count == 3)
            shared.shutdown(timeoutMilliseconds: 1000)
        }
    }

    @Test func dispatchModeRunsHandlersOnlyInDispatch() throws {
        let sdk = try fixture.start { $0.callbackMode = .dispatch }
        defer { sdk.shutdown() }
        #expect(sdk.dispatchDescriptor >= 0)
        let ran = Recorder<(thread: pthread_t, count: Int)>()
        try sdk.fetchOffers(payload: ["placement": "checkout"]) { result in
            ran.append((pthread_self(), (try? result.get())?.count ?? -1))
        }
        #expect(isReadable(sdk.dispatchDescriptor, within: 60_000))  // readable once the handler is owed
        #expect(ran.all.isEmpty)
        #expect(sdk.dispatch() == 1)
        let handled = try #require(ran.all.first)
        #expect(pthread_equal(handled.thread, pthread_self()) != 0 && handled.count == 3)
    }

    @Test func aThousandCancelledTasksEndAtOnceAndOweNothing() async throws {
        try fixture.sandbox.addFault(#"{"path": "/offers.json", "gate": true}"#)
        let sdk = try fixture.start()
        let outcomes = Recorder<String>()
        let tasks = (0..<1000).map { index in
            Task {
                do {
                    _ = try await sdk.fetchOffers(payload: ["placement": "p\(index % 10)"])
                    outcomes.append("answered")
                } catch is CancellationError {
                    outcomes.append("cancelled")
                } catch {
                    outcomes.append("\(error)")
                }
            }
        }
        try fixture.waitForRequests(to: "/offers.json", count: 1)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        // Every task ended while the server still held every request.
        #expect(outcomes.all.count == 1000)
        #expect(outcomes.all.allSatisfy { $0 == "cancelled" })
        try fixture.sandbox.control("POST", "/_sandbox/release")
        #expect(sdk.shutdown(timeoutMilliseconds: 1000))
        #expect(outcomes.all.count == 1000)  // the late answers reached no one
    }

    @Test func aTaskCancelledBeforeItsCallMakesNoRequest() async throws {
        let sdk = try fixture.start()
        defer { sdk.shutdown() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await sdk.fetchOffers()
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(try fixture.requests(to: "/offers.json").isEmpty)
    }

    @Test func shutdownWithWorkOwedEndsEveryCallWithCancelled() async throws {
        try fixture.sandbox.addFault(#"{"hang": true}"#)
        let sdk = try fixture.start()
        try sdk.setUserIdentity("user-owed")
        let moments = Task { try await sdk.fetchOffers() }
        let feed = Task { try await sdk.loadOfferFeed() }
        let handler = Recorder<String>()
        try sdk.fetchZoneAd("1") { result in
            switch result {
            case .success: handler.append("an ad")
            case .failure(let error): handler.append(error as? BlinkEngageError == .cancelled ? "cancelled" : "\(error)")
            }
        }
        try fixture.waitForRequests(to: "/offers.json", count: 1)
        try fixture.waitForRequests(to: "/adAPI.php", count: 1)
        #expect(sdk.shutdown(timeoutMilliseconds: 500))
        await #expect(throws: BlinkEngageError.cancelled) { _ = try await moments.value }
        // A feed load's failures are all of its documented domain: a shutdown during the load is code 2.
        await #expect { _ = try await feed.value } throws: { ($0 as? BlinkEngageOfferFeedError)?.code == .unavailable }
        #expect(handler.all == ["cancelled"])
        await #expect(throws: BlinkEngageError.notStarted) { _ = try await sdk.fetchOffers() }
    }

    @Test func zoneAdsAndTheirClicks() async throws {
        let sdk = try fixture.start()
        defer { sdk.shutdown() }
        let ad = try await sdk.fetchZoneAd("1")
        #expect(ad.zoneID == "1" && ad.isEnabled && ad.imageURL?.hasPrefix("http") == true && ad.linkURL != nil)
        #expect(try await sdk.fetchZoneAd("2").isEnabled == false)
        #expect(throws: BlinkEngageError.self) { try sdk.fetchZoneAd("") { _ in } }
        try sdk.reportZoneAdClick(ad)
        try sdk.flush(timeoutMilliseconds: 30_000)
        #expect(try fixture.sandbox.control("GET", "/_sandbox/events").contains("zone_ad_click"))
    }

    @Test func imagesComeWithTheirCacheStatus() async throws {
        let sdk = try fixture.start()
        defer { sdk.shutdown() }
        let url = fixture.sandbox.url + "/cdn/campaigns/1201/main.png"
        let first = try await sdk.fetchImage(url)
        #expect(!first.isFromCache && first.contentType == "image/png")
        #expect(first.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && first.count == first.bytes.count)
        let second = try await sdk.fetchImage(url)
        #expect(second.isFromCache && second.bytes == first.bytes)
        #expect(try sdk.stats().imageMemoryHits == 1)
        await #expect { _ = try await sdk.fetchImage("javascript:alert(1)") } throws: { error in
            (error as? BlinkEngageServiceError).map { $0.domain == "BlinkEngageImage" && $0.code == 5 } == true
        }
    }

    @Test func privacySignalsTravelWithTheNextRequest() async throws {
        let sdk = try fixture.start()
        defer { sdk.shutdown() }
        try sdk.setGDPR(applies: true, consent: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
        try sdk.setUSPrivacy("1YNN")
        try sdk.setGPP("DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", sectionIDs: "2")
        try sdk.setChildDirected(false)
        try sdk.setLimitTracking(false)
        #expect(throws: BlinkEngageError.self) { try sdk.setUSPrivacy("not a US privacy string") }
        _ = try await sdk.fetchOffers(payload: ["placement": "checkout"])
        let sent = try #require(try fixture.requests(to: "/offers.json").last)
        let body = try JSONSerialization.jsonObject(with: Data((sent["body"] as? String ?? "").utf8)) as? [String: String]
        #expect(body?["gdpr"] == "1" && body?["us_privacy"] == "1YNN" && body?["coppa"] == "0", "\(sent)")
    }

    @Test func aHostTransportAnswersEveryRequest() async throws {
        struct CannedTransport: BlinkEngageHTTPTransport {
            let answer: [UInt8]
            let seen: Recorder<String>
            func send(_ request: BlinkEngageHTTPRequest) {
                seen.append("\(request.method) \(request.url)")
                #expect(request.headers.contains { $0.name == "User-Agent" } && request.timeoutMilliseconds > 0)
                #expect(throws: BlinkEngageError.self) { try request.complete(status: 1000) }  // stays open
                try? request.complete(status: 200, headerLines: ["Content-Type: application/json"], body: answer)
                #expect(throws: BlinkEngageError.self) { try request.complete(status: 200) }  // answered already
            }
        }
        let answer = try [UInt8](Data(contentsOf: ProjectPaths.root.appendingPathComponent("sandbox/fixtures/moments-offers.json")))
        let seen = Recorder<String>()
        let sdk = try fixture.start {
            $0.momentsURL = "https://moments.example.com/native/v4"
            $0.httpTransport = CannedTransport(answer: answer, seen: seen)
        }
        defer { sdk.shutdown() }
        let response = try await sdk.fetchOffers(payload: ["placement": "checkout"])
        #expect(response.count == 3)
        #expect(seen.all == ["POST https://moments.example.com/native/v4/offers.json?api_key=demo-key"])
        #expect(try fixture.requests(to: "/offers.json").isEmpty)
    }

    @Test func theLogHandlerAndTheStorageDirectory() async throws {
        let lines = Recorder<String>()
        let sdk = try fixture.start {
            $0.logMinimumLevel = .debug
            $0.logHandler = { level, message in lines.append("\(level) \(message)") }
        }
        #expect(lines.all.contains { $0.hasPrefix("debug started") })
        try fixture.sandbox.addFault(#"{"path": "/b/", "hang": true}"#)
        let response = try await sdk.fetchOffers()
        let screen = try sdk.offerScreen(for: response)
        try screen.close()
        sdk.shutdown(timeoutMilliseconds: 200)
        let info = try BlinkEngageSDK.inspectStorage(fixture.root, apiKey: "demo-key")
        #expect(info.beaconsQueued >= 1)
        #expect(throws: BlinkEngageError.self) { try BlinkEngageSDK.inspectStorage(self.fixture.root, apiKey: "other-key") }
        #expect(BlinkEngageSDK.version.split(separator: ".").count == 3)
    }

    @Test func theStartOpensTheConnectionUnlessToldNotTo() async throws {
        func heads() throws -> Int { try fixture.requests(to: "/").filter { $0["method"] as? String == "HEAD" }.count }
        let warm = try fixture.start()
        defer { warm.shutdown() }
        // The HEAD goes from the transport's thread, after the start has returned: wait for the server to see it.
        try fixture.waitForRequests(to: "/", count: 1)
        #expect(try heads() == 1)  // one HEAD: Moments and Engage share the sandbox's origin
        #expect(try warm.stats().requestsSent == 1)
        let silent = try fixture.start { $0.warmUpAtStart = false }
        defer { silent.shutdown() }
        // A fetch answered: a warm-up, had one been queued at start, would have been sent on the way.
        _ = try await silent.fetchOffers()
        #expect(try silent.stats().requestsSent == 1)
        #expect(try heads() == 1)
    }

    @Test func invalidConfigurationsAreRefusedAtStart() throws {
        for change: (inout BlinkEngageConfiguration) -> Void in [
            { $0.timeoutMilliseconds = 0 }, { $0.userAgent = "two\nlines" }, { $0.engageURL = "javascript:alert(1)" },
            { $0.zoneAdURLTemplate = "https://example.com/no-zone" }, { $0.proxyURL = "ftp://proxy" },
            { $0.pinnedPublicKeys = "sha256//short" }, { $0.prefetchTTLSeconds = 0 }, { $0.storageDirectory = "" },
            { $0.outboxMaximumItems = 0 }, { $0.caFile = "/no/such/file.pem" },
        ] {
            #expect(throws: BlinkEngageError.self) { try BlinkEngageSDK(configuration: self.fixture.configuration(change)) }
        }
    }
}
