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

/// The durable queue of beacons and events: a report is one write to this instance's journal before `enqueue`
/// returns (`OutboxJournal`), under a lock of its own (`Intake`). The delivery thread takes reports from there,
/// sends them, and moves what is still waiting into `blinkengage.db` (one transaction, which also records how far
/// the journal is moved) when it is about to sleep; a stored item leaves the database only once delivered (or
/// dropped by rule). Delivery is at least once: an answer the process dies before recording is sent again. The
/// rules live in `OutboxQueue`; this class owns the locks, the store I/O and the delivery thread, which sleeps
/// until there is something to do.
///
/// Two processes on one directory: the one holding `outbox.lock` delivers; the others only store, and touch the
/// lock file after each move into the database. The owner's directory watch (inotify) sees the touch and reads
/// the new rows; a process that is not the owner tries to take over when the directory changes (the owner touches
/// the lock file when it lets go, and its exit closes its files). Its own writes wake no one.
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
    /// How often items the disk refused are written again, and (without inotify) ownership is tried again.
    static let retryStoreNanoseconds: UInt64 = 1_000_000_000
    /// The least time between two choices of what to send (outside flushes), so a burst of reports goes out in
    /// few requests and the delivery thread does not compete with the reporting thread for the database.
    static let batchWindowNanoseconds: UInt64 = 5_000_000

    private struct State {
        var queue: OutboxQueue
        var stopping = false
        var wake = false
        /// The delivery thread waits on `WakeSignal` with nothing due soon: a change must signal it. (While it
        /// naps out a batch window it wakes by itself; only a flush, an answer, or a whole batch's worth of
        /// reports signals.)
        var sleeping = false
        var napping = false
        /// An item the store refused lives in memory only: the delivery thread tries to write it.
        var hasMemoryOnly = false
        var connectionFailures = 0
        /// Bumped when shutdown begins: flushes that started before it stop waiting.
        var flushAbortGeneration = 0
        /// Settled items whose rows the delivery thread has yet to delete or update; never adopted again.
        var pendingDeletes: Set<Int64> = []
        var pendingRetries: [(id: Int64, attempts: Int, wallMilliseconds: Int64)] = []
        /// The highest row id read from the store.
        var lastLoadedID: Int64 = 0
        /// Old id to row id of items stored while a flush waits on their old ids.
        var renamed: [Int64: Int64] = [:]

        /// Delivered or dropped, and its row deleted: a finished flush finds the store clean.
        func isSettledAndStored(_ id: Int64) -> Bool {
            let current = renamed[id] ?? id
            return queue.entry(current) == nil && !pendingDeletes.contains(current)
        }

        /// Records that a pending item is now the row `newID`; false when it left the queue meanwhile.
        mutating func stored(pendingID oldID: Int64, as newID: Int64) -> Bool {
            guard queue.stored(pendingID: oldID, as: newID) else { return false }
            if queue.activeFlushes > 0 { renamed[oldID] = newID }
            return true
        }

        /// Records that journaled items are now the rows `renames` names; returns the rows of those no longer
        /// queued (dropped while journaled), which must be deleted.
        mutating func stored(journaled renames: [(old: Int64, new: Int64)]) -> [Int64] {
            let orphans = queue.stored(journaled: renames)
            if queue.activeFlushes > 0 { for rename in renames { renamed[rename.old] = rename.new } }
            return orphans
        }
    }

    public let settings: Settings
    private let store: OutboxStore
    /// The journal and the reports handed over (lock order: `state` first, never the reverse).
    private let intake: Locked<OutboxIntake>
    /// The database store, when there is one: journals are moved into it.
    private let databaseStore: SQLiteOutboxStore?
    /// The storage directory, where journals live.
    private let directory: String?
    private let ownership: OwnershipLock?
    /// Event batches go through the first-party transport, beacons through their own.
    private let transport: any Transport
    private let beaconTransport: any Transport
    private let logger: Logger
    private let state: ConditionLock<State>
    private let waker: WakeSignal
    private let database: Database?
    private let authorization = Locked<(any EventAuthorization)?>(nil)
    private let thread = Locked<NativeThread?>(nil)
    /// Serialises taking the directory (its value: how many times this instance took it). Not `Locked<Void>`:
    /// two empty states can share an address, which ThreadSanitizer then reports as one variable.
    private let acquisition = Locked(0)
    /// Orders reading new rows against deleting settled ones (see `adoptStoredItems`); its value counts reads.
    private let storeSync = Locked(0)

    /// - Parameters:
    ///   - database: the storage directory's database, or nil to keep items in memory only.
    ///   - directory: the storage directory (for the ownership lock and change notification).
    init(settings: Settings, database: Database?, directory: String?, transport: any Transport, beaconTransport: (any Transport)? = nil,
         logger: Logger) throws(EngineFailure) {
        self.settings = settings
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
        state = ConditionLock(State(queue: queue))
        intake = Locked(OutboxIntake(journal: journal))
        waker = try WakeSignal(watching: database == nil ? nil : directory)
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
    private static func rowIDs(of items: [OutboxItem]) -> [Int64] { items.map(\.id).filter { $0 > 0 } }

    /// How many items the store holds now, this process's and others', with those still in this instance's
    /// journal (tests and tools). nil when the store cannot be read now.
    public func storedItemCount() -> Int? {
        guard let stored = store.storedIDs()?.count else { return nil }
        return stored + state.withLock { state in
            takePending(into: &state)
            return state.queue.journaled.count { state.queue.entry($0.id)?.journaled == true }
        }
    }

    // MARK: - Queueing

    /// Queues a beacon URL durably.
    public func enqueueBeacon(url: String) throws(EngineFailure) {
        guard ServiceURL.isAbsoluteHTTP(url) else { throw .invalidArgument("not an http(s) beacon URL: \(SafeText.clean(url))") }
        enqueue(.beacon(url: url))
    }

    /// Queues an event (its JSON object, carrying its own id) durably, to go out under `identity`.
    public func enqueueEvent(json: String, identity: String?, privacy: PrivacySignals = PrivacySignals()) throws(EngineFailure) {
        guard settings.engageURL != nil else { throw .invalidState("no Engage URL is configured: events cannot be delivered") }
        enqueue(.event(json: json, identity: identity, privacy: privacy.encodedQuery))
    }

    /// One write to the journal. Without a journal, or when it refuses (a full disk), one insert; when the store
    /// refuses too, the item is kept in memory and written again every second and at shutdown, and delivered
    /// from memory meanwhile.
    private func enqueue(_ payload: OutboxItem.Payload) {
        let created = WallClock.milliseconds()
        if let record = JournalRecord.encode(payload, createdMilliseconds: created),
           enqueueJournaled(payload, record, created) { return }
        var storedID: Int64?
        do {
            storedID = try store.insert(payload, createdMilliseconds: created)
        } catch {
            logger.warning("could not store a tracking item (\(error.message)); keeping it in memory and trying again")
        }
        let (dropped, mustSignal) = state.withLock { state -> ([OutboxItem], Bool) in
            takePending(into: &state)  // keeps report order
            let id = storedID ?? intake.withLock { $0.takeMemoryID() }
            if storedID == nil { state.hasMemoryOnly = true }
            let item = OutboxItem(id: id, createdMilliseconds: created, payload: payload)
            if let storedID, storedID <= state.lastLoadedID {
                // Between the insert and this lock the delivery thread read the row from the store: it is
                // queued from there, or already delivered and deleted. Queueing it again would send it twice.
                state.queue.countQueued(item)
            } else {
                state.queue.append(item, memoryOnly: storedID == nil)
            }
            return queued(item, in: &state)
        }
        if mustSignal { waker.signal() }
        // Another process delivers: tell it (its directory watch sees the lock file touched).
        if storedID != nil, let ownership, !ownership.isHeld { ownership.touch() }
        dropOverflowRows(dropped)
    }

    /// Appends the report to the journal and hands it to the queue, under the intake lock only; false when there
    /// is no journal or it refused the write.
    private func enqueueJournaled(_ payload: OutboxItem.Payload, _ record: [UInt8], _ created: Int64) -> Bool {
        var failure: EngineFailure?
        let mustSignal = intake.withLock { intake -> Bool? in
            do throws(EngineFailure) {
                return try intake.append(record, payload: payload, createdMilliseconds: created)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { logger.warning("could not write a tracking item to the journal (\(failure.message))") }
        guard let mustSignal else { return false }
        if mustSignal { waker.signal() }
        return true
    }

    /// Moves the journaled reports the queue has yet to take into it (the caller applies the cap). Returns the
    /// journal's name, size and how much of it is moved, read with the same lock held: every record up to that
    /// size is then in the queue, or was delivered or dropped from it.
    @discardableResult
    private func takePending(into state: inout State) -> (name: String, size: Int, consumed: Int)? {
        let (taken, journal) = intake.withLock { $0.takePending() }
        for (item, end) in taken { state.queue.append(item, journalEnd: end) }
        // Taken here, their hand-off can no longer wake the delivery thread (a move after a choice, a statistics
        // call): it must look at the queue again before it sleeps.
        if !taken.isEmpty { state.wake = true }
        return journal
    }

    /// On the delivery thread: takes the reports handed off since it last looked, applying the cap. Returns
    /// whether there were any.
    private func takeReports() -> Bool {
        let (took, dropped) = state.withLock { state -> (Bool, [OutboxItem]) in
            let before = state.queue.journaled.count
            takePending(into: &state)
            return (state.queue.journaled.count > before, state.queue.dropOverflow())
        }
        dropOverflowRows(dropped)
        return took
    }

    /// After queueing `item`: whether the delivery thread must be woken, and what is over the cap.
    private func queued(_ item: OutboxItem, in state: inout State) -> ([OutboxItem], Bool) {
        state.wake = true
        // An event behind a batch in flight goes out when that batch's answer wakes the thread: no wake now.
        let sendableNow = !(item.isEvent && state.queue.eventBatchInFlight)
        return (state.queue.dropOverflow(), state.sleeping && sendableNow)
    }

    private func dropOverflowRows(_ dropped: [OutboxItem]) {
        guard !dropped.isEmpty else { return }
        store.delete(Self.rowIDs(of: dropped))
        logger.warning("tracking queue over its cap of \(settings.maximumItems): dropped the \(dropped.count) oldest")
    }

    // MARK: - Flush and stop

    /// Tries every queued item now (ignoring backoff, honouring Retry-After) and waits until everything queued
    /// before the call is delivered or dropped, at most `timeoutMilliseconds`.
    public func flush(timeoutMilliseconds: UInt32) -> FlushOutcome {
        guard isOwner else { return .notOwner }
        // Items other processes queued count as "queued before the call" too: read them in now rather than rely
        // on their change notice having arrived.
        if ownership != nil { adoptStoredItems(all: false) }
        let deadline = MonotonicClock.deadline(afterMilliseconds: timeoutMilliseconds)
        let (pending, failuresBefore, abortGeneration, dropped) = state.withLock { state in
            takePending(into: &state)
            let dropped = state.queue.dropOverflow()
            state.queue.activeFlushes += 1
            state.queue.flushGeneration += 1
            state.wake = true
            return (state.queue.flushableIDs, state.connectionFailures, state.flushAbortGeneration, dropped)
        }
        dropOverflowRows(dropped)
        waker.signal()  // always: the thread may be napping out a batch window
        defer {
            state.withLock { state in
                state.queue.activeFlushes -= 1
                if state.queue.activeFlushes == 0 { state.renamed = [:] }
            }
        }
        logger.debug("flush: waiting for \(pending.count) tracking item(s), at most \(timeoutMilliseconds) ms")
        let outcome = state.wait(until: { state in
            state.stopping || state.flushAbortGeneration != abortGeneration || state.connectionFailures > failuresBefore
                || pending.allSatisfy { state.isSettledAndStored($0) }
        }, deadline: deadline) { state -> FlushOutcome in
            if pending.allSatisfy({ state.isSettledAndStored($0) }) { return .delivered }
            return state.connectionFailures > failuresBefore ? .offline : .timedOut
        }
        return outcome ?? .timedOut
    }

    /// Ends every flush in progress now (they report `.timedOut`): shutdown must not wait for a host thread's
    /// long flush before its own bounded one.
    func abortFlushes() { state.withLock { $0.flushAbortGeneration += 1 } }

    /// Stops the delivery thread, then lets the sends in flight finish until `deadline` (monotonic): a send
    /// cancelled after the server took it would be sent again by the next owner. Whatever is still in flight
    /// then is left to the transport's shutdown, which cancels it without touching its items.
    func stopDelivering(waitingUntil deadline: UInt64 = 0) {
        state.withLock { $0.stopping = true }
        waker.signal()
        thread.withLock { $0 }?.join()
        _ = state.wait(until: { !$0.queue.eventBatchInFlight && $0.queue.beaconsInFlight == 0 }, deadline: deadline) { _ in }
        applyPendingStoreWork()
    }

    /// Writes what the store still owes (settled rows, items the disk refused) and gives up the lock.
    func close() {
        applyPendingStoreWork()
        moveJournaledItems()
        storeMemoryOnlyItems()
        // Deleted when everything in it is in the database; otherwise left for the next start to recover.
        intake.withLock { $0.close() }
        let left = state.withLock { $0.queue.memoryOnlyIDs.count }
        if left > 0 { logger.warning("\(left) tracking item(s) could not be stored and are lost at exit") }
        ownership?.release()
    }

    // MARK: - The delivery thread

    private func deliveryLoop() {
        var lastDataVersion = database.map { Self.dataVersion($0) } ?? 0
        var changed = false
        var lastSend: UInt64 = 0
        var napping = false  // waiting out the batch window: reports need not wake the thread
        var wroteSinceCheckpoint = false
        while true {
            // A directory change may be an instance dying (its files close): take over what its journal holds.
            let recovered = changed && recoverDeadJournals()
            let took = takeReports()
            let nowMonotonic = MonotonicClock.now()
            if recovered, ownership?.isHeld == true { adoptStoredItems(all: false) }
            if let ownership, !ownership.isHeld, changed || !waker.watchesDirectory {
                _ = isOwner
                lastDataVersion = database.map { Self.dataVersion($0) } ?? 0
            } else if changed, let database, ownership?.isHeld == true {
                // Another connection committed (another process's reports): take its rows.
                let version = Self.dataVersion(database)
                if version != lastDataVersion {
                    lastDataVersion = version
                    adoptStoredItems(all: false)
                }
            }
            let owner = ownership?.isHeld ?? true
            var wakeAt = UInt64.max
            if owner {
                wakeAt = min(wakeAt, dropExpired())
                // Reports that come in a burst (a feed appearing) leave together: after a send, the next choice
                // waits for the batch window, unless a flush is waiting.
                let hurry = state.withLock { $0.queue.activeFlushes > 0 || $0.queue.hasFullEventBatch(now: nowMonotonic) }
                if !hurry, nowMonotonic < lastSend &+ Self.batchWindowNanoseconds {
                    wakeAt = min(wakeAt, lastSend &+ Self.batchWindowNanoseconds)
                    napping = true
                } else {
                    let (work, selectedWakeAt) = state.withLock { $0.queue.selectWork(now: nowMonotonic) }
                    wakeAt = min(wakeAt, selectedWakeAt)
                    // Reports that woke the thread and could not go out yet (a batch in flight): more are likely
                    // to follow, so the batch window starts now, as after a send; otherwise the thread would wake
                    // for every report.
                    if !work.isEmpty || took { lastSend = nowMonotonic }
                    for unit in work { send(unit) }
                }
            } else {
                // Another process delivers: a burst's reports are moved into the database together, after the
                // batch window, rather than one transaction per report.
                if took { lastSend = nowMonotonic }
                if nowMonotonic < lastSend &+ Self.batchWindowNanoseconds {
                    wakeAt = min(wakeAt, lastSend &+ Self.batchWindowNanoseconds)
                    napping = true
                } else if !waker.watchesDirectory {
                    wakeAt = nowMonotonic + Self.retryStoreNanoseconds
                }
            }
            // Journaled reports are moved into the database when the thread is about to wait, not during a burst's
            // batch window: those delivered first never cost the database a write. What is in flight stays in the
            // journal (see `OutboxQueue.movableJournaled`).
            let move = napping ? (succeeded: true, moved: 0) : moveJournaledItems()
            if move.moved > 0 { wroteSinceCheckpoint = true }
            // After sending: the next request is on its way while settled rows are deleted.
            if applyPendingStoreWork() { wroteSinceCheckpoint = true }
            if state.withLock({ $0.hasMemoryOnly }), !storeMemoryOnlyItems() {
                wakeAt = min(wakeAt, MonotonicClock.now() + Self.retryStoreNanoseconds)
            }
            if !move.succeeded { wakeAt = min(wakeAt, MonotonicClock.now() + Self.retryStoreNanoseconds) }
            let proceed = state.withLock { state -> Bool? in
                if state.stopping { return nil }
                return intake.withLock { intake -> Bool in
                    // While napping out a batch window, new reports wait for it to end (the flag stays set).
                    if state.wake || !intake.pending.isEmpty, !napping {
                        state.wake = false
                        return true
                    }
                    state.sleeping = !napping
                    state.napping = napping
                    intake.deliveryThreadWaits(napping: napping)
                    return false
                }
            }
            guard let proceed else { return }
            changed = false
            if !proceed, wroteSinceCheckpoint, state.withLock({ $0.queue.count == 0 && $0.pendingDeletes.isEmpty }) {
                // Nothing left to deliver: the moment to copy the WAL into the database, off every busy path.
                database?.checkpoint()
                wroteSinceCheckpoint = false
            }
            if !proceed {
                let reasons = waker.wait(until: wakeAt == UInt64.max ? nil : wakeAt)
                changed = reasons.contains(.directoryChanged)
                let wasNapping = napping
                napping = false
                state.withLock { state in
                    state.sleeping = false
                    state.napping = false
                    if !wasNapping { state.wake = false }
                    intake.withLock { $0.deliveryThreadRuns() }
                }
            }
        }
    }

    /// SQLite's count of commits by other connections: unchanged means the directory event was our own.
    private static func dataVersion(_ database: Database) -> Int64 {
        (try? database.withConnection { session throws(EngineFailure) -> Int64 in
            var version: Int64 = 0
            try session.run("PRAGMA data_version") { row throws(EngineFailure) in version = row.integer(0) }
            return version
        }) ?? 0
    }

    /// Drops expired items; returns the monotonic instant the next one expires.
    private func dropExpired() -> UInt64 {
        let nowWall = WallClock.milliseconds()
        let (expiredAge, overflow) = settings.maximumAgeSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return UInt64.max }
        let (dropped, oldest) = state.withLock { state in
            let dropped = state.queue.dropExpired(oldestAllowedMilliseconds: nowWall &- expiredAge)
            if !dropped.isEmpty { state.wake = true }  // a flush may be waiting for exactly these
            return (dropped, state.queue.oldestCreatedMilliseconds)
        }
        if !dropped.isEmpty {
            store.delete(Self.rowIDs(of: dropped))
            logger.info("dropped \(dropped.count) tracking items older than \(settings.maximumAgeSeconds) s")
        }
        guard let oldest else { return UInt64.max }
        let (expiresAt, late) = oldest.addingReportingOverflow(expiredAge)
        guard !late else { return UInt64.max }
        let wait = max(0, expiresAt - nowWall) + 1
        return MonotonicClock.now() + UInt64(min(wait, 86_400_000 * 365)) * 1_000_000
    }

    /// Deletes and updates the rows of settled items (on the delivery thread, so no read can adopt them back).
    /// Returns whether it wrote anything.
    @discardableResult
    private func applyPendingStoreWork() -> Bool {
        storeSync.withLock { _ in applyPendingStoreWorkLocked() }
    }

    private func applyPendingStoreWorkLocked() -> Bool {
        let (deletes, retries) = state.withLock { state in
            defer { state.pendingRetries = [] }
            return (Array(state.pendingDeletes), state.pendingRetries)
        }
        if !deletes.isEmpty {
            store.delete(deletes)
            state.withLock { state in for id in deletes { state.pendingDeletes.remove(id) } }
        }
        for retry in retries { store.recordAttempt(id: retry.id, attempts: retry.attempts, nextAttemptMilliseconds: retry.wallMilliseconds) }
        return !deletes.isEmpty || !retries.isEmpty
    }

    /// Writes items the disk refused earlier; each that is stored now keeps its place in the queue. Returns
    /// whether none is left in memory only.
    @discardableResult
    private func storeMemoryOnlyItems() -> Bool {
        let waiting = state.withLock { state in state.queue.memoryOnlyIDs.compactMap { state.queue.entry($0)?.item } }
        for item in waiting {
            guard let id = try? store.insert(item.payload, createdMilliseconds: item.createdMilliseconds) else { return false }
            if !state.withLock({ $0.stored(pendingID: item.id, as: id) }) { store.delete([id]) }  // dropped meanwhile
            logger.info("stored a tracking item the disk had refused")
        }
        return state.withLock { state in
            state.hasMemoryOnly = !state.queue.memoryOnlyIDs.isEmpty
            return !state.hasMemoryOnly
        }
    }

    /// Moves journaled reports into the database, up to the first one in flight: one transaction for all of them,
    /// which also records how far the journal is consumed. Under `storeSync`, so a concurrent read of new rows
    /// cannot adopt them a second time. Returns false when the database refused (the reports stay durable in the
    /// journal; tried again).
    @discardableResult
    private func moveJournaledItems() -> (succeeded: Bool, moved: Int) {
        guard let databaseStore else { return (true, 0) }
        return storeSync.withLock { _ in
            var dropped: [OutboxItem] = []
            let snapshot = state.withLock { state -> (count: Int, items: [OutboxItem], name: String, end: Int)? in
                let journal = takePending(into: &state)
                dropped = state.queue.dropOverflow()
                // Every record up to the journal's size is now in the queue, or was delivered or dropped from it.
                guard let journal, journal.size > journal.consumed else { return nil }
                let movable = state.queue.movableJournaled()
                let end = movable.all ? journal.size : (movable.end ?? journal.consumed)
                guard end > journal.consumed else { return nil }
                return (movable.count, movable.items, journal.name, end)
            }
            dropOverflowRows(dropped)
            guard let snapshot else { return (true, 0) }
            let rowIDs: [Int64]
            do throws(EngineFailure) {
                rowIDs = try databaseStore.insertJournaled(snapshot.items.map { ($0.payload, $0.createdMilliseconds) },
                                                          journal: snapshot.name, consumed: snapshot.end)
            } catch {
                logger.warning("could not move journaled tracking items into the database (\(error.message)); trying again")
                return (false, 0)
            }
            var retired: OutboxJournal?
            let orphans = state.withLock { state -> [Int64] in
                // Erasure may have replaced the journal meanwhile; the rows of what it erased are orphans.
                guard intake.withLock({ $0.journal?.name == snapshot.name }) else { return rowIDs }
                let renames = zip(snapshot.items, rowIDs).map { (old: $0.id, new: $1) }
                let orphans = state.stored(journaled: renames)  // dropped (cap, age) while journaled
                state.queue.forgetJournaled(first: snapshot.count)
                // Ids are handed out in order: when ours follow the last row read, no other process's row lies
                // before them, and reading new rows need not read ours again.
                if let first = rowIDs.first, let last = rowIDs.last, first == state.lastLoadedID + 1 { state.lastLoadedID = last }
                state.wake = true
                // Fully moved and large: a fresh journal, so a recovery never reads much.
                retired = intake.withLock { $0.moved(journal: snapshot.name, upTo: snapshot.end, directory: directory) }
                return orphans
            }
            if !orphans.isEmpty { store.delete(orphans) }
            if let retired, let directory {
                retired.retire(consumed: snapshot.end)
                databaseStore.forgetRemovedJournals(in: directory)
            }
            // Another process delivers: tell it (its directory watch sees the lock file touched).
            if !rowIDs.isEmpty, let ownership, !ownership.isHeld { ownership.touch() }
            return (true, rowIDs.count)
        }
    }

    /// Moves what instances that died left in their journals into the database, then deletes those journals.
    /// Returns whether any row was added.
    private func recoverDeadJournals() -> Bool {
        guard let databaseStore, let directory else { return false }
        let outcome = databaseStore.recoverDeadJournals(in: directory, except: intake.withLock { $0.journal?.name })
        for (name, reason) in outcome.failed { logger.warning("could not recover the tracking journal \(name) (\(reason)); trying again later") }
        if !outcome.damaged.isEmpty {
            logger.warning("\(outcome.damaged.count) tracking journal(s) ended in a damaged record; what came before it was recovered")
            state.withLock { $0.queue.statistics.corruptRecords += UInt64(outcome.damaged.count) }
        }
        if outcome.recovered > 0 { logger.debug("recovered \(outcome.recovered) tracking item(s) from journals left behind") }
        return outcome.recovered > 0
    }

    /// Reads the store: everything (on taking ownership, forgetting what a previous owner delivered), or only
    /// rows newer than the last read.
    private func adoptStoredItems(all: Bool) {
        // Never beside the deletes of settled rows: a row read here and deleted there before it is adopted
        // would come back as a new item and be sent again.
        storeSync.withLock { reads in
            reads += 1
            adoptStoredItemsLocked(all: all)
        }
    }

    private func adoptStoredItemsLocked(all: Bool) {
        let after = all ? 0 : state.withLock { $0.lastLoadedID }
        let (rows, corrupt) = store.load(afterID: after)
        let stored = all ? store.storedIDs() : nil
        if corrupt > 0 { logger.warning("deleted \(corrupt) unreadable tracking record(s)") }
        let nowMonotonic = MonotonicClock.now(), nowWall = WallClock.milliseconds()
        let dropped = state.withLock { state -> [OutboxItem] in
            state.queue.statistics.corruptRecords += UInt64(corrupt)
            if let stored { state.queue.forgetMissing(from: stored) }  // unknown: forget nothing
            let fresh = rows.filter { !state.pendingDeletes.contains($0.item.id) }
            state.queue.adopt(fresh, nowMonotonic: nowMonotonic, nowWallMilliseconds: nowWall)
            state.lastLoadedID = max(state.lastLoadedID, rows.last?.item.id ?? 0)
            state.wake = true
            return state.queue.dropOverflow()
        }
        if !dropped.isEmpty {
            store.delete(Self.rowIDs(of: dropped))
            logger.warning("tracking queue over its cap: dropped the \(dropped.count) oldest")
        }
    }

    private func send(_ work: OutboxQueue.Work) {
        switch work {
        case .beacon(let item):
            guard case .beacon(let url) = item.payload else { return }
            let request = HTTPRequest(
                method: .get, url: BeaconURL.bustingCache(url), headers: [("User-Agent", settings.userAgent)],
                timeoutMilliseconds: settings.timeoutMilliseconds, followRedirects: false)
            beaconTransport.send(request) { [self] outcome in finish(work, outcome) }
        case .events(let items, let identity):
            let token = authorization.withLock { $0 }?.bearerToken(forIdentity: identity)
            let request = EventBatch.request(
                events: items.compactMap { if case .event(let json, _, _) = $0.payload { json } else { nil } },
                privacyQuery: items.first.flatMap { if case .event(_, _, let privacy) = $0.payload { privacy } else { nil } } ?? "",
                engageURL: settings.engageURL ?? "", apiKey: settings.apiKey, userAgent: settings.userAgent, token: token,
                timeoutMilliseconds: settings.timeoutMilliseconds)
            transport.send(request) { [self] outcome in finish(work, outcome) }
        }
    }

    /// Applies the verdict on one send to its items (runs on the transport thread).
    private func finish(_ work: OutboxQueue.Work, _ outcome: Result<HTTPResponse, TransportError>) {
        let now = MonotonicClock.now()
        let nowWall = WallClock.milliseconds()
        let isEvent: Bool
        let identity: String?
        switch work {
        case .events(_, let batchIdentity): isEvent = true; identity = batchIdentity
        case .beacon: isEvent = false; identity = nil
        }
        if isEvent, case .success(let response) = outcome, response.status == 401 {
            // Before the batch becomes ready again, so its retry can carry the new token.
            authorization.withLock { $0 }?.tokenWasRefused(forIdentity: identity)
        }
        let (verdict, mustSignal) = state.withLock { state -> (DeliveryVerdict, Bool) in
            let verdict = RetryPolicy.verdict(
                outcome, isEvent: isEvent, attempts: state.queue.attempts(of: work) + 1, nowEpochSeconds: nowWall / 1000,
                firstRetry: settings.firstRetryNanoseconds)
            switch outcome {
            case .failure(.network), .failure(.timeout): state.connectionFailures += 1  // a flush learns the network is down
            default: break
            }
            let settlement = state.queue.settle(work, verdict: verdict, now: now)
            state.pendingDeletes.formUnion(settlement.delete)
            for retry in settlement.retry {
                let waitMilliseconds = Int64(clamping: (retry.notBefore - now) / 1_000_000)
                state.pendingRetries.append((retry.id, retry.attempts, nowWall + waitMilliseconds))
            }
            state.wake = true
            // Napping too: the next batch may be whole already.
            return (verdict, state.sleeping || state.napping)
        }
        if mustSignal { waker.signal() }
        if case .reject(let status) = verdict {
            if case .failure(let error) = outcome {
                logger.warning("dropped \(work.items.count) tracking item(s): \(error.message)")
            } else {
                logger.warning("dropped \(work.items.count) tracking item(s): the server refused them with \(status)")
            }
        }
        if case .success(let response) = outcome, let retryAfter = response.headers["retry-after"],
           RetryPolicy.retryAfterSeconds(retryAfter, nowEpochSeconds: nowWall / 1000) == nil {
            logger.info("ignored a Retry-After that is unreadable or out of range: \"\(SafeText.clean(retryAfter))\"")
        }
    }
}
