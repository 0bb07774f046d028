#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Supplies the Engage token for event batches and hears when the server refused it (docs/PROTOCOL.md section 2).
public protocol EventAuthorization: AnyObject, Sendable {
    func bearerToken(forIdentity identity: String?) -> String?
    /// The events endpoint answered 401: register again. The batch is retried either way, never dropped.
    func tokenWasRefused(forIdentity identity: String?)
}

/// The durable queue of beacons and events: a report is one write to this instance's journal before `enqueue`
/// returns (`OutboxJournal`), under a lock of its own (`Intake`). The delivery thread takes reports from there,
/// sends them, and moves what is still waiting into `blinkengage.db` (one transaction, which also records how far
/// the journal is moved) when it is about to sleep; a stored item leaves the database only once delivered (or
/// dropped by rule). Delivery is at least once: an answer the process dies before recording is sent again.
///
/// One concern a file: this one the state and the public face; `Outbox+Reports` reports coming in,
/// `Outbox+Delivery` the delivery thread, `Outbox+Store` the store I/O, `Outbox+Flush` flushes and the end.
/// The rules need no I/O and are tested without it: what to send (`OutboxQueue`), when (`DeliveryPacing`), what a
/// send's outcome means (`RetryPolicy`), and the bookkeeping around them (`OutboxState`).
///
/// Two processes on one directory: the one holding `outbox.lock` delivers; the others only store, and tell the
/// owner after each move into the database (`OwnershipLock.touch`, through the directory watch of Platform/),
/// which then reads the new rows. A process that is not the owner tries to take over when the watch says the
/// owner let go or died. Its own writes wake no one.
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

    static let maximumBeaconsInFlight = OutboxQueue.maximumBeaconsInFlight
    /// How often items the disk refused are written again, and (when the directory watch cannot hear the other
    /// processes) ownership is tried again and the database looked at.
    static let retryStoreNanoseconds: UInt64 = 1_000_000_000


    public let settings: Settings
    let store: OutboxStore
    /// The journal and the reports handed over (lock order: `state` first, never the reverse).
    let intake: Locked<OutboxIntake>
    /// The database store, when there is one: journals are moved into it.
    let databaseStore: SQLiteOutboxStore?
    /// The storage directory, where journals live.
    let directory: StorageDirectory?
    let ownership: OwnershipLock?
    /// Event batches go through the first-party transport, beacons through their own.
    let transport: any Transport
    let beaconTransport: any Transport
    let logger: Logger
    /// Told of drops and retries (the inspector).
    let recorder: FlightRecorder?
    let state: ConditionLock<OutboxState>
    let waker: WakeSignal
    let database: Database?
    let authorization = Locked<(any EventAuthorization)?>(nil)
    let thread = Locked<NativeThread?>(nil)
    /// Serialises taking the directory (its value: how many times this instance took it). Not `Locked<Void>`:
    /// two empty states can share an address, which ThreadSanitizer then reports as one variable.
    let acquisition = Locked(0)
    /// Orders reading new rows against deleting settled ones (see `adoptStoredItems`); its value counts reads.
    let storeSync = Locked(0)

    /// - Parameters:
    ///   - database: the storage directory's database, or nil to keep items in memory only.
    ///   - directory: the storage directory (for the ownership lock and change notification).
    init(settings: Settings, database: Database?, directory: StorageDirectory?, transport: any Transport, beaconTransport: (any Transport)? = nil,
         logger: Logger, recorder: FlightRecorder? = nil) throws(EngineFailure) {
        self.settings = settings
        self.recorder = recorder
        self.transport = transport
        self.beaconTransport = beaconTransport ?? transport
        self.logger = logger
        self.database = database
        var journal: OutboxJournal?
        if let database, let directory {
            let sqlite = SQLiteOutboxStore(database: database)
            databaseStore = sqlite
            store = sqlite
            ownership = try OwnershipLock(directory: directory)
            self.directory = directory
            do {
                journal = try OutboxJournal(directory: directory)
            } catch {
                logger.warning("no tracking journal (\(error.message)); each report is a database insert")
            }
        } else {
            store = MemoryOutboxStore()
            databaseStore = nil
            ownership = nil
            self.directory = nil
        }
        var queue = OutboxQueue(maximumItems: settings.maximumItems, eventsEnabled: settings.engageURL != nil)
        queue.firstRetryNanoseconds = settings.firstRetryNanoseconds
        state = ConditionLock(OutboxState(queue: queue))
        intake = Locked(OutboxIntake(journal: journal))
        waker = try WakeSignal(watching: ownership?.watch)
        if case .recovered(let aside, let reason)? = database?.openOutcome {
            logger.warning("the tracking database was damaged (\(reason)); moved aside to \(aside), starting afresh")
            state.withLock { $0.queue.statistics.corruptRecords += 1 }
        }
        _ = recoverDeadJournals()  // what instances that died left unmoved, before anyone adopts the rows
        _ = isOwner  // takes the directory (and its items) when no one else has it
        let started = try NativeThread(name: "be-outbox") { [unowned self] in self.deliveryLoop() }
        thread.withLock { $0 = started }
    }

    public func setAuthorization(_ provider: (any EventAuthorization)?) { authorization.withLock { $0 = provider } }

    /// Whether this instance may deliver (it holds the storage directory's lock, or works in memory). Takes
    /// the lock when it is free, and then adopts every item in the store, other processes' included.
    public var isOwner: Bool {
        guard let ownership else { return true }
        // One thread at a time takes the lock and adopts the directory's items; the others wait for that to
        // finish, so none answers "owner" with the adoption half done, and none adopts a second time.
        return acquisition.withLock { takeovers in
            if ownership.isHeld { return true }
            guard ownership.tryAcquire().acquiredNow else { return false }
            takeovers += 1
            logger.debug("took over the tracking queue of this storage directory")
            adoptStoredItems(all: true)
            return true
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
        let dropped = state.withLock { state -> [OutboxItem] in
            // One intake section: no report can slip between taking the pending ones and replacing the journal.
            let items = intake.withLock { intake -> [OutboxItem] in
                for (item, end) in intake.erase(directory: directory) { state.queue.append(item, journalEnd: end) }
                return state.queue.eraseAll()
            }
            state.queue.statistics.droppedPrivacy += UInt64(items.count)
            state.wake = true
            return items
        }
        // Other processes' rows too: the user asked for all of it. One transaction for both.
        store.delete(Array(Set(Self.rowIDs(of: dropped)).union(store.storedIDs() ?? [])))
        return dropped.count
    }

    /// The store rows of `items`; items kept in memory only (negative ids) have none.
    static func rowIDs(of items: [OutboxItem]) -> [Int64] { items.map(\.id).filter { $0 > 0 } }

    /// How many items the store holds now, this process's and others', with those still in this instance's
    /// journal (tests and tools). nil when the store cannot be read now.
    public func storedItemCount() -> Int? {
        guard let stored = store.storedIDs()?.count else { return nil }
        return stored + state.withLock { state in
            takePending(into: &state)
            return state.queue.journaled.count { state.queue.entry($0.id)?.journaled == true }
        }
    }

}
