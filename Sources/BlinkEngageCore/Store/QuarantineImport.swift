extension SQLiteOutboxStore {
    /// Brings back the queued reports of what a safe start moved aside (`BreakerFile.moveAside`): the journals
    /// there are recovered into the database there, as any dead instance's are, and every row of it is added to
    /// this store. Returns how many. Identities and the feed cache stay behind: they are made again.
    func adoptQuarantine(at path: String) throws(EngineFailure) -> Int {
        let aside = SQLiteOutboxStore(database: try Database(
            directory: path, schema: SQLiteOutboxStore.schema + IdentityStore.schema + FeedCache.schema))
        _ = aside.recoverDeadJournals(in: path, except: nil)
        let rows = aside.load(afterID: 0).rows
        for row in rows { _ = try insert(row.item.payload, createdMilliseconds: row.item.createdMilliseconds) }
        return rows.count
    }
}
