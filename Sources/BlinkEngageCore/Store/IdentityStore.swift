#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The registered identities and the device id, in `blinkengage.db`, so that a returning user needs no new
/// registration. Each save is one transaction: a crash leaves the old state or the new one, never a mix.
final class IdentityStore: Sendable {
    /// The longest `pub_user_id` accepted (bytes of UTF-8); longer ones are refused by `be_sdk_set_user_identity`.
    static let maximumIdentityBytes = 4096

    struct Registration: Equatable, Sendable {
        var userID: String
        var token: String
    }

    struct Snapshot: Equatable, Sendable {
        /// The identity set by the host, nil after a log-out.
        var current: String?
        /// Identities registered on this device, so events reported under an earlier one still carry its token.
        var registrations: [String: Registration] = [:]
    }

    static let schema = [
        "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS registrations (pub_user_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, token TEXT NOT NULL)",
    ]

    private let database: Database?
    private let logger: Logger?

    init(database: Database?, logger: Logger? = nil) {
        self.database = database
        self.logger = logger
    }

    /// The stored current identity, when it is one this store would accept (a damaged row reads as none).
    static func currentIdentity(in session: Database.Session) throws(EngineFailure) -> String? {
        var current: String?
        try session.run("SELECT value FROM settings WHERE key = 'current_identity'") { row throws(EngineFailure) in
            current = row.text(0).flatMap { isAcceptable($0) ? $0 : nil }
        }
        return current
    }

    func load() -> Snapshot {
        guard let database else { return Snapshot() }
        var snapshot = Snapshot()
        do {
            try database.withConnection { session throws(EngineFailure) in
                snapshot.current = try Self.currentIdentity(in: session)
                try session.run("SELECT pub_user_id, user_id, token FROM registrations") { row throws(EngineFailure) in
                    guard let identity = row.text(0), Self.isAcceptable(identity), let userID = row.text(1), !userID.isEmpty,
                          let token = row.text(2), EngageRequests.isBearerToken(token) else { return }
                    snapshot.registrations[identity] = Registration(userID: userID, token: token)
                }
            }
        } catch {
            logger?.warning("could not read the stored identity: \(error.message)")
        }
        return snapshot
    }

    static func isAcceptable(_ identity: String) -> Bool { !identity.isEmpty && identity.utf8.count <= maximumIdentityBytes }

    /// Stores the current identity and the registrations still needed: the current one's and those of
    /// identities whose events wait in the outbox. Earlier ones are forgotten.
    func save(_ snapshot: Snapshot) {
        guard let database else { return }
        do {
            try database.withConnection { session throws(EngineFailure) in
                try session.transaction { () throws(EngineFailure) in
                    if let current = snapshot.current {
                        try session.run("INSERT OR REPLACE INTO settings (key, value) VALUES ('current_identity', ?)", [.text(current)])
                    } else {
                        try session.run("DELETE FROM settings WHERE key = 'current_identity'")
                    }
                    var needed = Set(snapshot.current.map { [$0] } ?? [])
                    try session.run("SELECT DISTINCT identity FROM outbox WHERE identity IS NOT NULL") { row throws(EngineFailure) in
                        if let identity = row.text(0) { needed.insert(identity) }
                    }
                    try session.run("DELETE FROM registrations")
                    for (identity, registration) in snapshot.registrations where needed.contains(identity) {
                        try session.run("INSERT INTO registrations (pub_user_id, user_id, token) VALUES (?, ?, ?)",
                                        [.text(identity), .text(registration.userID), .text(registration.token)])
                    }
                }
            }
        } catch {
            logger?.warning("could not store the identity: \(error.message)")
        }
    }

    /// A new random device id, replacing the stored one (erasure).
    func replaceDeviceID() -> String {
        let fresh = RandomID.make()
        try? database?.withConnection { session throws(EngineFailure) in
            try session.run("INSERT OR REPLACE INTO settings (key, value) VALUES ('device_id', ?)", [.text(fresh)])
        }
        return fresh
    }

    /// A random id made once per storage directory (once per process without one).
    func deviceID() -> String {
        let fresh = RandomID.make()
        guard let database else { return fresh }
        var id: String?
        try? database.withConnection { session throws(EngineFailure) in
            try session.run("INSERT OR IGNORE INTO settings (key, value) VALUES ('device_id', ?)", [.text(fresh)])
            try session.run("SELECT value FROM settings WHERE key = 'device_id'") { row throws(EngineFailure) in id = row.text(0) }
        }
        return id ?? fresh
    }
}
