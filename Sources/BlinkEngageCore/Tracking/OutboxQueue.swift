/// The delivery rules of docs/PROTOCOL.md section 4 as a value with no I/O and no thread: what to send next, how a
/// server's verdict changes the queue, overflow and age. `Outbox` keeps one under its lock and does the I/O
/// the answers ask for; tests drive one directly.
///
/// Rules: items start in queue order; beacons go one at a time per destination host, at most
/// `maximumBeaconsInFlight` at once; events go one batch (at most `maximumBatch`, one identity) at a time;
/// failures back off exponentially with jitter and Retry-After is honoured; a failing item never holds back the
/// ones behind it; other 4xx, the maximum age and the queue cap drop items and count why.
struct OutboxQueue {
    static let maximumBatch = 100
    static let maximumBeaconsInFlight = 8

    struct Entry {
        var item: OutboxItem
        let host: String
        var attempts = 0
        /// Monotonic instant before which backoff keeps the item waiting (a flush may ignore it).
        var notBefore: UInt64 = 0
        /// Monotonic instant before which the server asked us not to retry (a flush honours it).
        var serverNotBefore: UInt64 = 0
        var inFlight = false
        /// The store refused it (a full disk, say): it lives in memory until a write succeeds.
        var memoryOnly = false
        /// In this process's journal, not (yet) in the table. It may be sent from there: delivered before the
        /// delivery thread moves it, it never costs the database a write. Like a row deleted only after its answer,
        /// a crash between the answer and the journal's progress being recorded sends it again.
        var journaled = false
        /// The flush generation this item was last tried in, so a flush tries each item once.
        var triedInFlush = 0

        /// Whether the item has a row in the table (to delete when settled, to record attempts in).
        var isStored: Bool { !memoryOnly && !journaled }

        init(item: OutboxItem, memoryOnly: Bool = false, journaled: Bool = false) {
            self.item = item
            host = item.host
            self.memoryOnly = memoryOnly
            self.journaled = journaled
        }
    }

    enum Work: Equatable {
        case events([OutboxItem], identity: String?)
        case beacon(OutboxItem)

        var items: [OutboxItem] {
            switch self {
            case .events(let items, _): return items
            case .beacon(let item): return [item]
            }
        }
    }

    /// What applying a verdict asks of the store.
    struct Settlement: Equatable {
        var delete: [Int64] = []
        /// (id, attempts, monotonic instant of the next attempt) for items that wait for a retry.
        var retry: [(id: Int64, attempts: Int, notBefore: UInt64)] = []

        static func == (lhs: Settlement, rhs: Settlement) -> Bool {
            lhs.delete == rhs.delete && lhs.retry.elementsEqual(rhs.retry, by: { $0 == $1 })
        }
    }

    let maximumItems: Int
    let eventsEnabled: Bool
    var firstRetryNanoseconds: UInt64 = RetryPolicy.firstRetryNanoseconds

    private(set) var entries: [Int64: Entry] = [:]
    /// How many of `entries` are beacons, so choosing work stops scanning once no beacon is left to find.
    private(set) var beaconCount = 0
    /// Ids in queue order (creation time, then id); may still list ids already removed, skipped lazily.
    private(set) var order: [Int64] = []
    var statistics = OutboxStatistics()
    private(set) var eventBatchInFlight = false
    private(set) var busyBeaconHosts: Set<String> = []
    private(set) var beaconsInFlight = 0
    var flushGeneration = 0
    var activeFlushes = 0

    init(maximumItems: Int, eventsEnabled: Bool) {
        self.maximumItems = maximumItems
        self.eventsEnabled = eventsEnabled
    }

    var count: Int { entries.count }

    func entry(_ id: Int64) -> Entry? { entries[id] }

    /// Ids of items that live in memory only, oldest first.
    var memoryOnlyIDs: [Int64] { order.filter { entries[$0]?.memoryOnly == true } }

    /// Items written to the journal and not yet moved into the table, in the order they were written, with the
    /// journal offset each record ends at (ids of items since delivered or dropped stay until moved past).
    private(set) var journaled: [(id: Int64, end: Int)] = []

    // MARK: - Adding

    /// Adds a newly reported item at the end of the queue.
    /// The delivery thread may have read the row from the store between its insert and this call: then the
    /// entry it adopted (perhaps already in flight) stands.
    /// `journalEnd`: the item was written to the journal, whose record ends at that offset.
    mutating func append(_ item: OutboxItem, memoryOnly: Bool = false, journalEnd: Int? = nil) {
        countQueued(item)
        guard entries[item.id] == nil else { return }
        add(Entry(item: item, memoryOnly: memoryOnly, journaled: journalEnd != nil))
        order.append(item.id)
        if let journalEnd { journaled.append((item.id, journalEnd)) }
    }

    /// A new entry under its item's id; the one place, with `remove`, that keeps `beaconCount`.
    private mutating func add(_ entry: Entry) {
        entries[entry.item.id] = entry
        if !entry.item.isEvent { beaconCount += 1 }
    }

    /// Removes the entry of `id`, if any, keeping `beaconCount`.
    private mutating func remove(_ id: Int64) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !entry.item.isEvent { beaconCount -= 1 }
    }

    /// Counts a report as queued, whether or not its entry is new.
    private mutating func countQueued(_ item: OutboxItem) {
        if item.isEvent { statistics.eventsQueued += 1 } else { statistics.beaconsQueued += 1 }
    }

    /// Adds items read from the store (another process's, or a previous run's) with their delivery state, and
    /// restores queue order. `nowMonotonic`/`nowWallMilliseconds` turn stored retry times into deadlines.
    mutating func adopt(_ rows: [StoredOutboxRow], nowMonotonic: UInt64, nowWallMilliseconds: Int64) {
        guard !rows.isEmpty else { return }
        for row in rows where entries[row.item.id] == nil {
            var entry = Entry(item: row.item)
            entry.attempts = row.attempts
            let (wait, overflow) = row.nextAttemptMilliseconds.subtractingReportingOverflow(nowWallMilliseconds)
            if !overflow, wait > 0 {
                // At most the backoff cap from now, whatever the stored time says.
                let capMilliseconds = RetryPolicy.maximumBackoffNanoseconds / 1_000_000
                let capped = UInt64(wait) >= capMilliseconds ? RetryPolicy.maximumBackoffNanoseconds : UInt64(wait) * 1_000_000
                let (deadline, overflow) = nowMonotonic.addingReportingOverflow(capped)
                entry.notBefore = overflow ? UInt64.max : deadline
            }
            add(entry)
            order.append(row.item.id)
        }
        order = order.filter { entries[$0] != nil }
        // Creation time, then report order: rows by id, and items not yet stored (negative, rising ids) after
        // the rows of the same millisecond, since they were reported after this process's own rows.
        order.sort { lhs, rhs in
            let (a, b) = (entries[lhs]!.item, entries[rhs]!.item)
            return (a.createdMilliseconds, a.id < 0 ? 1 : 0, a.id) < (b.createdMilliseconds, b.id < 0 ? 1 : 0, b.id)
        }
    }

    /// Forgets stored entries the store no longer holds (delivered by a previous owner), except those in flight
    /// or in memory only.
    mutating func forgetMissing(from stored: Set<Int64>) {
        for (id, entry) in entries where !stored.contains(id) && !entry.inFlight && entry.isStored { remove(id) }
    }

    /// What of the journal can be moved into the table now: its records up to the first whose item is being sent
    /// (the journal's progress is one offset, and an item in flight must not be stored twice). `count` entries
    /// of `journaled` (delivered and dropped ones included), the items still queued among them, and the offset
    /// their records end at; `all` when that is every journaled record.
    func movableJournaled() -> (count: Int, items: [OutboxItem], end: Int?, all: Bool) {
        var items: [OutboxItem] = [], end: Int?
        for (index, record) in journaled.enumerated() {
            if let entry = entries[record.id] {
                if entry.inFlight { return (index, items, end, false) }
                items.append(entry.item)
            }
            end = record.end
        }
        return (journaled.count, items, end, true)
    }

    /// The first `count` journaled records are in the table now (or need not be): they leave the journal list.
    mutating func forgetJournaled(first count: Int) { journaled.removeFirst(min(count, journaled.count)) }

    /// Journaled items are now stored: each (old id, row id). One pass over the queue order, from its end where
    /// they are. Returns the row ids of items no longer queued (dropped or erased meanwhile), whose rows must go.
    mutating func stored(journaled renames: [(old: Int64, new: Int64)]) -> [Int64] {
        var orphans: [Int64] = []
        var positions: [Int64: Int64] = [:]
        positions.reserveCapacity(renames.count)
        for (old, new) in renames {
            guard var entry = entries.removeValue(forKey: old) else {
                orphans.append(new)
                continue
            }
            entry.item.id = new
            entry.journaled = false
            entries[new] = entry
            positions[old] = new
        }
        var left = positions.count
        var index = order.count
        while left > 0, index > 0 {
            index -= 1
            if let new = positions[order[index]] {
                order[index] = new
                left -= 1
            }
        }
        return orphans
    }

    /// A memory-only or journaled item is now stored under `newID`. False when the item is no longer queued
    /// (dropped or erased meanwhile): its new row must then be deleted.
    @discardableResult
    mutating func stored(pendingID oldID: Int64, as newID: Int64) -> Bool {
        guard var entry = entries.removeValue(forKey: oldID) else { return false }
        entry.item.id = newID
        entry.memoryOnly = false
        entry.journaled = false
        entries[newID] = entry
        // Pending items are the newest: look from the end.
        if let index = order.lastIndex(of: oldID) { order[index] = newID }
        return true
    }

    /// Erasure: forgets every item; those in flight are settled as if dropped when their answer comes.
    mutating func eraseAll() -> [OutboxItem] {
        let items = order.compactMap { entries[$0]?.item }
        entries.removeAll()
        beaconCount = 0
        order.removeAll()
        journaled.removeAll()
        return items
    }

    // MARK: - Limits

    /// Drops the oldest items that are not being sent while the queue is over its cap; returns them.
    mutating func dropOverflow() -> [OutboxItem] {
        var excess = entries.count - maximumItems
        guard excess > 0 else { return [] }
        var dropped: [OutboxItem] = []
        for id in order where excess > 0 {
            guard let entry = entries[id], !entry.inFlight else { continue }
            remove(id)
            statistics.countDrop(of: entry.item, .overflow)
            dropped.append(entry.item)
            excess -= 1
        }
        return dropped
    }

    /// Drops items created before `oldestAllowedMilliseconds` that are not being sent; returns them.
    mutating func dropExpired(oldestAllowedMilliseconds: Int64) -> [OutboxItem] {
        // The queue is in creation order: when its oldest item is young enough, so are all (no scan per wake).
        guard let oldest = oldestCreatedMilliseconds, oldest < oldestAllowedMilliseconds else { return [] }
        var dropped: [OutboxItem] = []
        var live: [Int64] = []
        live.reserveCapacity(entries.count)
        for id in order {
            guard let entry = entries[id] else { continue }
            if entry.item.createdMilliseconds < oldestAllowedMilliseconds, !entry.inFlight {
                remove(id)
                statistics.countDrop(of: entry.item, .expired)
                dropped.append(entry.item)
            } else {
                live.append(id)
            }
        }
        order = live
        return dropped
    }

    /// The creation time of the oldest item, to know when the next one expires.
    var oldestCreatedMilliseconds: Int64? {
        order.lazy.compactMap { entries[$0]?.item.createdMilliseconds }.first
    }

    // MARK: - Choosing

    /// Whether a whole batch of events could go out now, so there is no reason to wait for more.
    func hasFullEventBatch(now: UInt64) -> Bool {
        guard eventsEnabled, !eventBatchInFlight else { return false }
        var ready = 0
        for id in order {
            guard let entry = entries[id], entry.item.isEvent, !entry.inFlight,
                  now >= entry.notBefore, now >= entry.serverNotBefore else { continue }
            ready += 1
            if ready >= Self.maximumBatch { return true }
        }
        return false
    }

    /// Chooses what to send now and marks it in flight. Stops scanning as soon as nothing more could be sent,
    /// so a long queue behind a batch in flight costs nothing. Returns the work and when to look again
    /// (`UInt64.max`: only when something changes).
    mutating func selectWork(now: UInt64) -> (work: [Work], wakeAt: UInt64) {
        var work: [Work] = []
        var wakeAt = UInt64.max
        var batch: [OutboxItem] = []
        var batchIdentity: String?
        var batchPrivacy = ""
        let eventsWanted = eventsEnabled && !eventBatchInFlight
        let flushing = activeFlushes > 0
        // Delivered items leave from the front: forget their ids before scanning.
        let firstLive = order.firstIndex(where: { entries[$0] != nil }) ?? order.count
        if firstLive > 0 { order.removeFirst(firstLive) }
        var beaconsSeen = 0
        for id in order {
            let eventsFull = !eventsWanted || batch.count >= Self.maximumBatch
            // Nothing more can go out (a finish wakes us), or no beacon is left to find.
            if eventsFull && (beaconsInFlight >= Self.maximumBeaconsInFlight || beaconsSeen >= beaconCount) { break }
            guard var entry = entries[id] else { continue }
            if !entry.item.isEvent { beaconsSeen += 1 }
            guard !entry.inFlight else { continue }
            let backoffOver = now >= entry.notBefore || (flushing && entry.triedInFlush < flushGeneration)
            guard now >= entry.serverNotBefore, backoffOver else {
                wakeAt = min(wakeAt, max(entry.serverNotBefore, entry.notBefore))
                continue
            }
            switch entry.item.payload {
            case .event(_, let identity, let privacy):
                guard !eventsFull else { continue }
                // One batch is one request: one identity's token and one set of privacy parameters.
                if batch.isEmpty {
                    (batchIdentity, batchPrivacy) = (identity, privacy)
                } else if identity != batchIdentity || privacy != batchPrivacy {
                    continue
                }
                batch.append(entry.item)
            case .beacon:
                guard beaconsInFlight < Self.maximumBeaconsInFlight, !busyBeaconHosts.contains(entry.host) else { continue }
                busyBeaconHosts.insert(entry.host)
                beaconsInFlight += 1
                work.append(.beacon(entry.item))
            }
            entry.inFlight = true
            entry.triedInFlush = flushGeneration
            entries[id] = entry
        }
        if !batch.isEmpty {
            eventBatchInFlight = true
            work.append(.events(batch, identity: batchIdentity))
        }
        return (work, wakeAt)
    }

    // MARK: - Settling

    /// Applies the verdict on one send of `work` at monotonic instant `now`. Returns what the store must do.
    mutating func settle(_ work: Work, verdict: DeliveryVerdict, now: UInt64) -> Settlement {
        var settlement = Settlement()
        let isEvent: Bool
        switch work {
        case .events: isEvent = true; eventBatchInFlight = false
        case .beacon(let item):
            isEvent = false
            busyBeaconHosts.remove(item.host)
            beaconsInFlight -= 1
        }
        for item in work.items {
            guard var entry = entries[item.id] else { continue }
            entry.inFlight = false
            switch verdict {
            case .delivered:
                remove(item.id)
                if isEvent { statistics.eventsDelivered += 1 } else { statistics.beaconsDelivered += 1 }
                if entry.isStored { settlement.delete.append(item.id) }
                continue
            case .reject:
                remove(item.id)
                statistics.countDrop(of: item, .rejected)
                if entry.isStored { settlement.delete.append(item.id) }
                continue
            case .retry(let after, let serverAsked):
                entry.attempts += 1
                entry.notBefore = now + after
                if serverAsked { entry.serverNotBefore = now + after }
            case .reauthorize:
                // The same growing backoff as any failure: a server that refuses every token is not hammered.
                entry.attempts += 1
                entry.notBefore = now + RetryPolicy.backoffNanoseconds(attempts: entry.attempts, first: firstRetryNanoseconds)
            case .untouched:
                break
            }
            entries[item.id] = entry
            if entry.notBefore > now, entry.isStored {
                settlement.retry.append((item.id, entry.attempts, entry.notBefore))
            }
        }
        return settlement
    }

    /// The attempts made so far on the items of `work` (the most of any of them).
    func attempts(of work: Work) -> Int { work.items.compactMap { entries[$0.id]?.attempts }.max() ?? 0 }

    /// Ids queued now that a flush waits for (events only when they can be delivered).
    var flushableIDs: Set<Int64> { Set(entries.filter { !$0.value.item.isEvent || eventsEnabled }.keys) }
}
