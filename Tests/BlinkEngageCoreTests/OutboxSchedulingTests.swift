@testable import BlinkEngageCore
import Foundation
import Testing

/// The outbox's scheduling, driven pass by pass: memory storage, a transport that answers when told, and a clock
/// that moves when told. No thread of the outbox's, no server, no sleep: each test runs in milliseconds.
@Suite struct OutboxSchedulingTests {
    final class ManualClock: EngineClock {
        private let now = Locked((monotonic: UInt64(1_000_000_000), wall: Int64(1_800_000_000_000)))
        var monotonicNanoseconds: UInt64 { now.withLock { $0.monotonic } }
        var wallMilliseconds: Int64 { now.withLock { $0.wall } }
        func advance(milliseconds: Int64) {
            now.withLock { now in
                now.monotonic += UInt64(milliseconds) * 1_000_000
                now.wall += milliseconds
            }
        }
    }

    /// Keeps every request until the test answers it; the answer's completion runs on the test's thread.
    final class HeldTransport: Transport {
        private let held = Locked<[(request: HTTPRequest, completion: HTTPCompletion)]>([])
        private let sent = Locked<UInt64>(0)
        var requestsSent: UInt64 { sent.withLock { $0 } }
        func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
            sent.withLock { $0 += 1 }
            held.withLock { $0.append((request, completion)) }
        }
        func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {}
        func shutdown() { answerAll(with: .failure(.cancelled)) }

        var waiting: [HTTPRequest] { held.withLock { $0.map(\.request) } }

        /// Answers every request waiting now; returns how many.
        @discardableResult
        func answerAll(status: Int = 200, headers: [String: String] = [:]) -> Int {
            answerAll(with: .success(HTTPResponse(status: status, body: [], headers: headers)))
        }

        @discardableResult
        func answerAll(with outcome: Result<HTTPResponse, TransportError>) -> Int {
            let taken = held.withLock { held in defer { held = [] }; return held }
            for exchange in taken { exchange.completion(outcome) }
            return taken.count
        }
    }

    /// Hands out "token-1", "token-2"… one more each time the server refuses one.
    final class CountingAuthorization: EventAuthorization {
        let refusals = Locked(0)
        func bearerToken(forIdentity identity: String?) -> String? { "token-\(refusals.withLock { $0 } + 1)" }
        func tokenWasRefused(forIdentity identity: String?) { refusals.withLock { $0 += 1 } }
    }

    /// An outbox on memory storage with `transport` for events and beacons, driven by the caller.
    final class Harness {
        let clock = ManualClock()
        let transport = HeldTransport()
        /// Beacons to hosts other than the service's.
        let beaconTransport = HeldTransport()
        let storage: any OutboxStorage
        let outbox: Outbox
        var loop: DeliveryLoop

        /// - Parameter serviceOrigins: when given, beacons to other hosts go through `beaconTransport`.
        init(storage: any OutboxStorage = MemoryOutboxStorage(), ownership: DirectoryOwnership? = nil,
             serviceOrigins: Set<String> = []) throws {
            self.storage = storage
            var settings = Outbox.Settings(apiKey: "demo-key", engageURL: "http://engage.test", userAgent: "scheduling-tests",
                                           timeoutMilliseconds: 30_000, maximumItems: 10_000, maximumAgeSeconds: 86_400)
            settings.firstRetryNanoseconds = 1_000_000_000
            settings.serviceOrigins = serviceOrigins
            outbox = try Outbox(settings: settings, storage: storage, ownership: ownership, transport: transport,
                                beaconTransport: serviceOrigins.isEmpty ? nil : beaconTransport,
                                logger: Logger(handler: nil, minimumLevel: .error), clock: clock, startsThread: false)
            loop = DeliveryLoop(lastDataVersion: storage.dataVersion())
        }

        /// Runs passes until one would wait; returns that wait.
        @discardableResult
        func run() -> DeliveryWait {
            for _ in 0..<100 {
                let wait = outbox.deliveryPass(&loop)
                if wait != .again { return wait }
            }
            Issue.record("the delivery loop never settled")
            return .stop
        }

        /// Lets the clock pass `milliseconds`, then wakes the thread as its deadline would, and runs.
        @discardableResult
        func after(milliseconds: Int64, directoryChanged: Bool = false) -> DeliveryWait {
            clock.advance(milliseconds: milliseconds)
            outbox.woke(&loop, directoryChanged: directoryChanged, deadlinePassed: true)
            return run()
        }

        func event(_ id: String) throws { try outbox.enqueueEvent(json: #"{"id":"\#(id)"}"#, identity: "u") }

        /// The event ids in each events request waiting now.
        var eventBatches: [[String]] {
            transport.waiting.filter { $0.url.contains("/v1/events") }.map { request in
                let object = try? JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any]
                return (object?["events"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
        }

        func stop() {
            outbox.stopDelivering()
            transport.shutdown()
            beaconTransport.shutdown()
            outbox.close()
        }
    }

    /// The milliseconds from now to a wait's deadline; nil without one.
    func milliseconds(until wait: DeliveryWait, _ harness: Harness) -> Int64? {
        guard case .wait(let until?) = wait else { return nil }
        return Int64(until / 1_000_000) - Int64(harness.clock.monotonicNanoseconds / 1_000_000)
    }

    @Test func aBurstOfAHundredReportsLeavesInOneRequest() throws {
        let harness = try Harness()
        defer { harness.stop() }
        for index in 0..<100 { try harness.event("burst-\(index)") }
        harness.run()
        #expect(harness.eventBatches == [(0..<100).map { "burst-\($0)" }])
        harness.transport.answerAll()
        harness.after(milliseconds: 5)
        #expect(harness.transport.requestsSent == 1)
        #expect(harness.outbox.statistics.eventsDelivered == 100 && harness.outbox.statistics.queueDepth == 0)
    }

    /// The first report goes at once; those behind it wait for its answer and the batch window, then go together.
    @Test func reportsBehindABatchInFlightGoTogetherAfterIt() throws {
        let harness = try Harness()
        defer { harness.stop() }
        try harness.event("first")
        harness.run()
        #expect(harness.eventBatches == [["first"]])
        for index in 0..<99 { try harness.event("burst-\(index)") }
        harness.run()
        #expect(harness.eventBatches.count == 1)  // behind the batch in flight
        #expect(harness.transport.answerAll() == 1)
        let nap = harness.run()
        #expect(harness.transport.waiting.isEmpty)
        #expect(milliseconds(until: nap, harness).map { 0 < $0 && $0 <= 5 } == true)  // the batch window
        harness.after(milliseconds: 5)
        #expect(harness.eventBatches == [(0..<99).map { "burst-\($0)" }])
        harness.transport.answerAll()
        #expect(harness.after(milliseconds: 5) == .wait(until: nil))  // nothing left: asleep until signalled
        #expect(harness.transport.requestsSent == 2)
        #expect(harness.outbox.statistics.eventsDelivered == 100 && harness.outbox.statistics.queueDepth == 0)
        #expect(harness.storage.storedIDs()?.isEmpty == true)
    }

    @Test func aRefusedTokenIsRenewedOnceAndTheBatchRetriedWithTheNewOne() throws {
        let harness = try Harness()
        defer { harness.stop() }
        let authorization = CountingAuthorization()
        harness.outbox.setAuthorization(authorization)
        try harness.event("e1")
        try harness.event("e2")
        harness.run()
        #expect(harness.transport.waiting.first?.headers.contains { $0 == ("Authorization", "Bearer token-1") } == true)
        #expect(harness.transport.answerAll(status: 401) == 1)
        #expect(authorization.refusals.withLock { $0 } == 1)
        let wait = harness.run()
        #expect(harness.transport.waiting.isEmpty)  // backoff first: a server refusing every token is not hammered
        #expect((milliseconds(until: wait, harness) ?? 0) <= 1000)
        harness.after(milliseconds: 1000)
        #expect(harness.eventBatches == [["e1", "e2"]])
        #expect(harness.transport.waiting.first?.headers.contains { $0 == ("Authorization", "Bearer token-2") } == true)
        harness.transport.answerAll()
        harness.run()
        #expect(authorization.refusals.withLock { $0 } == 1)
        #expect(harness.outbox.statistics.eventsDelivered == 2)
    }

    @Test func retryAfterIsHonouredToTheSecond() throws {
        let harness = try Harness()
        defer { harness.stop() }
        try harness.outbox.enqueueBeacon(url: "http://pixels.test/b/1")
        harness.run()
        #expect(harness.transport.answerAll(status: 503, headers: ["retry-after": "30"]) == 1)
        harness.run()  // the batch window first
        let wait = harness.after(milliseconds: 5)
        #expect(milliseconds(until: wait, harness) == 29_995)
        harness.after(milliseconds: 29_994)
        #expect(harness.transport.waiting.isEmpty)
        // A flush ignores backoff but not what the server asked for.
        let ticket = try #require(harness.outbox.beginFlush())
        harness.run()
        #expect(harness.transport.waiting.isEmpty)
        #expect(harness.outbox.progress(of: ticket) == nil)
        harness.after(milliseconds: 1)
        #expect(harness.transport.answerAll() == 1)
        harness.run()
        #expect(harness.outbox.progress(of: ticket) == .delivered)
        harness.outbox.endFlush()
    }

    @Test func aFlushEndsTheBatchWindowAtOnce() throws {
        let harness = try Harness()
        defer { harness.stop() }
        try harness.outbox.enqueueBeacon(url: "http://pixels.test/b/1")
        harness.run()
        harness.transport.answerAll()
        try harness.outbox.enqueueBeacon(url: "http://pixels.test/b/2")
        // Napping out the window: the new report waits, and did not ask for a signal.
        let nap = harness.run()
        #expect(milliseconds(until: nap, harness).map { $0 > 0 } == true)
        #expect(harness.transport.waiting.isEmpty)
        #expect(harness.outbox.intake.withLock { $0.schedule.phase } == .napping(reports: 0))
        let ticket = try #require(harness.outbox.beginFlush())
        #expect(harness.outbox.intake.withLock { $0.schedule.changed })
        // Woken by the flush's signal before the window's end: the clock has not moved.
        harness.outbox.woke(&harness.loop, directoryChanged: false, deadlinePassed: false)
        harness.run()
        #expect(harness.transport.waiting.map(\.url).first?.hasPrefix("http://pixels.test/b/2") == true)
        harness.transport.answerAll()
        harness.run()
        #expect(harness.outbox.progress(of: ticket) == .delivered)
        harness.outbox.endFlush()
    }

    @Test func aFlushLearnsAtOnceThatTheNetworkIsDown() throws {
        let harness = try Harness()
        defer { harness.stop() }
        try harness.event("e1")
        let ticket = try #require(harness.outbox.beginFlush())
        harness.run()
        harness.transport.answerAll(with: .failure(.network("connection refused")))
        #expect(harness.outbox.progress(of: ticket) == .offline)
        harness.outbox.endFlush()
        #expect(harness.outbox.statistics.queueDepth == 1)  // kept for later
    }

    /// The service's own beacons ride its transport's kept connections; other hosts' keep a transport of their
    /// own. One at a time per host either way.
    @Test func theServicesOwnBeaconsGoThroughItsTransport() throws {
        let harness = try Harness(serviceOrigins: ["https://engage.test"])
        defer { harness.stop() }
        for url in ["https://engage.test/b/1", "https://ENGAGE.test/b/2", "https://pixels.test/b/3", "http://engage.test/b/4",
                    "https://engage.test:8443/b/5"] {
            try harness.outbox.enqueueBeacon(url: url)
        }
        harness.run()
        #expect(harness.transport.waiting.map(\.url) == ["https://engage.test/b/1"])
        // Never as TLS early data: a replayed beacon would count twice.
        #expect((harness.transport.waiting + harness.beaconTransport.waiting).allSatisfy { !$0.allowsEarlyData })
        // http://engage.test is another origin but the same host: it waits its turn there.
        #expect(Set(harness.beaconTransport.waiting.map(\.url)) == ["https://pixels.test/b/3", "https://engage.test:8443/b/5"])
        harness.beaconTransport.answerAll()
        harness.transport.answerAll()
        harness.after(milliseconds: 5)
        #expect(harness.transport.waiting.map(\.url) == ["https://engage.test/b/2"])  // after the first: one per host
        #expect(harness.beaconTransport.waiting.isEmpty)
        harness.transport.answerAll()
        harness.after(milliseconds: 5)
        #expect(harness.beaconTransport.waiting.map(\.url) == ["http://engage.test/b/4"])
        harness.beaconTransport.answerAll()
        harness.after(milliseconds: 5)
        #expect(harness.outbox.statistics.beaconsDelivered == 5)
    }

    /// Another owner held the directory and died with rows in the storage: this instance takes over when the
    /// directory says so, adopts them and delivers each once.
    @Test func aDeadOwnersRowsAreAdoptedAndDeliveredOnce() throws {
        let path = NSTemporaryDirectory() + "be-scheduling-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let storage = MemoryOutboxStorage()
        let owner = try DirectoryOwnership(directory: try StorageDirectory.at(path))
        #expect(owner.tryAcquire().held)
        let rows = try storage.insert((1...3).map { (.beacon(url: "http://pixels-\($0).test/b/\($0)"), 1_800_000_000_000) },
                                      movingJournal: nil, then: { _ in })
        let harness = try Harness(storage: storage, ownership: try DirectoryOwnership(directory: try StorageDirectory.at(path)))
        defer { harness.stop() }
        harness.run()
        #expect(!harness.outbox.isOwner)
        #expect(harness.transport.waiting.isEmpty)
        owner.release()  // what its death does
        harness.after(milliseconds: 0, directoryChanged: true)
        #expect(harness.outbox.isOwner)
        #expect(Set(harness.transport.waiting.compactMap { URL(string: $0.url)?.path }) == ["/b/1", "/b/2", "/b/3"])
        harness.transport.answerAll()
        harness.after(milliseconds: 5)
        #expect(harness.storage.storedIDs()?.isDisjoint(with: rows) == true)
        #expect(harness.outbox.statistics.beaconsDelivered == 3)
        #expect(harness.transport.requestsSent == 3)
    }
}
