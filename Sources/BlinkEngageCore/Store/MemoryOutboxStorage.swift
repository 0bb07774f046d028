/// Items kept in memory only, when no storage directory is usable, and in the tests of scheduling: no journal,
/// no other process, nothing survives the process. Its one lock is both the rows' and the storage's
/// (`LockRank.storage`), so its `then` closures keep the same rule as SQLite's.
final class MemoryOutboxStorage: OutboxStorage {
    private let rows = Locked<(next: Int64, rows: [Int64: StoredOutboxRow])>((1, [:]), rank: .storage)

    @discardableResult
    func insert(_ items: [NewItem], movingJournal journal: (name: String, consumed: Int)?,
                then: ([Int64]) -> Void) throws(EngineFailure) -> [Int64] {
        rows.withLock { state in
            let ids = items.map { item in
                let id = state.next
                state.next += 1
                state.rows[id] = StoredOutboxRow(item: OutboxItem(id: id, createdMilliseconds: item.createdMilliseconds, payload: item.payload),
                                                 attempts: 0, nextAttemptMilliseconds: 0)
                return id
            }
            then(ids)
            return ids
        }
    }

    func delete(_ ids: [Int64], then: () -> Void) {
        rows.withLock { state in
            for id in ids { state.rows[id] = nil }
            then()
        }
    }

    func recordAttempt(id: Int64, attempts: Int, nextAttemptMilliseconds: Int64) {
        rows.withLock { state in
            state.rows[id]?.attempts = attempts
            state.rows[id]?.nextAttemptMilliseconds = nextAttemptMilliseconds
        }
    }

    func load(afterID: Int64, then adopt: (_ rows: [StoredOutboxRow]?, _ corrupt: Int) -> Void) {
        rows.withLock { state in adopt(state.rows.values.filter { $0.item.id > afterID }.sorted { $0.item.id < $1.item.id }, 0) }
    }

    func storedIDs() -> Set<Int64>? { rows.withLock { Set($0.rows.keys) } }

    /// No other process writes here.
    func dataVersion() -> Int64 { 0 }
    func checkpoint() {}
    func makeJournal() throws(EngineFailure) -> OutboxJournal? { nil }
    func recoverDeadJournals(except own: String?) -> JournalRecovery { JournalRecovery() }
    func forgetRemovedJournals() {}
    var damageAtOpen: (movedTo: String, reason: String)? { nil }
}
