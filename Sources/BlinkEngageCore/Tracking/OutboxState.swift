/// What the outbox's locks guard beside the queue itself: flushes waiting, items the disk refused, rows the
/// delivery thread owes the store, and the renames of items a flush waits on. No I/O (OutboxStateTests).
struct OutboxState {
    var queue: OutboxQueue
    var stopping = false
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

    /// What a flush starting now waits for: every queued item, and the rows of items settled a moment ago that
    /// the delivery thread has yet to delete (a finished flush finds the store clean, whenever the answer came).
    var flushTargets: Set<Int64> { queue.flushableIDs.union(pendingDeletes) }

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
