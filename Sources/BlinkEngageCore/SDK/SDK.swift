#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One running SDK: owns the transports, the callback queue, the logger and the storage directory, and is the
/// only thing the C ABI talks to.
///
/// Threads. An SDK runs these, each named, each joined at shutdown:
/// - `be-transport`: drives libcurl for first-party requests (Engage, zone ads, and Moments in dispatch mode
///   without BE_FETCH_IO_ON_DISPATCH) and runs their completions, which decode answers and queue callbacks; at
///   most 8 connections, 4 per host.
/// - `be-beacons`: drives libcurl for tracking beacons to third-party pixel hosts, with its own 8 connections
///   (1 per host), so hanging pixel hosts never hold up a fetch.
/// - `be-outbox`: chooses what to deliver next from the durable queue, sleeps while nothing is due.
/// - `be-callbacks` (callbacks on the SDK thread only): runs host callbacks one at a time, and drives the
///   Moments fetches' libcurl (a `DrivenTransport` of its own, 8 connections, 4 per host), so the thread that
///   reads an answer decodes it and runs its callback. In dispatch mode there is none: host threads run
///   callbacks in `be_sdk_dispatch`, one at a time.
/// - `be-images` (from the first `be_sdk_fetch_image`): drives libcurl for images, with its own 12 connections
///   (6 per host), and reads and writes the disk cache of images between transfers.
/// With BE_FETCH_IO_ON_DISPATCH, Moments fetches use none of these: the host thread in `be_sdk_dispatch` drives
/// them. With a host transport, they go through it. Registration retries wait on a timer of the `be-transport`
/// thread. Host calls run on the host's threads and only take short locks, except `flush` (which waits,
/// bounded) and `shutdown`.
public final class SDK: Sendable {
    private enum Phase { case running, stopping, stopped }

    private struct Lifecycle {
        var phase = Phase.running
        /// Host calls currently inside the engine; shutdown waits for them so nothing is queued after it.
        var activeCalls = 0
    }

    public let configuration: SDKConfiguration
    /// The storage directory of this API key, or nil when the SDK keeps its state in memory.
    public let storageDirectory: String?
    /// The same, opened: every file of the store is reached through it.
    let storage: StorageDirectory?
    /// What the start found in storage (earlier formats, damage, a newer format), for the stats.
    let storageHealth: StorageHealth
    /// Feed events reported that could not be recorded (`refuseFeedEvent`).
    let refusedFeedEvents = Locked<UInt64>(0)
    let logger: Logger
    /// First-party requests: Moments, registration, feed, events, zone ads.
    let transport: any Transport
    /// Third-party tracking beacons, with connections of their own.
    let beaconTransport: any Transport
    let callbacks: CallbackQueue
    /// Moments fetches and prefetches, driven by the callback thread (callbacks on the SDK thread), by `dispatch`
    /// (BE_FETCH_IO_ON_DISPATCH) or by the first-party transport's thread; nil with a host transport.
    let drivenFetches: DrivenTransport?
    /// The same, when `dispatch` drives them (BE_FETCH_IO_ON_DISPATCH).
    private let dispatchedFetches: DrivenTransport?
    /// Where Moments fetches and prefetches go.
    var fetchTransport: any Transport {
        guard let drivenFetches else { return transport }
        return recorder.map { RecordingTransport(drivenFetches, recorder: $0) } ?? drivenFetches
    }
    /// What the SDK did and why, when the recorder is on.
    public let recorder: FlightRecorder?
    /// The durable queue of beacons and events.
    public let outbox: Outbox
    let registrar: Registrar
    let feedLoader: FeedLoader
    /// The user's privacy choices, in memory only (docs/PROTOCOL.md section 6).
    let privacy = Locked(PrivacySignals())
    /// Moments answers fetched ahead of time, each handed out once.
    let prefetches: PrefetchCache
    /// The last Moments request built and what it was built from: a fetch of an equal request (a host asking for
    /// the same placement again) sends it as it is. Building costs about 10K instructions, comparing a few hundred.
    let lastMomentsRequest = Locked<(request: MomentsRequest, privacy: PrivacySignals, built: HTTPRequest)?>(nil)
    /// The storage directory's database; nil when the SDK keeps its state in memory.
    let database: Database?
    /// Creatives and zone ad images, with their memory and disk caches.
    let images: ImageLoader
    /// The views of offers the host reports visibility for.
    let views: ViewTracker
    /// The crash-loop breaker's decision for this start, and its windows.
    let crashGuard: CrashLoopGuard
    private let lifecycle = ConditionLock(Lifecycle())
    private let forkGeneration = ForkGeneration.current()
    /// Marks the threads inside this SDK's host transport `send` (the host must not shut down from there).
    private let sendContext = ThreadContext()

    /// Starts an SDK from a copy of `configuration`.
    public init(configuration: SDKConfiguration) throws(EngineFailure) {
        ForkGate.install()  // before the first thread: a fork from now on waits for them to reach a safe point
        guard ForkGate.enter() else { throw ForkGate.refusal }
        defer { ForkGate.leave() }
        var configuration = configuration
        if let send = configuration.hostHTTPSend {
            // Every call of the host's send is marked, so that a shutdown from inside it is refused, not a hang.
            let context = sendContext
            configuration.hostHTTPSend = { exchange in context.run { send(exchange) } }
        }
        self.configuration = configuration
        logger = Logger(handler: configuration.logHandler, minimumLevel: configuration.logMinimumLevel)
        let log = logger
        let refusals: @Sendable (String) -> Void = { log.warning($0) }
        var directory: StorageDirectory?
        if let root = configuration.storageRoot {
            directory = try StorageDirectory.open(root: root, apiKey: configuration.apiKey, log: refusals)
        } else if let root = StorageLocation.defaultRoot() {
            do {
                directory = try StorageDirectory.open(root: root, apiKey: configuration.apiKey, log: refusals)
            } catch {
                logger.warning("no usable storage directory (\(error.message)); tracking is kept in memory only")
                directory = nil
            }
        } else {
            logger.warning("no home directory is known; tracking is kept in memory only")
            directory = nil
        }
        crashGuard = CrashLoopGuard(directory: directory, threshold: configuration.crashLoopThreshold, logger: logger)
        if crashGuard.mode == .safe, let aside = crashGuard.moveAside() {
            logger.error("stored data moved aside to \(aside); its queued reports come back at the next normal start")
        }
        let storage = crashGuard.mode == .inert ? nil : directory
        self.storage = storage
        storageDirectory = storage?.path
        let recorder = configuration.effectiveRecorderEntries > 0
            ? FlightRecorder(capacity: configuration.effectiveRecorderEntries, directory: storage) : nil
        self.recorder = recorder
        let recorded: @Sendable (any Transport) -> any Transport = { transport in
            recorder.map { RecordingTransport(transport, recorder: $0) } ?? transport
        }
        if let recorder, crashGuard.mode != .normal {
            recorder.decision(crashGuard.mode == .safe ? "safe_mode" : "inert", "the starts before this one kept stopping while reading stored or remote data")
        }
        var migration = StoreFormat.Migration(), heldFormat: Int64 = 0
        if let storage {
            do {
                switch try StoreFormat.open(storage) {
                case .ready(let opened, let done):
                    database = opened
                    migration = done
                case .newer(let found):
                    // A downgrade: what a newer library stored is not this one's to change or move.
                    logger.error("the storage directory \(storage.path) holds format \(found), newer than this library's \(StoreFormat.current): it is left untouched and its reports wait for a newer library; tracking is kept in memory only")
                    database = nil
                    heldFormat = found
                }
            } catch {
                // An explicitly configured root must work; the default one may fall back to memory.
                if configuration.storageRoot != nil { throw error }
                logger.warning("no usable database (\(error.message)); tracking is kept in memory only")
                database = nil
            }
        } else {
            database = nil
        }
        if migration.from > 0, migration.from < StoreFormat.current {
            logger.info("storage of format \(migration.from) brought to format \(StoreFormat.current): \(migration.carried) queued report(s) carried over, \(migration.lost) unreadable")
        }
        if migration.salvaged + migration.salvageLost > 0 {
            logger.warning("from the damaged database: \(migration.salvaged) queued report(s) copied into the new one, \(migration.salvageLost) could not be read")
        }
        storageHealth = StorageHealth(migration: migration, heldFormat: heldFormat)
        // Inside the start's window: a quarantine that makes this start die is kept, not tried again.
        if let database, let quarantine = crashGuard.takeQuarantine() {
            do {
                let count = try SQLiteOutboxStorage(database: database).adoptQuarantine(at: quarantine)
                logger.info("brought back \(count) queued report(s) from \(quarantine.path)")
            } catch {
                logger.warning("could not bring back the reports in \(quarantine.path): \(error.message)")
            }
            crashGuard.keep(quarantine)
        }
        images = ImageLoader(
            settings: ImageLoader.Settings(
                memoryBytes: configuration.imageMemoryCacheBytes,
                diskStorage: configuration.imageDiskCacheBytes > 0 && heldFormat == 0 ? storage : nil,
                diskBytes: configuration.imageDiskCacheBytes, userAgent: configuration.effectiveUserAgent,
                timeoutMilliseconds: configuration.timeoutMilliseconds,
                makeTransport: { [configuration] () throws(EngineFailure) in
                    recorded(try configuration.makeTransport(ImageLoader.transportOptions, pinned: false))
                }),
            logger: logger, recorder: recorder)
        prefetches = PrefetchCache(ttlNanoseconds: UInt64(configuration.prefetchTTLSeconds) * 1_000_000_000)
        // The fetches' transport comes first: the first-party transport's thread may be the one to drive it.
        // What runs threads is made here; a failure part-way undoes, in one place and in reverse, what was made, so
        // nothing a failed start made outlives it.
        var undo: [() -> Void] = []
        do {
            let callbacks = try CallbackQueue(mode: configuration.callbackMode)
            self.callbacks = callbacks
            let driven = try configuration.makeDrivenFetchTransport(Self.firstPartyTransport,
                                                                    alsoReadableWith: callbacks.readinessDescriptor)
            undo.append { driven?.shutdown() }
            let transport = recorded(try configuration.makeTransport(
                Self.firstPartyTransport, pinned: true, driving: configuration.transportThreadDrivesFetches ? driven : nil))
            self.transport = transport
            undo.append { transport.shutdown() }
            let beaconTransport = recorded(try configuration.makeTransport(Self.beaconTransport, pinned: false))
            self.beaconTransport = beaconTransport
            undo.append { beaconTransport.shutdown() }
            try callbacks.startThread(driving: driven)
            undo.append { callbacks.close() }  // first undone: its thread drives `driven`
            drivenFetches = driven
            dispatchedFetches = configuration.fetchIO == .dispatch ? driven : nil
            var outboxSettings = Outbox.Settings(
                apiKey: configuration.apiKey, engageURL: configuration.engageURL,
                userAgent: configuration.effectiveUserAgent, timeoutMilliseconds: configuration.timeoutMilliseconds,
                maximumItems: Int(configuration.outboxMaximumItems), maximumAgeSeconds: Int64(configuration.outboxMaximumAgeSeconds))
            outboxSettings.serviceOrigins = Set([configuration.momentsURL, configuration.engageURL].compactMap { $0.flatMap(BeaconURL.origin) })
            outbox = try Outbox(
                settings: outboxSettings,
                database: database, directory: database == nil ? nil : storage, transport: transport, beaconTransport: beaconTransport,
                logger: logger, recorder: recorder)
        } catch {
            for step in undo.reversed() { step() }
            throw error
        }
        let engage = configuration.engageURL.map {
            EngageRequests(baseURL: $0, apiKey: configuration.apiKey, userAgent: configuration.effectiveUserAgent,
                           timeoutMilliseconds: configuration.timeoutMilliseconds)
        }
        let privacy = self.privacy
        registrar = Registrar(requests: engage, transport: transport, store: IdentityStore(database: database, logger: logger), logger: logger,
                              privacy: { privacy.withLock { $0 } })
        outbox.setAuthorization(registrar)
        feedLoader = FeedLoader(requests: engage, transport: transport, registrar: registrar, logger: logger,
                                privacy: { privacy.withLock { $0 } },
                                cache: configuration.feedCacheMaxAgeSeconds > 0 && database != nil && crashGuard.mode == .normal
                                    ? FeedCache(database: database!, maximumAgeSeconds: configuration.feedCacheMaxAgeSeconds) : nil)
        let firstParty = transport
        views = ViewTracker(rule: configuration.viewability, schedule: { delay, check in
            firstParty.schedule(afterNanoseconds: delay, check)
        })
        views.whenCounted { [weak self] impression in self?.recordViewable(impression) }
        crashGuard.startFinished()
        logger.debug("started; storage at \(storageDirectory ?? "memory")")
        // The first fetch then costs one round trip, not three (TCP, TLS, the request). An inert start, or one
        // without an API key (its fetches fail before any request), makes no request of its own.
        if configuration.warmUpAtStart, crashGuard.mode != .inert, !configuration.apiKey.isEmpty { openConnectionsAhead() }
    }

    /// The service's requests: few, each waited for. A fetch right after the start's warm-up opens a connection
    /// of its own rather than wait out the warm-up's handshake to learn it cannot share it (HTTP/1.1).
    static let firstPartyTransport: TransportOptions = {
        var options = TransportOptions(threadName: "be-transport", maximumTotalConnections: 8, maximumConnectionsPerHost: 4)
        options.waitsToMultiplex = false
        return options
    }()

    // Beacons go one at a time per host anyway.
    static let beaconTransport = TransportOptions(
        threadName: "be-beacons", maximumTotalConnections: Outbox.maximumBeaconsInFlight, maximumConnectionsPerHost: 1)

    // MARK: - Calls from the host

    /// Whether this is a forked child of the process that started the SDK: its threads do not exist here, and
    /// its lock and descriptors are shared with the parent.
    var isForkedChild: Bool { ForkGeneration.current() != forkGeneration }

    /// Runs `body` as a host call: refused after shutdown began or in a forked child, and counted so that
    /// shutdown waits for it to leave.
    func hostCall<Result>(_ body: () throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        guard !isForkedChild else { throw .invalidState("the SDK cannot be used in a forked child process") }
        guard ForkGate.enter() else { throw ForkGate.refusal }
        defer { ForkGate.leave() }
        let admitted = lifecycle.withLock { state -> Bool in
            guard state.phase == .running else { return false }
            state.activeCalls += 1
            return true
        }
        guard admitted else { throw .invalidState("the SDK has been shut down") }
        defer { lifecycle.withLock { $0.activeCalls -= 1 } }
        return try body()
    }

    /// A host call that fetches something remote (offers, the feed, a zone ad, an image): refused, besides, when
    /// the crash-loop breaker left this start inert.
    func fetchCall<Result>(_ body: () throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        try hostCall { () throws(EngineFailure) -> Result in
            try crashGuard.refuseIfInert()
            return try body()
        }
    }

    /// Delivers `result` to `completion` through the callback queue (never inside the caller's call).
    func deliver<Value: Sendable>(_ result: Result<Value, ServiceError>, to completion: @escaping @Sendable (Result<Value, ServiceError>) -> Void) {
        callbacks.enqueue { completion(result) }
    }

    /// Waits until every beacon and event queued before the call is delivered or dropped by rule.
    public func flush(timeoutMilliseconds: UInt32) throws(EngineFailure) {
        let outcome = try hostCall { () throws(EngineFailure) in outbox.flush(timeoutMilliseconds: timeoutMilliseconds) }
        switch outcome {
        case .delivered: return
        case .timedOut: throw .timeout("not everything was delivered within \(timeoutMilliseconds) ms")
        case .offline: throw .timeout("the network is down: a connection failed during the flush")
        case .notOwner: throw .timeout("another instance holds this storage directory and delivers its items")
        }
    }

    /// Dispatch mode: does the fetches' ready I/O when they are driven here, then runs up to `maximum` queued
    /// callbacks here (all when <= 0). 0 in a forked child (the parent's callbacks are not the child's to run),
    /// inside a callback, or while another thread dispatches.
    public func dispatch(maximum: Int) -> Int {
        guard !isForkedChild else { return 0 }
        return callbacks.dispatch(maximum: maximum, driving: dispatchedFetches)
    }

    /// Dispatch mode: the descriptor that is readable while callbacks wait (or driven fetches have I/O to do);
    /// -1 otherwise and in a forked child.
    public var dispatchDescriptor: Int32 {
        guard !isForkedChild, callbacks.mode == .dispatch else { return -1 }
        return dispatchedFetches?.descriptor ?? callbacks.readinessDescriptor
    }

    /// Counters since start: requests and the tracking queue.
    public func statistics() throws(EngineFailure) -> SDKStatistics {
        try hostCall { () throws(EngineFailure) in
            let images = self.images.statistics
            var storage = StorageStatistics()
            storage.refused = self.storage?.refusedCount ?? 0
            storage.heldFormat = UInt64(clamping: storageHealth.heldFormat)
            let migration = storageHealth.migration
            storage.reportsMigrated = UInt64(migration.carried + migration.salvaged)
            storage.reportsUnrecoverable = UInt64(migration.lost + migration.salvageLost)
            return SDKStatistics(
                requestsSent: transport.requestsSent + beaconTransport.requestsSent + (drivenFetches?.requestsSent ?? 0) + images.requests,
                outbox: outbox.statistics, prefetchHits: prefetches.hits, images: images, viewableImpressions: views.impressions,
                crashLoopMode: crashGuard.mode.rawValue, storage: storage, feedEventsRefused: refusedFeedEvents.withLock { $0 })
        }
    }

    /// Logs `message` at `level` through the host's log handler (for the Swift surface's own decisions).
    public func log(_ level: LogLevel, _ message: String) {
        switch level {
        case .debug: logger.debug(message)
        case .info: logger.info(message)
        case .warning: logger.warning(message)
        case .error: logger.error(message)
        }
    }

    /// Runs `action` on the first-party transport's thread after `nanoseconds` (nothing after shutdown).
    public func afterDelay(nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        transport.schedule(afterNanoseconds: nanoseconds, action)
    }

    /// Cancels everything in flight, runs every callback still owed, stops the threads and silences the log.
    /// Returns false (and does nothing the caller must undo) when called from one of this SDK's own callbacks,
    /// or in a forked child, where it releases nothing the parent holds: no join, no unlock, no callback.
    ///
    /// Waits at most about `timeoutMilliseconds` for work that is not a host callback: a host thread's flush
    /// is ended first, so it cannot stretch the wait.
    @discardableResult
    public func shutdown(timeoutMilliseconds: UInt32) -> Bool {
        // In a forked child nothing is touched, not even a lock: a thread of the parent's may have held any of
        // them at the fork, and it does not exist here to let go. The ABI then keeps the handle, so this SDK is
        // never released, and nothing of it deinitialises, in the child.
        if isForkedChild { return false }
        if callbacks.isCurrentThreadInCallback {
            logger.error("be_sdk_shutdown was called from one of this SDK's callbacks; ignored")
            return false
        }
        if sendContext.isCurrentThreadInside {
            logger.error("be_sdk_shutdown was called from inside this SDK's host transport send function; ignored")
            return false
        }
        let first = lifecycle.withLock { state -> Bool in
            guard state.phase == .running else { return false }
            state.phase = .stopping
            return true
        }
        guard first else { return true }
        let deadline = MonotonicClock.deadline(afterMilliseconds: timeoutMilliseconds)
        // Host calls only take short locks, but a flush waits: end those, then wait for the calls to leave.
        outbox.abortFlushes()
        views.stop()  // a view in progress counts nothing
        _ = lifecycle.wait(until: { $0.activeCalls == 0 }) { _ in }
        let remaining = deadline > MonotonicClock.now() ? UInt32(clamping: (deadline - MonotonicClock.now()) / 1_000_000) : 0
        let owesNothing: Bool
        switch outbox.flush(timeoutMilliseconds: remaining) {
        case .delivered: owesNothing = true
        case let outcome:
            owesNothing = false
            logger.info("shutdown keeps undelivered tracking items on disk (\(outcome))")
        }
        outbox.stopDelivering(waitingUntil: deadline)
        // Every request in flight completes now with `.cancelled`; their callbacks are queued on return.
        // Cancelled sends keep their items: they are delivered after the next start.
        transport.shutdown()
        beaconTransport.shutdown()
        drivenFetches?.shutdown()
        images.close()
        // Loads still waiting for a registration get the cancellation error now.
        registrar.stop()
        outbox.close()
        // Nothing owed: the database's close need not fold the WAL in and sync it on the caller's thread.
        if owesNothing { database?.leaveWALAtClose() }
        callbacks.close()
        logger.debug("stopped")
        logger.close()
        lifecycle.withLock { $0.phase = .stopped }
        return true
    }

    deinit { shutdown(timeoutMilliseconds: 0) }
}
