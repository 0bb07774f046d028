extension SQLiteOutboxStore {
    /// Brings back the queued reports of what a safe start moved aside (`BreakerFile.moveAside`): the journals
    /// there are recovered into the database there, as any dead instance's are, and every row of it is added to
    /// this store. Returns how many. Identities and the feed cache stay behind: they are made again.
    func adoptQuarantine(at quarantine: StorageDirectory) throws(EngineFailure) -> Int {
        guard case .ready(let database, _) = try StoreFormat.open(quarantine) else {
            throw .invalidState("\(quarantine.path) holds a newer storage format; left as it is")
        }
        let aside = SQLiteOutboxStore(database: database)
        _ = aside.recoverDeadJournals(in: quarantine, except: nil)
        let rows = aside.load(afterID: 0).rows
        for row in rows { _ = try insert(row.item.payload, createdMilliseconds: row.item.createdMilliseconds) }
        return rows.count
    }
}
