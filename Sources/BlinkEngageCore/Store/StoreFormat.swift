/// The storage directory's format, recorded in the database (`PRAGMA user_version`), and how every earlier
/// format becomes the current one at start: one transaction per start, so a crash in the middle leaves the old
/// format whole and the next start migrates again; what was moved already is recorded in that same transaction,
/// so nothing is moved twice.
///
/// | format | release | what it holds |
/// |---|---|---|
/// | 1 | 0.1.0 | no database: a file per queued report in `outbox/` (`BEOX1` records), `identity.json`, `device_id` |
/// | 2 | 0.2.0 | `blinkengage.db` (user_version 0): `outbox`, `outbox_journal`, `settings`, `registrations`, `feed_cache`; journals |
/// | 3 | after 0.2.0 | format 2 and `legacy_items` (the names of format 1's reports already moved in), user_version 3 |
///
/// A format newer than this library's is left untouched: the SDK runs with its tracking held (`Outcome.newer`).
/// Each format's schema is committed in `Tests/Fixtures/storage/schema-N.sql`, and a test holds a fresh
/// database to the current one, so a change of schema cannot land without a new format and its migration.
enum StoreFormat {
    static let current: Int64 = 3

    /// Every table of the current format (each store names its own).
    static let schema = SQLiteOutboxStorage.schema + IdentityStore.schema + FeedCache.schema + LegacyFormat.schema

    /// What a start found and did.
    struct Migration: Equatable, Sendable {
        /// The format the directory held before this start (0: nothing yet).
        var from: Int64 = 0
        /// Reports carried from an earlier format's files into the database.
        var carried = 0
        /// Reports of an earlier format that could not be read (damaged files).
        var lost = 0
        /// Rows read back from a damaged database before it was moved aside, and those that could not be.
        var salvaged = 0
        var salvageLost = 0
    }

    enum Outcome {
        case ready(Database, Migration)
        /// The directory holds format `found`, newer than this library's: nothing was changed.
        case newer(found: Int64)
    }

    /// Opens the directory's database and brings it to the current format. A directory without one gets the
    /// current format's empty database (`StoreTemplate`) unless `template` is false (its tests make one without).
    static func open(_ directory: StorageDirectory, template: Bool = true) throws(EngineFailure) -> Outcome {
        // Read from the file's header before SQLite opens it: opening for writing may switch its journal mode.
        let recorded = recordedFormat(directory)
        if let found = recorded, found > current { return .newer(found: found) }
        let placed = recorded == nil && template && StoreTemplate.place(in: directory)
        var migration = Migration()
        var newer: Int64?
        var carriedIn = false
        // No header: a new file, whose first commit need not sync (`Database.init`).
        let database = try Database(directory: directory, newFile: recorded == nil) { session throws(EngineFailure) in
            try session.transaction { () throws(EngineFailure) in
                let version = try userVersion(session)
                guard version <= current else {
                    newer = version
                    return
                }
                migration.from = placed ? 0 : version == 0 ? (try hasTable("outbox", session) ? 2 : 0) : version
                if version < current {
                    for statement in schema { try session.run(statement) }
                    try session.run("PRAGMA user_version = \(current)")
                } else if placed {
                    // The image comes without a WAL. The first commit into a new WAL syncs its header and the
                    // directory unless synchronous is OFF, as it is in this transaction (`Database.init`, newFile):
                    // left to the first report or identity, that is 0.9 ms on the caller's thread. So this commit
                    // writes: the format again, which changes nothing else.
                    try session.run("PRAGMA user_version = \(current)")
                }
                let legacy = try LegacyFormat.moveIn(from: directory, session: session)
                if legacy.found { migration.from = 1 }  // the lowest format found (0.2.0 left 0.1.0's files where they were)
                carriedIn = legacy.found
                migration.carried = legacy.carried
                migration.lost = legacy.lost
            }
        }
        if let newer { return .newer(found: newer) }
        // After the commit, made durable first (nothing else syncs it): the files whose reports are in the database
        // now go (a crash before leaves them, and the next start, finding their names recorded, only removes them).
        if carriedIn { database.syncWAL() }
        LegacyFormat.removeMoved(from: directory, database: database)
        if case .recovered(let aside, _) = database.openOutcome {
            let saved = DatabaseSalvage.copy(from: aside, in: directory, into: database)
            migration.salvaged = saved.saved
            migration.salvageLost = saved.lost
        }
        return .ready(database, migration)
    }

    /// The format in the database file's header (`user_version`, a big-endian 32-bit number at byte 60), nil
    /// without a file of SQLite's. A newer library's commit still in the WAL is caught again inside the transaction.
    static func recordedFormat(_ directory: StorageDirectory) -> Int64? {
        guard let header = directory.head(of: Database.fileName, count: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        return Int64(header[60...63].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// The format recorded in an open database (0 for a database of format 2 or a new one).
    static func userVersion(_ session: Database.Session) throws(EngineFailure) -> Int64 {
        var version: Int64 = 0
        try session.run("PRAGMA user_version") { row throws(EngineFailure) in version = row.integer(0) }
        return version
    }

    static func hasTable(_ name: String, _ session: Database.Session) throws(EngineFailure) -> Bool {
        var found = false
        try session.run("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) { _ throws(EngineFailure) in
            found = true
        }
        return found
    }
}

/// What the start found in the storage directory (SDK.statistics()).
struct StorageHealth: Sendable {
    let migration: StoreFormat.Migration
    /// The newer format met (a downgrade), 0 for none.
    let heldFormat: Int64
}

/// The storage part of `be_stats`.
public struct StorageStatistics: Sendable, Equatable {
    /// Entries refused in the storage directory (links, FIFOs, hard links where the store expects its own files).
    public var refused: UInt64 = 0
    /// The newer storage format met at start (a downgrade), its data untouched and tracking in memory; 0 for none.
    public var heldFormat: UInt64 = 0
    /// Queued reports carried at start from an earlier format, or read back from a damaged database.
    public var reportsMigrated: UInt64 = 0
    /// Queued reports of an earlier format or a damaged database that could not be read.
    public var reportsUnrecoverable: UInt64 = 0

    public init() {}
}
