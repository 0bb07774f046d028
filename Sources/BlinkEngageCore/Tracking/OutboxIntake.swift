/// What a report touches: this instance's journal, the reports the queue has yet to take, and the delivery
/// schedule. `Outbox` keeps one under a lock of its own (`LockRank.intake`), so a report never waits for the
/// delivery thread's work on the queue (choosing, settling, moving rows). No I/O beyond the journal.
struct OutboxIntake: Sendable {
    /// This instance's journal (nil without a database, or when none could be made). Appends happen under the
    /// intake's lock, so the journal's order and `pending`'s agree.
    private(set) var journal: OutboxJournal?
    /// Bytes of `journal` already moved into the database.
    private(set) var journalConsumed = 0
    /// Journaled reports the queue has yet to take, oldest first, with the offset each record ends at.
    private(set) var pending: [(item: OutboxItem, end: Int)] = []
    /// Ids of items not (yet) in the database: negative, and rising, so that the queue's sort by (creation time,
    /// id) keeps them in the order they were reported.
    private var nextMemoryID: Int64 = Int64.min + 1
    /// Whether the delivery thread runs, naps or sleeps, and so whether a report or a change must signal it.
    var schedule = DeliverySchedule()

    init(journal: OutboxJournal?) { self.journal = journal }

    mutating func takeMemoryID() -> Int64 {
        defer { nextMemoryID += 1 }
        return nextMemoryID
    }

    /// Appends a report's record to the journal and hands its item over. Returns whether the delivery thread
    /// must be woken; nil when there is no journal. Throws when the journal refuses the write.
    mutating func append(_ record: [UInt8], payload: OutboxItem.Payload, createdMilliseconds: Int64) throws(EngineFailure) -> Bool? {
        guard journal != nil else { return nil }
        try journal?.append(record)
        let item = OutboxItem(id: takeMemoryID(), createdMilliseconds: createdMilliseconds, payload: payload)
        pending.append((item, journal?.size ?? 0))
        return schedule.reported()
    }

    /// The reports handed over since the last call, and the journal's name, size and moved part: every record up
    /// to that size is among them or was taken before.
    mutating func takePending() -> (items: [(item: OutboxItem, end: Int)], journal: (name: String, size: Int, consumed: Int)?) {
        defer { pending.removeAll(keepingCapacity: true) }
        return (pending, journal.map { ($0.name, $0.size, journalConsumed) })
    }

    /// Records that the journal `name` is moved into the database up to `end`. When that is all of it and it is
    /// large, a fresh journal replaces it, and the old one is returned for the caller to retire.
    mutating func moved(journal name: String, upTo end: Int, storage: any OutboxStorage) -> OutboxJournal? {
        guard let current = journal, current.name == name else { return nil }
        journalConsumed = max(journalConsumed, end)
        guard current.size == end, current.size >= OutboxJournal.rotationBytes,
              let fresh = try? storage.makeJournal() else { return nil }
        journal = fresh
        journalConsumed = 0
        return current
    }

    /// Erasure: forgets the reports not yet taken and replaces the journal, deleting it with every record in it,
    /// so a crash cannot bring them back. Returns the reports forgotten.
    mutating func erase(storage: any OutboxStorage) -> [(item: OutboxItem, end: Int)] {
        defer { pending.removeAll() }
        if let old = journal {
            journal = try? storage.makeJournal()
            journalConsumed = 0
            old.retire(consumed: Int.max)
        }
        return pending
    }

    /// At shutdown: closes the journal, deleting it when everything in it was moved; otherwise it is left for
    /// the next start to recover.
    mutating func close() {
        journal?.retire(consumed: journalConsumed)
        journal = nil
    }
}
