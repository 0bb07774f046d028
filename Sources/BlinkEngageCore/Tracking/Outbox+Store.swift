#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The outbox's store I/O, on the delivery thread or under `storeSync`: settled rows deleted, journaled reports
/// moved into the database, dead instances' journals recovered, and other processes' rows adopted.
extension Outbox {
    /// SQLite's count of commits by other connections: unchanged means the directory event was our own.
    static func dataVersion(_ database: Database) -> Int64 {
        (try? database.withConnection { session throws(EngineFailure) -> Int64 in
            var version: Int64 = 0
            try session.run("PRAGMA data_version") { row throws(EngineFailure) in version = row.integer(0) }
            return version
        }) ?? 0
    }

    /// Deletes and updates the rows of settled items (on the delivery thread, so no read can adopt them back).
    /// Returns whether it wrote anything.
    @discardableResult
    func applyPendingStoreWork() -> Bool {
        storeSync.withLock { _ in applyPendingStoreWorkLocked() }
    }

    func applyPendingStoreWorkLocked() -> Bool {
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
    func storeMemoryOnlyItems() -> Bool {
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
    func moveJournaledItems() -> (succeeded: Bool, moved: Int) {
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
    func recoverDeadJournals() -> Bool {
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
    func adoptStoredItems(all: Bool) {
        // Never beside the deletes of settled rows: a row read here and deleted there before it is adopted
        // would come back as a new item and be sent again.
        storeSync.withLock { reads in
            reads += 1
            adoptStoredItemsLocked(all: all)
        }
    }

    func adoptStoredItemsLocked(all: Bool) {
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
}
