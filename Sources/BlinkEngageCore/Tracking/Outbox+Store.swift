/// The outbox's storage I/O: settled rows deleted, journaled reports moved into the storage, dead instances'
/// journals recovered, and other processes' rows adopted. Every write that a read could race carries its
/// bookkeeping in the storage's `then`, so the storage keeps reads and writes apart (`OutboxStorage`).
extension Outbox {
    /// Deletes and updates the rows of settled items. Returns whether it wrote anything.
    @discardableResult
    func applyPendingStoreWork() -> Bool {
        let (deletes, retries) = state.withLock { state in
            defer { state.pendingRetries = [] }
            return (Array(state.pendingDeletes), state.pendingRetries)
        }
        if !deletes.isEmpty {
            // Forgotten only once the rows are gone: until then a read of them is not adopted (adoptStoredItems).
            storage.delete(deletes) { state.withLock { state in for id in deletes { state.pendingDeletes.remove(id) } } }
        }
        for retry in retries { storage.recordAttempt(id: retry.id, attempts: retry.attempts, nextAttemptMilliseconds: retry.wallMilliseconds) }
        return !deletes.isEmpty || !retries.isEmpty
    }

    /// Writes items the disk refused earlier; each that is stored now keeps its place in the queue. Returns
    /// whether none is left in memory only.
    @discardableResult
    func storeMemoryOnlyItems() -> Bool {
        let waiting = state.withLock { state in state.queue.memoryOnlyIDs.compactMap { state.queue.entry($0)?.item } }
        for item in waiting {
            var orphan = false
            do {
                try storage.insert([(item.payload, item.createdMilliseconds)], movingJournal: nil) { ids in
                    orphan = !state.withLock { $0.stored(pendingID: item.id, as: ids[0]) }  // dropped meanwhile
                }
            } catch {
                return false
            }
            if orphan { storage.delete(Self.rowIDs(of: [item])) }
            logger.info("stored a tracking item the disk had refused")
        }
        return state.withLock { state in
            state.hasMemoryOnly = !state.queue.memoryOnlyIDs.isEmpty
            return !state.hasMemoryOnly
        }
    }

    /// Moves journaled reports into the storage, up to the first one in flight: one transaction for all of them,
    /// which also records how far the journal is consumed. Runs on the delivery thread (and at the end, after
    /// it). Returns false when the storage refused (the reports stay durable in the journal; tried again).
    @discardableResult
    func moveJournaledItems() -> (succeeded: Bool, moved: Int) {
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
        var orphans: [Int64] = [], retired: OutboxJournal?
        let rowIDs: [Int64]
        do throws(EngineFailure) {
            rowIDs = try storage.insert(snapshot.items.map { ($0.payload, $0.createdMilliseconds) },
                                        movingJournal: (snapshot.name, snapshot.end)) { rowIDs in
                (orphans, retired) = recordMoved(snapshot.items, as: rowIDs, count: snapshot.count, journal: snapshot.name, end: snapshot.end)
            }
        } catch {
            logger.warning("could not move journaled tracking items into the database (\(error.message)); trying again")
            return (false, 0)
        }
        if !orphans.isEmpty { storage.delete(orphans) }
        if let retired {
            retired.retire(consumed: snapshot.end)
            storage.forgetRemovedJournals()
        }
        // Another process delivers: tell it (its directory watch sees the lock file touched).
        if !rowIDs.isEmpty, let ownership, !ownership.isHeld { ownership.touch() }
        return (true, rowIDs.count)
    }

    /// Inside the move's `then`: the journaled items are now the rows `rowIDs`. Returns the rows of items
    /// dropped meanwhile (to delete), and the journal to retire when a fresh one replaced it.
    private func recordMoved(_ items: [OutboxItem], as rowIDs: [Int64], count: Int, journal name: String,
                             end: Int) -> (orphans: [Int64], retired: OutboxJournal?) {
        state.withLock { state in
            // Erasure may have replaced the journal meanwhile; the rows of what it erased are orphans.
            guard intake.withLock({ $0.journal?.name == name }) else { return (rowIDs, nil) }
            let orphans = state.stored(journaled: zip(items, rowIDs).map { (old: $0.id, new: $1) })  // dropped (cap, age)
            state.queue.forgetJournaled(first: count)
            // Ids are handed out in order: when ours follow the last row read, no other process's row lies
            // before them, and reading new rows need not read ours again.
            if let first = rowIDs.first, let last = rowIDs.last, first == state.lastLoadedID + 1 { state.lastLoadedID = last }
            // Fully moved and large: a fresh journal, so a recovery never reads much.
            let retired = intake.withLock { intake in
                _ = intake.schedule.change()  // on the delivery thread: it looks again before it waits
                return intake.moved(journal: name, upTo: end, storage: storage)
            }
            return (orphans, retired)
        }
    }

    /// Moves what instances that died left in their journals into the storage, then deletes those journals.
    /// Returns whether any row was added.
    func recoverDeadJournals() -> Bool {
        let outcome = storage.recoverDeadJournals(except: intake.withLock { $0.journal?.name })
        for (name, reason) in outcome.failed { logger.warning("could not recover the tracking journal \(name) (\(reason)); trying again later") }
        if !outcome.damaged.isEmpty {
            logger.warning("\(outcome.damaged.count) tracking journal(s) ended in a damaged record; what came before it was recovered")
            state.withLock { $0.queue.statistics.corruptRecords += UInt64(outcome.damaged.count) }
        }
        if outcome.recovered > 0 { logger.debug("recovered \(outcome.recovered) tracking item(s) from journals left behind") }
        return outcome.recovered > 0
    }

    /// Reads the storage: everything (on taking ownership, forgetting what a previous owner delivered), or only
    /// rows newer than the last read.
    func adoptStoredItems(all: Bool) {
        let after = all ? 0 : state.withLock { $0.lastLoadedID }
        let nowMonotonic = clock.monotonicNanoseconds, nowWall = clock.wallMilliseconds
        var dropped: [OutboxItem] = [], mustSignal = false
        storage.load(afterID: after) { rows, corrupt in
            if corrupt > 0 { logger.warning("deleted \(corrupt) unreadable tracking record(s)") }
            guard let rows else { return }  // unreadable now: adopt nothing, forget nothing
            (dropped, mustSignal) = state.withLock { state in
                state.queue.statistics.corruptRecords += UInt64(corrupt)
                // Every row read: what the queue holds as stored and the storage no longer has was delivered by
                // a previous owner.
                if all { state.queue.forgetMissing(from: Set(rows.map(\.item.id))) }
                // A row settled here but not yet deleted is not adopted back (applyPendingStoreWork).
                let fresh = rows.filter { !state.pendingDeletes.contains($0.item.id) }
                state.queue.adopt(fresh, nowMonotonic: nowMonotonic, nowWallMilliseconds: nowWall)
                state.lastLoadedID = max(state.lastLoadedID, rows.last?.item.id ?? 0)
                return (state.queue.dropOverflow(), intake.withLock { $0.schedule.change() })
            }
        }
        if mustSignal { waker.signal() }
        if !dropped.isEmpty {
            storage.delete(Self.rowIDs(of: dropped))
            logger.warning("tracking queue over its cap: dropped the \(dropped.count) oldest")
        }
    }
}
