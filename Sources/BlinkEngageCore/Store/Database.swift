internal import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One SQLite connection to `blinkengage.db` with its prepared statements, used from any thread under one lock
/// (SQLite's own locking then orders it against other processes).
///
/// WAL mode with `synchronous=NORMAL`: a committed transaction survives the death of the process at any instant;
/// only a power loss can take the last transactions back, never corrupt the file. A damaged file (not SQLite,
/// truncated, or failing `PRAGMA quick_check`) is moved aside at open and a fresh one is created; `StoreFormat`
/// then copies what can still be read of it into the new one.
final class Database: Sendable {
    static let fileName = "blinkengage.db"

    enum OpenOutcome: Equatable, Sendable {
        case opened
        /// The file was damaged; it now lives in the storage directory as `movedTo`, and this database is new.
        case recovered(movedTo: String, reason: String)
    }

    let path: String
    let openOutcome: OpenOutcome
    private let connection: Locked<Connection>

    /// A raw connection and its statements by SQL text.
    // Safe: touched only inside `Locked.withLock` (every use goes through `withConnection`), closed in deinit.
    fileprivate final class Connection: @unchecked Sendable {
        let handle: OpaquePointer
        var statements: [String: OpaquePointer] = [:]
        init(_ handle: OpaquePointer) { self.handle = handle }
        deinit {
            for statement in statements.values { sqlite3_finalize(statement) }
            sqlite3_close_v2(handle)
        }
    }

    /// Why opening failed: only damage moves the file aside. A database that is busy (another process is
    /// creating it or checkpointing) or cannot be opened at all is never mistaken for a damaged one, or two
    /// processes starting together would each move the other's live file away.
    private enum OpenFailure: Error {
        case damaged(String)
        case busy(String)
        case unavailable(String)

        var message: String {
            switch self {
            case .damaged(let m), .busy(let m), .unavailable(let m): return m
            }
        }

        init(_ code: Int32, _ message: String) {
            switch code & 0xFF {
            case SQLITE_CORRUPT, SQLITE_NOTADB: self = .damaged(message)
            case SQLITE_BUSY, SQLITE_LOCKED: self = .busy(message)
            default: self = .unavailable(message)
            }
        }
    }

    /// The database file and the companions SQLite makes beside it.
    static let fileNames = [fileName, fileName + "-wal", fileName + "-shm", fileName + "-journal"]

    /// Opens (creating when absent) the database in `directory`, then runs `prepare` on it (the format's
    /// migrations, `StoreFormat`). The file is made 0600 by the store itself, never through a link; a link, FIFO or
    /// multiply linked file planted as the database or a companion is refused (`StorageDirectory`), and SQLite
    /// opens with `SQLITE_OPEN_NOFOLLOW`, so it never writes through a link either.
    ///
    /// - Parameter newFile: the directory held no database before (`StoreFormat` read no header): `prepare`'s first
    ///   commit, which creates the WAL, then skips the syncs of its header and of the directory (0.8 ms of a fresh
    ///   start on the caller's thread). A new file lost to a power cut is found damaged, or empty, and made again;
    ///   what `prepare` carries in from elsewhere is synced before its source is removed (`syncWAL`).
    init(directory: StorageDirectory, newFile: Bool = false,
         prepare: (Session) throws(EngineFailure) -> Void = { _ in }) throws(EngineFailure) {
        path = directory.path + "/" + Self.fileName
        let (handle, outcome) = try Self.open(directory, path)
        connection = Locked(Connection(handle), rank: .database)
        openOutcome = outcome
        try withConnection { session throws(EngineFailure) in
            if newFile { try session.run("PRAGMA synchronous = OFF") }
            try prepare(session)
            if newFile { try session.run("PRAGMA synchronous = NORMAL") }
        }
    }

    /// Opens the file, moving a damaged one aside once and waiting out another process's exclusive lock.
    private static func open(_ directory: StorageDirectory, _ path: String) throws(EngineFailure) -> (OpaquePointer, OpenOutcome) {
        var outcome = OpenOutcome.opened
        var attempts = 0
        while true {
            for name in fileNames.dropFirst() { directory.refuseUnlessPlainFile(name) }
            close(try directory.openOwnFile(fileName))  // 0600, as SQLite then makes its companions
            let failure: OpenFailure
            do throws(OpenFailure) {
                return (try openChecked(path), outcome)
            } catch {
                failure = error
            }
            switch failure {
            case .damaged(let reason):
                guard case .opened = outcome else { throw .io("\(path) is damaged again after a fresh start: \(reason)") }
                let aside = "\(fileName).corrupt-\(WallClock.milliseconds() / 1000)"
                for suffix in ["", "-wal", "-shm"] { directory.rename(fileName + suffix, to: aside + suffix) }
                outcome = .recovered(movedTo: aside, reason: reason)
            case .busy(let reason):
                // Switching a new database to WAL takes an exclusive lock and does not wait on the busy
                // handler: another process creating the file at this moment makes it fail at once. Try again
                // shortly, for up to about 5 s.
                attempts += 1
                guard attempts < 500 else { throw .io("\(path) stays locked: \(reason)") }
                usleep(10_000)
            case .unavailable(let reason):
                throw .io(reason)
            }
        }
    }

    private static func openChecked(_ path: String) throws(OpenFailure) -> OpaquePointer {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOFOLLOW
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw OpenFailure(result, "cannot open \(path): \(String(cString: sqlite3_errstr(result)))")
        }
        do {
            // Another process may hold a write lock for a moment: wait for it rather than fail.
            try execute(handle, "PRAGMA busy_timeout = 5000")
            try check(handle, "PRAGMA quick_check", expecting: "ok", otherAnswerIsDamage: true)
            // Already WAL (the usual case once created): no need for the exclusive lock a switch takes.
            if (try? check(handle, "PRAGMA journal_mode", expecting: "wal", otherAnswerIsDamage: false)) == nil {
                // The switch writes the file's first page through a rollback journal, which the default
                // `synchronous = FULL` syncs four times (journal, directory, database): 3 to 4 ms of a fresh
                // start. Without the syncs the switch still survives the process's death, as every commit here
                // does (WAL with NORMAL); a file the system lost in a crash is found damaged and set aside.
                try execute(handle, "PRAGMA synchronous = OFF")
                try check(handle, "PRAGMA journal_mode = WAL", expecting: "wal", otherAnswerIsDamage: false)
            }
            try execute(handle, "PRAGMA synchronous = NORMAL")
            // Checkpoints cost two fsyncs and copy pages: the outbox runs them when it has nothing left to do
            // (`checkpoint()`), and the automatic one is only a safety net for long bursts (16 MiB of WAL).
            // After a reset the WAL file is cut back to 4 MiB.
            try execute(handle, "PRAGMA wal_autocheckpoint = 4000")
            try execute(handle, "PRAGMA journal_size_limit = 4194304")
            // Deleted rows are overwritten, not left in free pages: erasure must leave nothing of the user.
            try execute(handle, "PRAGMA secure_delete = ON")
            return handle
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    private static func execute(_ handle: OpaquePointer, _ sql: String) throws(OpenFailure) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            throw OpenFailure(result, "\(sql): \(message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result)))")
        }
    }

    /// Runs a one-row pragma and requires its first column to read `expected`. A different answer is damage
    /// only where it says so (quick_check lists problems); an error is classified by its code.
    private static func check(_ handle: OpaquePointer, _ sql: String, expecting expected: String,
                              otherAnswerIsDamage: Bool) throws(OpenFailure) {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            throw OpenFailure(prepared, "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        let step = sqlite3_step(statement)
        guard step == SQLITE_ROW else { throw OpenFailure(step, "\(sql): \(String(cString: sqlite3_errstr(step)))") }
        let answer = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
        guard answer.lowercased() == expected else {
            let reason = "\(sql) answered \(answer)"
            throw otherAnswerIsDamage ? .damaged(reason) : .unavailable(reason)
        }
    }

    /// Opens the database at `path` read-only for `body` (an inspection that must change nothing, not even
    /// create a missing file), then closes it.
    static func readOnly<Result>(path: String, _ body: (Session) throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOFOLLOW, nil)
        guard opened == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw .io("cannot open \(path): \(String(cString: sqlite3_errstr(opened)))")
        }
        let connection = Connection(handle)  // closes the handle when the inspection ends
        sqlite3_busy_timeout(handle, 5000)
        return try body(Session(connection: connection))
    }

    /// Copies the WAL into the main file without waiting for readers or writers (a reader still using old
    /// pages keeps them). For a moment of idleness: it costs two fsyncs.
    func checkpoint() {
        try? withConnection { session throws(EngineFailure) in
            try session.run("PRAGMA wal_checkpoint(PASSIVE)") { _ throws(EngineFailure) in }
        }
    }

    /// Makes every commit so far durable (a checkpoint syncs the WAL before it copies it in, and the file after):
    /// for data carried in from files that are removed next. WAL with NORMAL syncs no commit by itself.
    func syncWAL() { checkpoint() }

    /// Leaves the WAL for the next open when the connection closes, instead of copying it into the main file then:
    /// that copy's two fsyncs were most of a shutdown with nothing owed. For a close after which nothing needs them
    /// (the outbox delivered everything): what the WAL holds stays as safe from the process's end as every commit
    /// here is (WAL with NORMAL); the next open reads it, and the next checkpoint (the outbox's, once it has
    /// delivered, or SQLite's own at 16 MiB) folds it in and syncs it.
    func leaveWALAtClose() {
        try? withConnection { session throws(EngineFailure) in
            _ = be_sqlite3_no_checkpoint_on_close(session.connection.handle, 1)
        }
    }

    /// After erasure: moves everything into the main file and empties the WAL, then rebuilds the file, so no
    /// deleted row survives in a WAL frame or a free page.
    func scrub() {
        try? withConnection { session throws(EngineFailure) in
            try session.run("PRAGMA wal_checkpoint(TRUNCATE)") { _ throws(EngineFailure) in }
            try session.run("VACUUM")
            try session.run("PRAGMA wal_checkpoint(TRUNCATE)") { _ throws(EngineFailure) in }
        }
    }

    // MARK: - Statements

    /// Runs `body` with the connection to itself. Statements are prepared once and kept.
    func withConnection<Result>(_ body: (Session) throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        try connection.withLock { (connection: inout Connection) throws(EngineFailure) -> Result in
            try body(Session(connection: connection))
        }
    }

    /// The connection while its lock is held: runs statements and transactions.
    /// Valid inside `withConnection`'s closure only.
    struct Session {
        fileprivate let connection: Connection

        /// Runs `sql` with `values` bound to its `?` parameters, calling `row` for each result row.
        func run(_ sql: String, _ values: [Value] = [], row: (Row) throws(EngineFailure) -> Void = { _ in }) throws(EngineFailure) {
            try statement(sql).run(values, row: row)
        }

        /// The prepared statement for `sql`, for running many times in a row (a batch of inserts) without
        /// looking it up each time. Valid inside `withConnection`'s closure only.
        func statement(_ sql: String) throws(EngineFailure) -> Statement {
            Statement(session: self, sql: sql, handle: try prepared(sql))
        }

        /// The rowid of the last insert on this connection.
        var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection.handle) }

        /// Runs `body` in one transaction: all of it is stored, or none.
        func transaction(_ body: () throws(EngineFailure) -> Void) throws(EngineFailure) {
            try run("BEGIN IMMEDIATE")
            do {
                try body()
                try run("COMMIT")
            } catch {
                try? run("ROLLBACK")
                throw error
            }
        }

        private func prepared(_ sql: String) throws(EngineFailure) -> OpaquePointer {
            if let statement = connection.statements[sql] { return statement }
            var statement: OpaquePointer?
            let result = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard result == SQLITE_OK, let statement else { throw failure(sql, result) }
            connection.statements[sql] = statement
            return statement
        }

        fileprivate func failure(_ sql: String, _ code: Int32) -> EngineFailure {
            let detail = String(cString: sqlite3_errmsg(connection.handle))
            let isFull = code & 0xFF == SQLITE_FULL || code == SQLITE_IOERR | (3 << 8)  // SQLITE_IOERR_WRITE
            return .io("\(isFull ? "the disk is full: " : "")\(detail) (SQLite \(code))")
        }
    }

    /// A prepared statement of a session: binds values, steps through rows, and is reset after each run.
    struct Statement {
        fileprivate let session: Session
        fileprivate let sql: String
        fileprivate let handle: OpaquePointer

        /// Runs the statement with `values` bound to its `?` parameters, calling `row` for each result row.
        func run(_ values: [Value], row: (Row) throws(EngineFailure) -> Void = { _ in }) throws(EngineFailure) {
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let result: Int32
                switch value {
                case .integer(let number): result = sqlite3_bind_int64(handle, index, number)
                case .text(let text): result = Self.bind(text, to: handle, at: index)
                case .null: result = sqlite3_bind_null(handle, index)
                }
                guard result == SQLITE_OK else { throw session.failure(sql, result) }
            }
            while true {
                let step = sqlite3_step(handle)
                if step == SQLITE_DONE { return }
                guard step == SQLITE_ROW else { throw session.failure(sql, step) }
                try row(Row(statement: handle))
            }
        }

        /// Binds the text's UTF-8 bytes with their length (no terminator to look for); SQLite copies them.
        private static func bind(_ text: String, to handle: OpaquePointer, at index: Int32) -> Int32 {
            var text = text
            return text.withUTF8 { bytes in
                guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                // An empty buffer may have no address; SQLite takes "" for it.
                guard let base = bytes.baseAddress else { return be_sqlite3_bind_text(handle, index, "", 0) }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    be_sqlite3_bind_text(handle, index, $0, Int32(bytes.count))
                }
            }
        }
    }

    enum Value: Sendable {
        case integer(Int64)
        case text(String)
        case null
    }

    /// One result row, valid inside the `row` closure only.
    struct Row {
        fileprivate let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        /// nil for NULL and for text that is not valid UTF-8 (a damaged or foreign row).
        func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    }
}
