extension SQLiteOutboxStorage {
    /// Brings back the queued reports of what a safe start moved aside (`BreakerFile.moveAside`): the journals
    /// there are recovered into the database there, as any dead instance's are, and every row of it is added to
    /// this store, in one transaction. Returns how many. Identities and the feed cache stay behind: they are made
    /// again.
    func adoptQuarantine(at quarantine: StorageDirectory) throws(EngineFailure) -> Int {
        guard case .ready(let database, _) = try StoreFormat.open(quarantine) else {
            throw .invalidState("\(quarantine.path) holds a newer storage format; left as it is")
        }
        let aside = SQLiteOutboxStorage(database: database, directory: quarantine)
        _ = aside.recoverDeadJournals(except: nil)
        let rows = aside.load(afterID: 0).rows
        guard !rows.isEmpty else { return 0 }
        try insert(rows.map { ($0.item.payload, $0.item.createdMilliseconds) }, movingJournal: nil, then: { _ in })
        return rows.count
    }
}
