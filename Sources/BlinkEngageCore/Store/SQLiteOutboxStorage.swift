/// The outbox table of `blinkengage.db`, and the journal files in front of it in the storage directory
/// (`OutboxJournal`). A report is one prepared INSERT, or one journal write; order is the table's rowid, which
/// SQLite keeps increasing across processes.
final class SQLiteOutboxStorage: OutboxStorage {
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind INTEGER NOT NULL,
            body TEXT NOT NULL,
            identity TEXT,
            host TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_ms INTEGER NOT NULL DEFAULT 0,
            privacy TEXT NOT NULL DEFAULT ''
        )
        """,
        // How far each live or recovered journal (OutboxJournal) has been moved into `outbox`, in bytes.
        "CREATE TABLE IF NOT EXISTS outbox_journal (name TEXT PRIMARY KEY, consumed INTEGER NOT NULL) WITHOUT ROWID",
    ]
    static let beaconKind: Int64 = 0, eventKind: Int64 = 1

    let database: Database
    /// Where the journals live; nil: none are kept (each report is then an insert).
    let directory: StorageDirectory?
    /// The storage's rule (see `OutboxStorage`): reads and their adoption never beside writes and their
    /// bookkeeping. Its value counts the reads.
    private let sync = Locked(0, rank: .storage)

    init(database: Database, directory: StorageDirectory? = nil) {
        self.database = database
        self.directory = directory
    }

    var damageAtOpen: (movedTo: String, reason: String)? {
        if case .recovered(let aside, let reason) = database.openOutcome { return (aside, reason) }
        return nil
    }

    @discardableResult
    func insert(_ items: [NewItem], movingJournal journal: (name: String, consumed: Int)?,
                then: ([Int64]) -> Void) throws(EngineFailure) -> [Int64] {
        try sync.withLock { _ throws(EngineFailure) in
            let ids = try insertUnsynchronised(items, movingJournal: journal)
            then(ids)
            return ids
        }
    }

    /// The insert itself: one transaction for several rows or a journal's progress, none for a single report.
    private func insertUnsynchronised(_ items: [NewItem], movingJournal journal: (name: String, consumed: Int)?) throws(EngineFailure) -> [Int64] {
        try database.withConnection { session throws(EngineFailure) in
            guard items.count > 1 || journal != nil else {
                return try items.map { item throws(EngineFailure) in try Self.insert(item.payload, item.createdMilliseconds, in: session) }
            }
            var ids: [Int64] = []
            ids.reserveCapacity(items.count)
            try session.transaction { () throws(EngineFailure) in
                let statement = try session.statement(Self.insertSQL)
                for item in items { ids.append(try Self.insert(item.payload, item.createdMilliseconds, with: statement, in: session)) }
                if let journal {
                    try session.run("INSERT OR REPLACE INTO outbox_journal (name, consumed) VALUES (?, ?)",
                                    [.text(journal.name), .integer(Int64(journal.consumed))])
                }
            }
            return ids
        }
    }

    private static let insertSQL = "INSERT INTO outbox (kind, body, identity, host, created_ms, privacy) VALUES (?, ?, ?, ?, ?, ?)"

    private static func insert(_ payload: OutboxItem.Payload, _ createdMilliseconds: Int64, in session: Database.Session) throws(EngineFailure) -> Int64 {
        try insert(payload, createdMilliseconds, with: session.statement(insertSQL), in: session)
    }

    private static func insert(_ payload: OutboxItem.Payload, _ createdMilliseconds: Int64, with statement: Database.Statement,
                               in session: Database.Session) throws(EngineFailure) -> Int64 {
        let values: [Database.Value]
        switch payload {
        case .beacon(let url):
            values = [.integer(beaconKind), .text(url), .null, .text(BeaconURL.host(of: url)), .integer(createdMilliseconds), .text("")]
        case .event(let json, let identity, let privacy):
            values = [.integer(eventKind), .text(json), identity.map(Database.Value.text) ?? .null, .text(""),
                      .integer(createdMilliseconds), .text(privacy)]
        }
        try statement.run(values)
        return session.lastInsertedRowID
    }

    // MARK: - Journals

    /// How many bytes of `journal` are already in the table (0 for one never moved); nil when unreadable.
    func journalConsumed(_ journal: String) -> Int? {
        try? database.withConnection { session throws(EngineFailure) in try Self.journalConsumed(journal, in: session) }
    }

    /// `journalConsumed` in an open session (the storage inspection reads it read-only).
    static func journalConsumed(_ journal: String, in session: Database.Session) throws(EngineFailure) -> Int {
        var consumed = 0
        try session.run("SELECT consumed FROM outbox_journal WHERE name = ?", [.text(journal)]) { row throws(EngineFailure) in
            consumed = Int(clamping: max(0, row.integer(0)))
        }
        return consumed
    }

    /// Forgets the progress of journals that no longer exist (their files are deleted; names are never reused).
    /// `existing` lists the journal files; it runs inside the write transaction, so a row another process adds
    /// meanwhile (after creating its file) cannot be taken for a stale one.
    func forgetJournals(existing: () -> Set<String>) {
        try? database.withConnection { session throws(EngineFailure) in
            try session.transaction { () throws(EngineFailure) in
                let files = existing()
                var gone: [String] = []
                try session.run("SELECT name FROM outbox_journal") { row throws(EngineFailure) in
                    if let name = row.text(0), !files.contains(name) { gone.append(name) }
                }
                for name in gone { try session.run("DELETE FROM outbox_journal WHERE name = ?", [.text(name)]) }
            }
        }
    }

    /// One statement per run of consecutive ids (a delivered batch is usually one run), all in one transaction,
    /// so the write lock that reports wait for is held as briefly as possible.
    func delete(_ ids: [Int64], then: () -> Void) {
        sync.withLock { _ in
            deleteUnsynchronised(ids)
            then()
        }
    }

    private func deleteUnsynchronised(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        var runs: [(Int64, Int64)] = []
        for id in ids.sorted() {
            if let last = runs.last, last.1 &+ 1 == id { runs[runs.count - 1].1 = id } else { runs.append((id, id)) }
        }
        try? database.withConnection { session throws(EngineFailure) in
            try session.transaction { () throws(EngineFailure) in
                for (first, last) in runs {
                    try session.run("DELETE FROM outbox WHERE id BETWEEN ? AND ?", [.integer(first), .integer(last)])
                }
            }
        }
    }

    func recordAttempt(id: Int64, attempts: Int, nextAttemptMilliseconds: Int64) {
        try? database.withConnection { session throws(EngineFailure) in
            try session.run("UPDATE outbox SET attempts = ?, next_attempt_ms = ? WHERE id = ?",
                            [.integer(Int64(clamping: attempts)), .integer(nextAttemptMilliseconds), .integer(id)])
        }
    }

    func load(afterID: Int64, then adopt: (_ rows: [StoredOutboxRow]?, _ corrupt: Int) -> Void) {
        sync.withLock { reads in
            reads += 1
            let (rows, corrupt) = loadUnsynchronised(afterID: afterID)
            adopt(rows, corrupt)
        }
    }

    /// nil rows: the table cannot be read now.
    private func loadUnsynchronised(afterID: Int64) -> (rows: [StoredOutboxRow]?, corrupt: Int) {
        var rows: [StoredOutboxRow] = []
        var damaged: [Int64] = []
        do {
            try database.withConnection { session throws(EngineFailure) in
                try session.run("SELECT id, kind, body, identity, created_ms, attempts, next_attempt_ms, privacy FROM outbox WHERE id > ? ORDER BY id",
                                [.integer(afterID)]) { row throws(EngineFailure) in
                    let id = row.integer(0)
                    guard let item = Self.item(id: id, kind: row.integer(1), body: row.text(2), identity: row.text(3),
                                               identityIsNull: row.isNull(3), created: row.integer(4), privacy: row.text(7) ?? "") else {
                        damaged.append(id)
                        return
                    }
                    rows.append(StoredOutboxRow(item: item, attempts: Int(clamping: max(0, row.integer(5))),
                                                nextAttemptMilliseconds: row.integer(6)))
                }
            }
        } catch {
            return (nil, 0)
        }
        deleteUnsynchronised(damaged)
        return (rows, damaged.count)
    }

    /// SQLite's count of commits by other connections: unchanged means a directory event was this process's own.
    func dataVersion() -> Int64 {
        (try? database.withConnection { session throws(EngineFailure) -> Int64 in
            var version: Int64 = 0
            try session.run("PRAGMA data_version") { row throws(EngineFailure) in version = row.integer(0) }
            return version
        }) ?? 0
    }

    func checkpoint() { database.checkpoint() }

    func storedIDs() -> Set<Int64>? {
        var ids = Set<Int64>()
        do {
            try database.withConnection { session throws(EngineFailure) in
                try session.run("SELECT id FROM outbox") { row throws(EngineFailure) in ids.insert(row.integer(0)) }
            }
        } catch {
            return nil
        }
        return ids
    }

    /// A row as an item, or nil when it cannot be one: an unknown kind, text that is not UTF-8, a beacon that is
    /// not an http(s) URL, an event that is not a JSON object.
    static func item(id: Int64, kind: Int64, body: String?, identity: String?, identityIsNull: Bool, created: Int64,
                     privacy: String = "") -> OutboxItem? {
        guard id > 0, let body else { return nil }
        switch kind {
        case beaconKind:
            // A row of an earlier release holds the URL as the answer gave it: sent as its `href` now.
            guard let href = ServiceURL.requestableHref(body) else { return nil }
            return OutboxItem(id: id, createdMilliseconds: created, payload: .beacon(url: href))
        case eventKind:
            guard identity != nil || identityIsNull, (try? JSONParser.parse(body))?.objectValue != nil else { return nil }
            return OutboxItem(id: id, createdMilliseconds: created, payload: .event(json: body, identity: identity, privacy: Self.isPrivacyQuery(privacy) ? privacy : ""))
        default:
            return nil
        }
    }
}

extension SQLiteOutboxStorage {
    /// A stored privacy query is only ever `name=value&...` of percent-encoded text: anything else (a damaged or
    /// foreign row) is not appended to a URL.
    static func isPrivacyQuery(_ text: String) -> Bool {
        text.utf8.allSatisfy { ASCII.isAlphanumeric($0) || "-._~%=&".utf8.contains($0) }
    }
}
