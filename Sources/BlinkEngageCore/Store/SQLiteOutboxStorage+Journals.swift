/// The journals in front of the outbox table (`OutboxJournal`): this instance's, and those that instances left
/// behind when they died, recovered into the table.
extension SQLiteOutboxStorage {
    func makeJournal() throws(EngineFailure) -> OutboxJournal? {
        guard let directory else { return nil }
        return try OutboxJournal(directory: directory)
    }

    /// Moves what is left in the dead journals of the directory (all but `own`) into the table, each in one
    /// transaction from where the database says it was moved, then deletes them and forgets their progress.
    func recoverDeadJournals(except own: String?) -> JournalRecovery {
        guard let directory else { return JournalRecovery() }
        var outcome = JournalRecovery(), finished = false
        for dead in OutboxJournal.dead(in: directory, except: own) {
            guard let consumed = journalConsumed(dead.name) else {
                outcome.failed.append((dead.name, "its progress cannot be read"))
                dead.release()
                continue
            }
            let (records, damaged) = JournalRecord.decode(dead.bytes, from: consumed)
            do throws(EngineFailure) {
                try insert(records.map { ($0.payload, $0.createdMilliseconds) }, movingJournal: (dead.name, dead.bytes.count), then: { _ in })
            } catch {
                outcome.failed.append((dead.name, error.message))
                dead.release()
                continue
            }
            dead.finish()
            finished = true
            outcome.recovered += records.count
            if damaged { outcome.damaged.append(dead.name) }
        }
        if finished { forgetRemovedJournals() }
        return outcome
    }

    /// Forgets the progress rows of journals no longer in the directory.
    func forgetRemovedJournals() {
        guard let directory else { return }
        forgetJournals { Set(directory.files().map(\.name).filter(OutboxJournal.isJournal)) }
    }
}
