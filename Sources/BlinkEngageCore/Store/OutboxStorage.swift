/// Where queued items live between being reported and being delivered, with the journals in front of them. The
/// outbox holds one: `SQLiteOutboxStorage` (the storage directory's database and journal files) or
/// `MemoryOutboxStorage` (no directory). Both keep one contract, checked by one suite run against each
/// (OutboxStorageContractTests).
///
/// One rule is the storage's to keep, not its callers': a read of rows, with what its caller does with them,
/// never runs beside a write and what the writer does after it. The `then` closures run under the storage's own
/// lock (`LockRank.storage`), after the write and before any read can see it: a row read is either already known
/// to the caller's state, or not yet settled there, never deleted between the read and its adoption.
protocol OutboxStorage: AnyObject, Sendable {
    typealias NewItem = (payload: OutboxItem.Payload, createdMilliseconds: Int64)

    /// Inserts `items` in order in one transaction, which also records, when `journal` is given, how far that
    /// journal is moved into the table (a crash then neither loses a record nor moves one twice). Returns the
    /// new ids (positive, above every id before them), after running `then` with them.
    @discardableResult
    func insert(_ items: [NewItem], movingJournal journal: (name: String, consumed: Int)?,
                then: ([Int64]) -> Void) throws(EngineFailure) -> [Int64]
    /// Forgets delivered or dropped items, then runs `then`.
    func delete(_ ids: [Int64], then: () -> Void)
    /// Records a failed attempt, so backoff survives a restart.
    func recordAttempt(id: Int64, attempts: Int, nextAttemptMilliseconds: Int64)
    /// Every stored item with an id above `afterID`, in id order, with its attempts and next attempt time, handed
    /// to `adopt`; rows that cannot be items (damaged, foreign) are deleted and counted in `corrupt`. nil rows:
    /// the storage cannot be read now, which must never read as "empty".
    func load(afterID: Int64, then adopt: (_ rows: [StoredOutboxRow]?, _ corrupt: Int) -> Void)
    /// The ids of every stored item (to forget entries a previous owner delivered); nil when the storage cannot
    /// be read now, which must never read as "empty".
    func storedIDs() -> Set<Int64>?
    /// A number that changes when another process commits, and stays the same after this instance's writes.
    func dataVersion() -> Int64
    /// Nothing is left to deliver: the moment to fold written pages into the main file, off every busy path.
    func checkpoint()
    /// A fresh journal for this instance; nil when this storage keeps none (each report is then an insert).
    func makeJournal() throws(EngineFailure) -> OutboxJournal?
    /// Moves what dead instances left in their journals (all but `own`) into the table, then deletes them.
    func recoverDeadJournals(except own: String?) -> JournalRecovery
    /// Forgets the progress of journals no longer on disk.
    func forgetRemovedJournals()
    /// Why the storage started empty: a damaged file moved aside, and where to; nil when nothing was damaged.
    var damageAtOpen: (movedTo: String, reason: String)? { get }
}

extension OutboxStorage {
    /// Stores one item and returns its id: when this returns the item survives the death of the process.
    func insert(_ payload: OutboxItem.Payload, createdMilliseconds: Int64) throws(EngineFailure) -> Int64 {
        try insert([(payload, createdMilliseconds)], movingJournal: nil, then: { _ in })[0]
    }

    func delete(_ ids: [Int64]) { delete(ids, then: {}) }

    /// The stored rows above `afterID` (tests and tools).
    func load(afterID: Int64) -> (rows: [StoredOutboxRow], corrupt: Int) {
        var loaded: (rows: [StoredOutboxRow], corrupt: Int) = ([], 0)
        load(afterID: afterID) { loaded = ($0 ?? [], $1) }
        return loaded
    }
}

/// A stored item with its delivery state.
struct StoredOutboxRow: Sendable, Equatable {
    var item: OutboxItem
    var attempts: Int
    var nextAttemptMilliseconds: Int64
}

/// What recovering dead instances' journals did.
struct JournalRecovery: Sendable {
    /// Items moved into the table.
    var recovered = 0
    /// Journals that ended in a torn or damaged record (what came before it was recovered).
    var damaged: [String] = []
    /// Journals that could not be moved now (left for a later try), with why.
    var failed: [(name: String, reason: String)] = []
}
