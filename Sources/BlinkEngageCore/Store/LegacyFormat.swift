/// Format 1 (0.1.0): no database, but a file per queued report in `outbox/` (`<name>.item`, a `BEOX1 <crc32 hex>
/// <length>` line and a JSON object), the identities in `identity.json` and the device id in `device_id`. At start
/// they move into the database inside the format's transaction (`StoreFormat`), each report in queue order (its
/// file name) with the name recorded in `legacy_items`; the files are removed after the commit. A report whose
/// name is recorded is never moved again, so a crash between the commit and the removal delivers nothing twice.
enum LegacyFormat {
    static let schema = [
        "CREATE TABLE IF NOT EXISTS legacy_items (name TEXT PRIMARY KEY) WITHOUT ROWID",
    ]
    static let folder = "outbox", itemSuffix = ".item", identityFile = "identity.json", deviceIDFile = "device_id"
    /// 0.1.0 never wrote a record this large.
    static let maximumRecordBytes = 4 << 20

    struct Moved {
        var found = false
        var carried = 0
        var lost = 0
    }

    /// Moves format 1's reports, identities and device id into the database (inside the caller's transaction).
    static func moveIn(from directory: StorageDirectory, session: Database.Session) throws(EngineFailure) -> Moved {
        var moved = Moved()
        if let folder = try? directory.subdirectory(Self.folder, create: false) {
            moved.found = true
            let names = folder.files().map(\.name).filter { $0.hasSuffix(itemSuffix) }.sorted()
            for file in names {
                let name = String(file.dropLast(itemSuffix.count))
                guard try !isRecorded(name, session) else { continue }
                try session.run("INSERT INTO legacy_items (name) VALUES (?)", [.text(name)])
                guard let bytes = folder.contents(of: file, limit: maximumRecordBytes), let item = decode(bytes) else {
                    moved.lost += 1
                    continue
                }
                try session.run("INSERT INTO outbox (kind, body, identity, host, created_ms, privacy) VALUES (?, ?, ?, ?, ?, '')",
                                item)
                moved.carried += 1
            }
        }
        if let bytes = directory.contents(of: identityFile, limit: 1 << 20) {
            moved.found = true
            try moveIdentities(bytes, session)
        }
        if let bytes = directory.contents(of: deviceIDFile, limit: 256), let id = String(validating: bytes, as: UTF8.self),
           !id.isEmpty, id.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }) {
            moved.found = true
            try session.run("INSERT OR IGNORE INTO settings (key, value) VALUES ('device_id', ?)", [.text(id)])
        }
        return moved
    }

    /// Removes the files whose contents are in the database now: recorded reports, the identities, the device id.
    static func removeMoved(from directory: StorageDirectory, database: Database) {
        if let folder = try? directory.subdirectory(Self.folder, create: false) {
            for file in folder.files() {
                let name = file.name.hasSuffix(itemSuffix) ? String(file.name.dropLast(itemSuffix.count)) : nil
                // A `.tmp` file is a write that never completed: its call never returned, nothing was promised.
                if let name, (try? database.withConnection { session throws(EngineFailure) in try isRecorded(name, session) }) != true {
                    continue
                }
                folder.remove(file.name)
            }
            if folder.files().isEmpty { directory.removeDirectory(Self.folder) }
        }
        // Every start passes here: with neither file present (all but a migrating start) the database is not asked.
        guard directory.kind(of: identityFile) != .absent || directory.kind(of: deviceIDFile) != .absent else { return }
        let settled = (try? database.withConnection { session throws(EngineFailure) -> Bool in
            var found = false
            try session.run("SELECT 1 FROM settings WHERE key = 'device_id'") { _ throws(EngineFailure) in found = true }
            return found
        }) ?? false
        if settled {
            directory.remove(identityFile)
            directory.remove(deviceIDFile)
        }
    }

    private static func isRecorded(_ name: String, _ session: Database.Session) throws(EngineFailure) -> Bool {
        var found = false
        try session.run("SELECT 1 FROM legacy_items WHERE name = ?", [.text(name)]) { _ throws(EngineFailure) in found = true }
        return found
    }

    /// A record's outbox row values (kind, body, identity, host, created_ms), or nil for a torn or damaged record or
    /// one that is not a report this library would send.
    static func decode(_ bytes: [UInt8]) -> [Database.Value]? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 3, header[0] == "BEOX1", let checksum = UInt32(header[1], radix: 16),
              let length = Int(header[2]) else { return nil }
        let payload = Array(bytes[(newline + 1)...])
        guard payload.count == length, CRC32.checksum(payload) == checksum,
              let object = (try? JSONParser.parse(payload))?.objectValue,
              case .number(let createdText)? = object["created_ms"], let created = Int64(createdText) else { return nil }
        let identity = object.present("identity")?.stringValue
        switch object["kind"]?.stringValue {
        case "beacon"?:
            guard let url = object["url"]?.stringValue, SQLiteOutboxStorage.item(
                id: 1, kind: SQLiteOutboxStorage.beaconKind, body: url, identity: nil, identityIsNull: true, created: created) != nil else { return nil }
            return [.integer(SQLiteOutboxStorage.beaconKind), .text(url), .null, .text(BeaconURL.host(of: url)), .integer(created)]
        case "event"?:
            guard let json = object["event_json"]?.stringValue, SQLiteOutboxStorage.item(
                id: 1, kind: SQLiteOutboxStorage.eventKind, body: json, identity: identity, identityIsNull: identity == nil,
                created: created) != nil else { return nil }
            return [.integer(SQLiteOutboxStorage.eventKind), .text(json), identity.map(Database.Value.text) ?? .null, .text(""), .integer(created)]
        default:
            return nil
        }
    }

    /// `identity.json`: `{"current": ..., "registrations": {"<pub_user_id>": {"user_id", "token"}}}`; what is
    /// damaged or untrustworthy in it is left out, and a current identity already stored stays.
    private static func moveIdentities(_ bytes: [UInt8], _ session: Database.Session) throws(EngineFailure) {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return }
        if let current = object.present("current")?.stringValue, IdentityStore.isAcceptable(current) {
            try session.run("INSERT OR IGNORE INTO settings (key, value) VALUES ('current_identity', ?)", [.text(current)])
        }
        for member in object.present("registrations")?.objectValue?.members ?? [] {
            guard IdentityStore.isAcceptable(member.key), let entry = member.value.objectValue,
                  let userID = entry.present("user_id")?.stringValue, !userID.isEmpty,
                  let token = entry.present("token")?.stringValue, EngageRequests.isBearerToken(token) else { continue }
            try session.run("INSERT OR IGNORE INTO registrations (pub_user_id, user_id, token) VALUES (?, ?, ?)",
                            [.text(member.key), .text(userID), .text(token)])
        }
    }
}
