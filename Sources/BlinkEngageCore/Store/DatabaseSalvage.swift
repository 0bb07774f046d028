/// What can still be read of a damaged database, copied into the new one before anything else runs: queued
/// reports first (in queue order), then how far each journal was moved (without it a journal's records would be
/// moved again), identities, settings and feed caches. SQLite's own recovery API is not in Debian 12's library.
///
/// Reports are read in one scan by id; where the scan meets a damaged page, each id after the last one read is
/// looked up on its own, up to the highest id the file names (its `sqlite_sequence` row, or a scan from the other
/// end), at most `maximumProbes` of them. An id whose lookup fails counts as lost: it may have held a report (a
/// deleted one reads the same), so the count is an upper bound.
enum DatabaseSalvage {
    static let maximumProbes: Int64 = 100_000

    private static let outboxColumns = "kind, body, identity, host, created_ms, attempts, next_attempt_ms, privacy"

    /// A file cut short reads as damaged everywhere; padded back to the size its header names, only its missing
    /// pages are (each reads as damaged, the others as they were). Files larger than this are not copied.
    static let maximumPaddedBytes = 256 << 20

    /// Copies from the database file `name` of `directory` into `database`; returns the reports saved and lost.
    static func copy(from name: String, in directory: StorageDirectory, into database: Database) -> (saved: Int, lost: Int) {
        var reports: [[Database.Value]] = [], others: [(sql: String, values: [Database.Value])] = []
        var lost: Int64 = 0
        let padded = padCopy(of: name, in: directory)
        let read = padded ?? name
        // Reading a WAL database makes its -wal and -shm: those this read made go with it, those moved aside stay.
        let made = ["-wal", "-shm"].filter { directory.kind(of: read + $0) == .absent }
        defer {
            for suffix in made { directory.remove(read + suffix) }
            if let padded { directory.remove(padded) }
        }
        do {
            try Database.readOnly(path: directory.path + "/" + read) { session throws(EngineFailure) in
                lost = readReports(session, into: &reports)
                others = readOthers(session)
            }
        } catch {
            return (0, 0)  // not a database at all: nothing can be read, nor counted
        }
        do {
            try database.withConnection { session throws(EngineFailure) in
                try session.transaction { () throws(EngineFailure) in
                    let insert = try session.statement("INSERT INTO outbox (\(outboxColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                    for values in reports { try insert.run(values) }
                    for other in others { try session.run(other.sql, other.values) }
                }
            }
        } catch {
            return (0, reports.count + Int(clamping: lost))
        }
        return (reports.count, Int(clamping: lost))
    }

    /// A copy of `name` padded with zeros to the size its header names, when it is shorter; its name, or nil.
    private static func padCopy(of name: String, in directory: StorageDirectory) -> String? {
        guard let header = directory.head(of: name, count: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        let storedPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = storedPageSize == 1 ? 65_536 : storedPageSize
        let pages = header[28...31].reduce(0) { $0 << 8 | Int($1) }
        let (size, overflow) = pageSize.multipliedReportingOverflow(by: pages)
        guard !overflow, size <= maximumPaddedBytes, let bytes = directory.contents(of: name, limit: size),
              bytes.count < size else { return nil }
        let copy = name + ".padded"
        let zeros = [UInt8](repeating: 0, count: size - bytes.count)
        let written: Void? = bytes.withUnsafeBytes { head in
            zeros.withUnsafeBytes { tail in try? directory.replace(copy, withParts: [head, tail]) }
        }
        return written == nil ? nil : copy
    }

    /// The reports that read back as items, in id order; returns how many ids could not be read.
    private static func readReports(_ session: Database.Session, into reports: inout [[Database.Value]]) -> Int64 {
        var last: Int64 = 0, lost: Int64 = 0
        let select = "SELECT id, \(outboxColumns) FROM outbox"
        func take(_ row: Database.Row) {
            let id = row.integer(0)
            last = max(last, id)
            guard SQLiteOutboxStorage.item(id: id, kind: row.integer(1), body: row.text(2), identity: row.text(3),
                                         identityIsNull: row.isNull(3), created: row.integer(5)) != nil else {
                lost += 1
                return
            }
            reports.append([.integer(row.integer(1)), row.text(2).map(Database.Value.text) ?? .null,
                            row.isNull(3) ? .null : row.text(3).map(Database.Value.text) ?? .null, .text(row.text(4) ?? ""),
                            .integer(row.integer(5)), .integer(max(0, row.integer(6))), .integer(row.integer(7)),
                            .text(row.text(8) ?? "")])
        }
        do {
            try session.run(select + " ORDER BY id") { row throws(EngineFailure) in take(row) }
            return lost
        } catch {}
        var highest = last
        try? session.run("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'") { row throws(EngineFailure) in
            highest = max(highest, row.integer(0))
        }
        try? session.run("SELECT id FROM outbox ORDER BY id DESC LIMIT 1") { row throws(EngineFailure) in
            highest = max(highest, row.integer(0))
        }
        var id = last + 1
        while id <= highest, id - last <= maximumProbes {
            do {
                try session.run(select + " WHERE id = ?", [.integer(id)]) { row throws(EngineFailure) in take(row) }
            } catch {
                lost += 1
            }
            id += 1
        }
        if id <= highest { lost += highest - id + 1 }  // past the probes' bound
        return lost
    }

    /// The other tables' rows as statements for the new database; a table that cannot be read gives what it gave.
    private static func readOthers(_ session: Database.Session) -> [(sql: String, values: [Database.Value])] {
        enum Column { case text, integer }
        let tables: [(select: String, insert: String, columns: [Column])] = [
            ("SELECT name, consumed FROM outbox_journal", "INSERT OR REPLACE INTO outbox_journal (name, consumed) VALUES (?, ?)",
             [.text, .integer]),
            ("SELECT key, value FROM settings", "INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", [.text, .text]),
            ("SELECT pub_user_id, user_id, token FROM registrations",
             "INSERT OR IGNORE INTO registrations (pub_user_id, user_id, token) VALUES (?, ?, ?)", [.text, .text, .text]),
            ("SELECT identity, body, stored_ms FROM feed_cache",
             "INSERT OR IGNORE INTO feed_cache (identity, body, stored_ms) VALUES (?, ?, ?)", [.text, .text, .integer]),
            ("SELECT name FROM legacy_items", "INSERT OR IGNORE INTO legacy_items (name) VALUES (?)", [.text]),
        ]
        var statements: [(sql: String, values: [Database.Value])] = []
        for table in tables {
            try? session.run(table.select) { row throws(EngineFailure) in
                var values: [Database.Value] = []
                for (index, kind) in table.columns.enumerated() {
                    let column = Int32(index)
                    guard !row.isNull(column) else { return }  // every column is NOT NULL: a damaged row
                    switch kind {
                    case .integer: values.append(.integer(row.integer(column)))
                    case .text:
                        guard let text = row.text(column) else { return }
                        values.append(.text(text))
                    }
                }
                statements.append((table.insert, values))
            }
        }
        return statements
    }
}
