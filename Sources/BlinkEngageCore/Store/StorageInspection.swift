/// What a storage directory holds, read without starting an SDK and without changing anything
/// (`be_storage_inspect`, `blinkengage stats`).
public struct StorageInfo: Sendable, Equatable {
    public var beaconsQueued: UInt64 = 0
    public var eventsQueued: UInt64 = 0
    /// Seconds since the oldest queued item was reported; 0 with none.
    public var oldestItemAgeSeconds: UInt64 = 0
    /// The database with its write-ahead log.
    public var databaseBytes: UInt64 = 0
    public var imageCacheBytes: UInt64 = 0
    public var imageCacheFiles: UInt64 = 0
    public var hasIdentity = false
}

public enum StorageInspection {
    /// The storage of `apiKey` under `root` (the directory given to `be_config_set_storage_dir`).
    public static func inspect(root: String, apiKey: String) throws(EngineFailure) -> StorageInfo {
        let directory = try StorageDirectory.open(root: root, apiKey: apiKey, create: false)
        let path = directory.path + "/" + Database.fileName
        guard directory.kind(of: Database.fileName) == .file else { throw .notFound("no storage for this API key under \(root)") }
        var info = StorageInfo()
        let now = WallClock.milliseconds()
        /// An item created then (a stored number, checked) may be the oldest queued.
        func noteAge(createdMilliseconds: Int64) {
            let (age, overflow) = now.subtractingReportingOverflow(createdMilliseconds)
            if !overflow, age > 0 { info.oldestItemAgeSeconds = max(info.oldestItemAgeSeconds, UInt64(age / 1000)) }
        }
        try Database.readOnly(path: path) { session throws(EngineFailure) in
            try session.run("SELECT kind, COUNT(*), MIN(created_ms) FROM outbox GROUP BY kind") { row throws(EngineFailure) in
                let count = UInt64(max(row.integer(1), 0))
                switch row.integer(0) {
                case SQLiteOutboxStorage.beaconKind: info.beaconsQueued = count
                case SQLiteOutboxStorage.eventKind: info.eventsQueued = count
                default: break
                }
                noteAge(createdMilliseconds: row.integer(2))
            }
            info.hasIdentity = try IdentityStore.currentIdentity(in: session) != nil
            // Reports still in journals (a running instance's, or one that died) are queued too.
            for file in directory.files() where OutboxJournal.isJournal(file.name) {
                // A database from before journals has no progress table: the whole journal is queued then.
                let consumed = (try? SQLiteOutboxStorage.journalConsumed(file.name, in: session)) ?? 0
                guard let bytes = directory.contents(of: file.name, limit: OutboxJournal.maximumBytes) else { continue }
                for record in JournalRecord.decode(bytes, from: consumed).records {
                    if case .beacon = record.payload { info.beaconsQueued += 1 } else { info.eventsQueued += 1 }
                    noteAge(createdMilliseconds: record.createdMilliseconds)
                }
            }
        }
        for file in directory.files() where file.name.hasPrefix(Database.fileName) && !file.name.containsText(".corrupt-") {
            info.databaseBytes += UInt64(file.size)
        }
        let images = try? directory.subdirectory(ImageDiskCache.folderName, create: false)
        for file in images?.files() ?? [] where ImageDiskCache.isEntryFile(file.name) {
            info.imageCacheBytes += UInt64(file.size)
            info.imageCacheFiles += 1
        }
        return info
    }
}
