/// Recovery of the journals instances left behind when they died (`OutboxJournal`), into the outbox table.
extension SQLiteOutboxStore {
    struct JournalRecovery {
        /// Items moved into the table.
        var recovered = 0
        /// Journals that ended in a torn or damaged record (what came before it was recovered).
        var damaged: [String] = []
        /// Journals that could not be moved now (left for a later try), with why.
        var failed: [(name: String, reason: String)] = []
    }

    /// Moves what is left in the dead journals of `directory` (all but `ownJournal`) into the table, each in one
    /// transaction from where the database says it was moved, then deletes them and forgets their progress.
    func recoverDeadJournals(in directory: StorageDirectory, except ownJournal: String?) -> JournalRecovery {
        var outcome = JournalRecovery(), finished = false
        for dead in OutboxJournal.dead(in: directory, except: ownJournal) {
            guard let consumed = journalConsumed(dead.name) else {
                outcome.failed.append((dead.name, "its progress cannot be read"))
                dead.release()
                continue
            }
            let (records, damaged) = JournalRecord.decode(dead.bytes, from: consumed)
            do throws(EngineFailure) {
                _ = try insertJournaled(records.map { ($0.payload, $0.createdMilliseconds) }, journal: dead.name, consumed: dead.bytes.count)
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
        if finished { forgetRemovedJournals(in: directory) }
        return outcome
    }

    /// Forgets the progress rows of journals no longer in `directory`.
    func forgetRemovedJournals(in directory: StorageDirectory) {
        forgetJournals { Set(directory.files().map(\.name).filter(OutboxJournal.isJournal)) }
    }
}
