/// Supplies the Engage token for event batches and hears when the server refused it (docs/PROTOCOL.md section 2).
public protocol EventAuthorization: AnyObject, Sendable {
    func bearerToken(forIdentity identity: String?) -> String?
    /// The events endpoint answered 401: register again. The batch is retried either way, never dropped.
    func tokenWasRefused(forIdentity identity: String?)
}

/// The durable queue of beacons and events: a report is one write to this instance's journal before `enqueue`
/// returns (`OutboxJournal`), under a lock of its own (`OutboxIntake`). The delivery thread takes reports from
/// there, sends them, and moves what is still waiting into the storage (one transaction, which also records how
/// far the journal is moved) when it is about to sleep; a stored item leaves the storage only once delivered (or
/// dropped by rule). Delivery is at least once: an answer the process dies before recording is sent again.
///
/// One concern a file: this one the state and the public face; `Outbox+Reports` reports coming in,
/// `Outbox+Delivery` the delivery thread, `Outbox+Store` the storage I/O, `Outbox+Flush` flushes and the end.
/// The rules need no I/O and are tested without it: what to send (`OutboxQueue`), when (`DeliveryPacing`), what a
/// send's outcome means (`RetryPolicy`), when to signal the thread (`DeliverySchedule`), and the bookkeeping
/// around them (`OutboxState`). Storage is one `OutboxStorage` (SQLite, or memory), time one `EngineClock`.
///
/// Locks, in the one order they nest (`LockRank`, checked in debug builds): the directory's takeover
/// (`DirectoryOwnership`), the storage's, `state`, `intake`, the database's. `authorization` and `thread` are
/// leaves: nothing is taken while they are held.
///
/// Two processes on one directory: the one holding `outbox.lock` delivers; the others only store, and tell the
/// owner after each move into the database (`DirectoryOwnership.touch`, through the directory watch of
/// Platform/), which then reads the new rows. A process that is not the owner tries to take over when the watch
/// says the owner let go or died. Its own writes wake no one.
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
        /// The service's origins (`BeaconURL.origin`: its Moments and Engage URLs'). A beacon to one of them goes
        /// through the first-party transport, whose connections to it are kept warm (the start's warm-up, the
        /// service's own requests): an impression right after a feed or an answer then opens no connection of its
        /// own. Other hosts' beacons keep a transport of their own, so a slow pixel host holds back no service call.
        public var serviceOrigins: Set<String> = []

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

    static let maximumBeaconsInFlight = OutboxQueue.maximumBeaconsInFlight
    /// How often items the disk refused are written again, and (when the directory watch cannot hear the other
    /// processes) ownership is tried again and the storage looked at.
    static let retryStoreNanoseconds: UInt64 = 1_000_000_000

    public let settings: Settings
    let storage: any OutboxStorage
    /// The storage directory's delivery right; nil in memory (then this instance always delivers).
    let ownership: DirectoryOwnership?
    /// The queue and its bookkeeping.
    let state: ConditionLock<OutboxState>
    /// The journal, the reports handed over, and the delivery schedule.
    let intake: Locked<OutboxIntake>
    /// Event batches and the service's own beacons go through the first-party transport, other beacons through
    /// their own.
    let transport: any Transport
    let beaconTransport: any Transport
    let clock: any EngineClock
    let logger: Logger
    /// Told of drops and retries (the inspector).
    let recorder: FlightRecorder?
    let waker: WakeSignal
    let authorization = Locked<(any EventAuthorization)?>(nil)
    let thread = Locked<NativeThread?>(nil)

    /// An outbox on the storage directory's database (`database` and `directory`), or in memory (nil).
    convenience init(settings: Settings, database: Database?, directory: StorageDirectory?, transport: any Transport,
                     beaconTransport: (any Transport)? = nil, logger: Logger, recorder: FlightRecorder? = nil) throws(EngineFailure) {
        let storage: any OutboxStorage = database.map { SQLiteOutboxStorage(database: $0, directory: directory) } ?? MemoryOutboxStorage()
        let ownership = try database == nil ? nil : directory.map { directory throws(EngineFailure) in try DirectoryOwnership(directory: directory) }
        try self.init(settings: settings, storage: storage, ownership: ownership, transport: transport, beaconTransport: beaconTransport,
                      logger: logger, recorder: recorder)
    }

    /// - Parameters:
    ///   - storage: where items wait; its journals come from it too.
    ///   - ownership: the directory's delivery right, or nil when no other instance can share the storage.
    ///   - clock: the time every rule reads (waits still last real time).
    ///   - startsThread: false leaves delivery to whoever calls `deliveryPass` (the tests of scheduling).
    init(settings: Settings, storage: any OutboxStorage, ownership: DirectoryOwnership?, transport: any Transport,
         beaconTransport: (any Transport)? = nil, logger: Logger, recorder: FlightRecorder? = nil,
         clock: any EngineClock = SystemClock(), startsThread: Bool = true) throws(EngineFailure) {
        self.settings = settings
        self.storage = storage
        self.ownership = ownership
        self.recorder = recorder
        self.transport = transport
        self.beaconTransport = beaconTransport ?? transport
        self.clock = clock
        self.logger = logger
        var journal: OutboxJournal?
        do {
            journal = try storage.makeJournal()
        } catch {
            logger.warning("no tracking journal (\(error.message)); each report is a database insert")
        }
        var queue = OutboxQueue(maximumItems: settings.maximumItems, eventsEnabled: settings.engageURL != nil)
        queue.firstRetryNanoseconds = settings.firstRetryNanoseconds
        state = ConditionLock(OutboxState(queue: queue), rank: .outboxState)
        intake = Locked(OutboxIntake(journal: journal), rank: .intake)
        waker = try WakeSignal(watching: ownership?.watch)
        if let damage = storage.damageAtOpen {
            logger.warning("the tracking database was damaged (\(damage.reason)); moved aside to \(damage.movedTo), starting afresh")
            state.withLock { $0.queue.statistics.corruptRecords += 1 }
        }
        _ = recoverDeadJournals()  // what instances that died left unmoved, before anyone adopts the rows
        _ = isOwner  // takes the directory (and its items) when no one else has it
        guard startsThread else { return }
        let started = try NativeThread(name: "be-outbox") { [unowned self] in self.deliveryLoop() }
        thread.withLock { $0 = started }
    }

    public func setAuthorization(_ provider: (any EventAuthorization)?) { authorization.withLock { $0 = provider } }

    /// Whether this instance may deliver (it holds the storage directory's lock, or works in memory). Takes
    /// the lock when it is free, and then adopts every item in the storage, other processes' included.
    public var isOwner: Bool {
        guard let ownership else { return true }
        return ownership.claim {
            logger.debug("took over the tracking queue of this storage directory")
            adoptStoredItems(all: true)
        }
    }

    public var statistics: OutboxStatistics {
        let (statistics, dropped) = state.withLock { state in
            takePending(into: &state)
            let dropped = state.queue.dropOverflow()  // the cap holds in what the host reads
            var statistics = state.queue.statistics
            statistics.queueDepth = UInt64(state.queue.count)
            return (statistics, dropped)
        }
        dropOverflowRows(dropped)
        return statistics
    }

    /// Counts a beacon withheld for the user's privacy choices.
    func countPrivacyDrop() { state.withLock { $0.queue.statistics.droppedPrivacy += 1 } }

    /// Erasure: drops every queued item (counted as privacy drops) and deletes their rows; items in flight are
    /// dropped when their answer comes. Returns how many were dropped.
    @discardableResult
    func eraseAll() -> Int {
        let (dropped, mustSignal) = state.withLock { state -> ([OutboxItem], Bool) in
            // One intake section: no report can slip between taking the pending ones and replacing the journal.
            let (items, mustSignal) = intake.withLock { intake -> ([OutboxItem], Bool) in
                for (item, end) in intake.erase(storage: storage) { state.queue.append(item, journalEnd: end) }
                return (state.queue.eraseAll(), intake.schedule.change())
            }
            state.queue.statistics.droppedPrivacy += UInt64(items.count)
            return (items, mustSignal)
        }
        if mustSignal { waker.signal() }
        // Other processes' rows too: the user asked for all of it. One transaction for both.
        storage.delete(Array(Set(Self.rowIDs(of: dropped)).union(storage.storedIDs() ?? [])))
        return dropped.count
    }

    /// The storage rows of `items`; items kept in memory only (negative ids) have none.
    static func rowIDs(of items: [OutboxItem]) -> [Int64] { items.map(\.id).filter { $0 > 0 } }

    /// How many items the storage holds now, this process's and others', with those still in this instance's
    /// journal (tests and tools). nil when the storage cannot be read now.
    public func storedItemCount() -> Int? {
        guard let stored = storage.storedIDs()?.count else { return nil }
        return stored + state.withLock { state in
            takePending(into: &state)
            return state.queue.journaled.count { state.queue.entry($0.id)?.journaled == true }
        }
    }

    /// Records a change the delivery thread must see at once, napping or not (a flush), and signals it when it
    /// would otherwise not (see `DeliverySchedule.change`). Under `state` or alone: the intake's lock comes after it.
    func noteUrgentChange() {
        if intake.withLock({ $0.schedule.change(endsNap: true) }) { waker.signal() }
    }
}
