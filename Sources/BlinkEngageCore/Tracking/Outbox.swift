#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Supplies the Engage token for event batches and hears when the server refused it (PROTOCOL.md section 2).
public protocol EventAuthorization: AnyObject, Sendable {
    func bearerToken(forIdentity identity: String?) -> String?
    /// The events endpoint answered 401: register again. The batch is retried either way, never dropped.
    func tokenWasRefused(forIdentity identity: String?)
}

/// The durable queue of beacons and events: every item is on disk before `enqueue` returns and leaves the
/// disk only once delivered (or dropped by rule). One thread decides what to send; the transport sends it.
///
/// Rules (PROTOCOL.md section 4): items start in queue order; beacons go one at a time per destination host;
/// events go one batch (at most 100) at a time; failures back off exponentially with jitter, Retry-After is
/// honoured; a failing item never holds back the ones behind it; other 4xx, the maximum age and the queue cap
/// drop items and count why.
public final class Outbox: Sendable {
    public struct Settings: Sendable {
        public var apiKey: String
        public var engageURL: String?
        public var userAgent: String
        public var timeoutMilliseconds: UInt32
        public var maximumItems: Int
        public var maximumAgeSeconds: Int64
        /// The first retry waits half to all of this; each further one doubles it (capped at 5 minutes).
        public var firstRetryNanoseconds = RetryPolicy.firstRetryNanoseconds

        public init(apiKey: String, engageURL: String?, userAgent: String, timeoutMilliseconds: UInt32,
                    maximumItems: Int, maximumAgeSeconds: Int64) {
            self.apiKey = apiKey
            self.engageURL = engageURL
            self.userAgent = userAgent
            self.timeoutMilliseconds = timeoutMilliseconds
            self.maximumItems = maximumItems
            self.maximumAgeSeconds = maximumAgeSeconds
        }
    }

    public enum FlushOutcome: Equatable, Sendable {
        case delivered
        case timedOut
        /// A connection failed during the flush: the network is down, waiting longer would not help.
        case offline
        /// Another instance or process holds the storage directory's lock and delivers its items.
        case notOwner
    }

    static let maximumBatch = 100
    static let maximumBeaconsInFlight = 8
    static let ownershipRetryNanoseconds: UInt64 = 250_000_000
    static let rescanNanoseconds: UInt64 = 1_000_000_000
    static let syncNanoseconds: UInt64 = 200_000_000

    private struct Entry {
        let item: OutboxItem
        let host: String
        var attempts = 0
        /// Monotonic instant before which backoff keeps the item waiting (a flush may ignore it).
        var notBefore: UInt64 = 0
        /// Monotonic instant before which the server asked us not to retry (a flush honours it).
        var serverNotBefore: UInt64 = 0
        var inFlight = false
        /// The store refused it (a full disk, say): it lives in memory only, and a rescan must not forget it.
        var memoryOnly = false
        /// The flush generation this item was last tried in, so a flush tries each item once.
        var triedInFlush = 0
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Queue order; may still list names already removed, which are skipped and compacted lazily.
        var order: [String] = []
        var statistics = OutboxStatistics()
        var eventBatchInFlight = false
        var busyBeaconHosts: Set<String> = []
        var beaconsInFlight = 0
        var stopping = false
        var wake = false
        var flushGeneration = 0
        var activeFlushes = 0
        var connectionFailures = 0
        /// Bumped when shutdown begins: flushes that started before it stop waiting.
        var flushAbortGeneration = 0
    }

    private enum Work {
        case events([OutboxItem], identity: String?)
        case beacon(OutboxItem)
    }

    public let settings: Settings
    private let store: OutboxStore
    private let ownership: OwnershipLock?
    /// Event batches go through the first-party transport, beacons through their own.
    private let transport: Transport
    private let beaconTransport: Transport
    private let logger: Logger
    private let state = ConditionLock(State())
    private let authorization = Locked<(any EventAuthorization)?>(nil)
    private let nameCounter = Locked<UInt64>(0)
    private let thread = Locked<NativeThread?>(nil)

    /// - Parameter storageDirectory: the API key's directory, or nil to keep items in memory only.
    init(settings: Settings, storageDirectory: String?, transport: Transport, beaconTransport: Transport? = nil,
         logger: Logger) throws(EngineFailure) {
        self.settings = settings
        self.transport = transport
        self.beaconTransport = beaconTransport ?? transport
        self.logger = logger
        if let storageDirectory {
            store = try DiskOutboxStore(storageDirectory: storageDirectory)
            ownership = try OwnershipLock(directory: storageDirectory)
        } else {
            store = MemoryOutboxStore()
            ownership = nil
        }
        _ = isOwner  // takes the directory (and its items) when no one else has it
        let started = try NativeThread(name: "be-outbox") { [unowned self] in self.deliveryLoop() }
        thread.withLock { $0 = started }
    }

    public func setAuthorization(_ provider: (any EventAuthorization)?) { authorization.withLock { $0 = provider } }

    /// Whether this instance may deliver (it holds the storage directory's lock, or works in memory). Takes
    /// the lock when it is free, and then adopts every item in the directory, other processes' included.
    public var isOwner: Bool {
        guard let ownership else { return true }
        if ownership.isHeld { return true }
        guard ownership.tryAcquire() else { return false }
        logger.debug("took over the tracking queue of this storage directory")
        reconcileWithStore()
        return true
    }

    public var statistics: OutboxStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.queueDepth = UInt64(state.entries.count)
            return statistics
        }
    }

    // MARK: - Queueing

    /// Queues a beacon URL durably.
    public func enqueueBeacon(url: String) throws(EngineFailure) {
        guard ServiceURL.isAbsoluteHTTP(url) else { throw .invalidArgument("not an http(s) beacon URL: \(url)") }
        enqueue(.beacon(url: url))
    }

    /// Queues an event (its JSON object, carrying its own id) durably, to go out under `identity`.
    public func enqueueEvent(json: String, identity: String?) throws(EngineFailure) {
        guard settings.engageURL != nil else { throw .invalidState("no Engage URL is configured: events cannot be delivered") }
        enqueue(.event(json: json, identity: identity))
    }

    private func enqueue(_ payload: OutboxItem.Payload) {
        let item = OutboxItem(name: nextName(), createdMilliseconds: WallClock.milliseconds(), payload: payload)
        var memoryOnly = false
        do {
            try store.write(item)
        } catch {
            // A full or broken disk must not lose what the host reported: it is delivered from memory, and
            // survives anything but the death of this process.
            logger.warning("could not store a tracking item (\(error.message)); keeping it in memory")
            memoryOnly = true
        }
        let dropped = state.withLock { state -> [OutboxItem] in
            state.entries[item.name] = Entry(item: item, host: Self.host(of: item), memoryOnly: memoryOnly)
            state.order.append(item.name)
            if item.isEvent { state.statistics.eventsQueued += 1 } else { state.statistics.beaconsQueued += 1 }
            state.wake = true
            return dropOverflow(&state)
        }
        if !dropped.isEmpty { logger.warning("tracking queue over its cap of \(settings.maximumItems): dropped the \(dropped.count) oldest") }
    }

    /// Names sort in queue order: wall-clock nanoseconds, then the process, then a counter.
    private func nextName() -> String {
        let counter = nameCounter.withLock { counter -> UInt64 in
            counter += 1
            return counter
        }
        func padded(_ value: UInt64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(WallClock.nanoseconds(), 20))-\(padded(UInt64(getpid()), 10))-\(padded(counter, 10))"
    }

    private static func host(of item: OutboxItem) -> String {
        if case .beacon(let url) = item.payload { return BeaconURL.host(of: url) }
        return ""
    }

    /// Drops (and deletes) the oldest items that are not being sent while the queue is over its cap.
    private func dropOverflow(_ state: inout State) -> [OutboxItem] {
        var dropped: [OutboxItem] = []
        var excess = state.entries.count - settings.maximumItems
        var index = 0
        while excess > 0, index < state.order.count {
            let name = state.order[index]
            index += 1
            guard let entry = state.entries[name], !entry.inFlight else { continue }
            store.remove(name)
            state.entries[name] = nil
            state.statistics.countDrop(of: entry.item, .overflow)
            dropped.append(entry.item)
            excess -= 1
        }
        return dropped
    }

    // MARK: - Flush and stop

    /// Tries every queued item now (ignoring backoff, honouring Retry-After) and waits until everything queued
    /// before the call is delivered or dropped, at most `timeoutMilliseconds`.
    public func flush(timeoutMilliseconds: UInt32) -> FlushOutcome {
        defer { store.sync() }
        guard isOwner else { return .notOwner }
        let deadline = MonotonicClock.deadline(afterMilliseconds: timeoutMilliseconds)
        let (pending, failuresBefore, abortGeneration) = state.withLock { state -> (Set<String>, Int, Int) in
            state.activeFlushes += 1
            state.flushGeneration += 1
            state.wake = true
            let deliverable = state.entries.filter { !$0.value.item.isEvent || settings.engageURL != nil }
            return (Set(deliverable.keys), state.connectionFailures, state.flushAbortGeneration)
        }
        defer { state.withLock { $0.activeFlushes -= 1 } }
        logger.debug("flush: waiting for \(pending.count) tracking item(s), at most \(timeoutMilliseconds) ms")
        let outcome = state.wait(until: { state in
            state.stopping || state.flushAbortGeneration != abortGeneration || state.connectionFailures > failuresBefore
                || pending.allSatisfy { state.entries[$0] == nil }
        }, deadline: deadline) { state -> FlushOutcome in
            if pending.allSatisfy({ state.entries[$0] == nil }) { return .delivered }
            return state.connectionFailures > failuresBefore ? .offline : .timedOut
        }
        return outcome ?? .timedOut
    }

    /// Stops the delivery thread. Sends in flight are left to the transport's shutdown, which cancels them
    /// without touching their items.
    func stopDelivering() {
        state.withLock { $0.stopping = true }
        thread.withLock { $0 }?.join()
    }

    /// Ends every flush in progress now (they report `.timedOut`): shutdown must not wait for a host thread's
    /// long flush before its own bounded one.
    func abortFlushes() { state.withLock { $0.flushAbortGeneration += 1 } }

    /// In a forked child: forgets the delivery thread (it does not exist there) and never touches the lock.
    func abandonAfterFork() {
        state.withLock { $0.stopping = true }
        thread.withLock { $0 }?.abandon()
        ownership?.abandonAfterFork()
    }

    /// Forces everything to disk and gives up the storage directory's lock.
    func close() {
        store.sync()
        ownership?.release()
    }

    // MARK: - The delivery thread

    private func deliveryLoop() {
        var nextOwnershipAttempt: UInt64 = 0
        var lastRescan = MonotonicClock.now()
        var lastSync = MonotonicClock.now()
        var lastSweep: UInt64 = 0
        while true {
            let now = MonotonicClock.now()
            if let ownership, !ownership.isHeld, now >= nextOwnershipAttempt {
                nextOwnershipAttempt = now + Self.ownershipRetryNanoseconds
                if isOwner { lastRescan = now }
            }
            let owner = ownership?.isHeld ?? true
            if owner, ownership != nil, now - lastRescan >= Self.rescanNanoseconds {
                reconcileWithStore()  // items queued by other processes on the same directory
                lastRescan = now
            }
            if now - lastSync >= Self.syncNanoseconds {
                store.sync()
                lastSync = now
            }
            if owner, now - lastSweep >= Self.rescanNanoseconds {
                sweep()
                lastSweep = now
            }
            let (work, wakeAt) = owner ? selectWork(now: now) : ([], UInt64.max)
            for unit in work { send(unit) }
            let nap = min(wakeAt, MonotonicClock.now() + Self.ownershipRetryNanoseconds)
            let stopping = state.wait(until: { $0.wake || $0.stopping }, deadline: nap) { state -> Bool in
                state.wake = false
                return state.stopping
            }
            if stopping == true { return }
        }
    }

    /// Chooses what to send now and marks it in flight. Stops scanning as soon as nothing more could be sent,
    /// so a long queue waiting behind a batch in flight costs nothing per wake-up. Returns when to look again.
    private func selectWork(now: UInt64) -> (work: [Work], wakeAt: UInt64) {
        state.withLock { state in
            var work: [Work] = []
            var wakeAt = UInt64.max
            var batch: [OutboxItem] = []
            var batchIdentity: String?
            let eventsWanted = settings.engageURL != nil && !state.eventBatchInFlight
            let flushing = state.activeFlushes > 0
            // Delivered items leave from the front: forget their names before scanning.
            let firstLive = state.order.firstIndex(where: { state.entries[$0] != nil }) ?? state.order.count
            if firstLive > 0 { state.order.removeFirst(firstLive) }
            for name in state.order {
                let eventsFull = !eventsWanted || batch.count >= Self.maximumBatch
                if eventsFull && state.beaconsInFlight >= Self.maximumBeaconsInFlight {
                    wakeAt = min(wakeAt, now + Self.ownershipRetryNanoseconds)  // look again when something finishes
                    break
                }
                guard var entry = state.entries[name], !entry.inFlight else { continue }
                let backoffOver = now >= entry.notBefore || (flushing && entry.triedInFlush < state.flushGeneration)
                guard now >= entry.serverNotBefore, backoffOver else {
                    wakeAt = min(wakeAt, max(entry.serverNotBefore, entry.notBefore))
                    continue
                }
                switch entry.item.payload {
                case .event(_, let identity):
                    guard !eventsFull else { continue }
                    if batch.isEmpty { batchIdentity = identity } else if identity != batchIdentity { continue }
                    batch.append(entry.item)
                case .beacon:
                    guard state.beaconsInFlight < Self.maximumBeaconsInFlight, !state.busyBeaconHosts.contains(entry.host) else { continue }
                    state.busyBeaconHosts.insert(entry.host)
                    state.beaconsInFlight += 1
                    work.append(.beacon(entry.item))
                }
                entry.inFlight = true
                entry.triedInFlush = state.flushGeneration
                state.entries[name] = entry
            }
            if !batch.isEmpty {
                state.eventBatchInFlight = true
                work.append(.events(batch, identity: batchIdentity))
            }
            return (work, wakeAt)
        }
    }

    /// Drops (and deletes) items older than the maximum age, and forgets removed names in the queue order.
    private func sweep() {
        let oldestAllowed = WallClock.milliseconds() - settings.maximumAgeSeconds * 1000
        let expired = state.withLock { state -> Int in
            var expired = 0
            var live: [String] = []
            live.reserveCapacity(state.entries.count)
            for name in state.order {
                guard let entry = state.entries[name] else { continue }
                if entry.item.createdMilliseconds < oldestAllowed, !entry.inFlight {
                    store.remove(name)
                    state.entries[name] = nil
                    state.statistics.countDrop(of: entry.item, .expired)
                    expired += 1
                } else {
                    live.append(name)
                }
            }
            state.order = live
            if expired > 0 { state.wake = true }  // a flush may be waiting for exactly these
            return expired
        }
        if expired > 0 { logger.info("dropped \(expired) tracking items older than \(settings.maximumAgeSeconds) s") }
    }

    private func send(_ work: Work) {
        switch work {
        case .beacon(let item):
            guard case .beacon(let url) = item.payload else { return }
            let request = HTTPRequest(
                method: .get, url: BeaconURL.bustingCache(url), headers: [("User-Agent", settings.userAgent)],
                timeoutMilliseconds: settings.timeoutMilliseconds, followRedirects: false)
            beaconTransport.send(request) { [self] outcome in finish([item], outcome, isEvent: false, identity: nil) }
        case .events(let items, let identity):
            let request = eventBatchRequest(items, identity: identity)
            transport.send(request) { [self] outcome in finish(items, outcome, isEvent: true, identity: identity) }
        }
    }

    private func eventBatchRequest(_ items: [OutboxItem], identity: String?) -> HTTPRequest {
        var body = #"{"events":["#
        for (index, item) in items.enumerated() {
            guard case .event(let json, _) = item.payload else { continue }
            if index > 0 { body += "," }
            body += json
        }
        body += "]}"
        var headers = [("Content-Type", "application/json"), ("Accept", "application/json"), ("User-Agent", settings.userAgent)]
        if let token = authorization.withLock({ $0 })?.bearerToken(forIdentity: identity) {
            headers.append(("Authorization", "Bearer \(token)"))
        }
        let url = PercentEncoding.url((settings.engageURL ?? "") + "/v1/events", query: [("api_key", settings.apiKey)])
        return HTTPRequest(method: .post, url: url, headers: headers.map { (name: $0.0, value: $0.1) }, body: Array(body.utf8),
                           timeoutMilliseconds: settings.timeoutMilliseconds)
    }

    /// Applies the verdict on one send to its items (runs on the transport thread).
    private func finish(_ items: [OutboxItem], _ outcome: Result<HTTPResponse, TransportError>, isEvent: Bool, identity: String?) {
        let now = MonotonicClock.now()
        let nowSeconds = WallClock.milliseconds() / 1000
        if isEvent, case .success(let response) = outcome, response.status == 401 {
            // Before the batch becomes ready again, so its retry can carry the new token.
            authorization.withLock { $0 }?.tokenWasRefused(forIdentity: identity)
        }
        let verdict = state.withLock { state -> DeliveryVerdict in
            let attempts = items.compactMap { state.entries[$0.name]?.attempts }.max() ?? 0
            let verdict = RetryPolicy.verdict(
                outcome, isEvent: isEvent, attempts: attempts + 1, nowEpochSeconds: nowSeconds,
                firstRetry: settings.firstRetryNanoseconds)
            switch outcome {
            case .failure(.network), .failure(.timeout): state.connectionFailures += 1  // a flush learns the network is down
            default: break
            }
            for item in items {
                guard var entry = state.entries[item.name] else { continue }
                entry.inFlight = false
                switch verdict {
                case .delivered:
                    store.remove(item.name)  // before the entry goes, so a finished flush finds the disk clean
                    state.entries[item.name] = nil
                    if isEvent { state.statistics.eventsDelivered += 1 } else { state.statistics.beaconsDelivered += 1 }
                    continue
                case .reject:
                    store.remove(item.name)
                    state.entries[item.name] = nil
                    state.statistics.countDrop(of: item, .rejected)
                    continue
                case .retry(let after, let serverAsked):
                    entry.attempts += 1
                    entry.notBefore = now + after
                    if serverAsked { entry.serverNotBefore = now + after }
                case .reauthorize:
                    // Retried with the same growing backoff as any failure: a server that keeps refusing every
                    // token must not be asked again and again.
                    entry.attempts += 1
                    entry.notBefore = now + RetryPolicy.backoffNanoseconds(attempts: entry.attempts, first: settings.firstRetryNanoseconds)
                case .untouched:
                    break
                }
                state.entries[item.name] = entry
            }
            if isEvent {
                state.eventBatchInFlight = false
            } else if let item = items.first {
                state.busyBeaconHosts.remove(Self.host(of: item))
                state.beaconsInFlight -= 1
            }
            state.wake = true
            return verdict
        }
        if case .reject(let status) = verdict {
            if case .failure(let error) = outcome {
                logger.warning("dropped \(items.count) tracking item(s): \(error.message)")
            } else {
                logger.warning("dropped \(items.count) tracking item(s): the server refused them with \(status)")
            }
        }
        if case .success(let response) = outcome, let retryAfter = response.headers["retry-after"],
           RetryPolicy.retryAfterSeconds(retryAfter, nowEpochSeconds: nowSeconds) == nil {
            logger.info("ignored a Retry-After that is unreadable or out of range: \"\(SafeText.clean(retryAfter))\"")
        }
    }

    /// Brings the in-memory queue in line with the store: items other processes queued join it, unreadable
    /// records are counted and skipped, items that vanished (delivered by an earlier owner) leave it.
    private func reconcileWithStore() {
        let names = store.names()
        let known = state.withLock { Set($0.entries.keys) }
        var loaded: [OutboxItem] = []
        var corrupt = 0
        for name in names where !known.contains(name) {
            do {
                if let item = try store.load(name) { loaded.append(item) }
            } catch {
                corrupt += 1
            }
        }
        if corrupt > 0 { logger.warning("skipped \(corrupt) unreadable tracking record(s)") }
        let onDisk = Set(names)
        let dropped = state.withLock { state -> [OutboxItem] in
            state.statistics.corruptRecords += UInt64(corrupt)
            if store is DiskOutboxStore {
                for (name, entry) in state.entries where !onDisk.contains(name) && !entry.inFlight && !entry.memoryOnly {
                    state.entries[name] = nil
                }
            }
            for item in loaded {
                state.entries[item.name] = Entry(item: item, host: Self.host(of: item))
            }
            if !loaded.isEmpty {
                state.order = state.entries.keys.sorted()
                state.wake = true
            }
            return dropOverflow(&state)
        }
        if !dropped.isEmpty { logger.warning("tracking queue over its cap: dropped the \(dropped.count) oldest") }
    }
}

/// Wall-clock time, for what must survive a restart (item ages, names across processes).
enum WallClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func milliseconds() -> Int64 { Int64(nanoseconds() / 1_000_000) }
}
