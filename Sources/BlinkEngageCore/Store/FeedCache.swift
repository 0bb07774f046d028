/// The last successful feed of each identity, as the service sent it, so a load that fails for a network
/// reason, a 5xx or a timeout can answer with it (`be_config_set_feed_cache`). One row per identity.
final class FeedCache: Sendable {
    static let schema = [
        "CREATE TABLE IF NOT EXISTS feed_cache (identity TEXT PRIMARY KEY, body TEXT NOT NULL, stored_ms INTEGER NOT NULL)",
    ]

    private let database: Database
    let maximumAgeSeconds: UInt32

    init(database: Database, maximumAgeSeconds: UInt32) {
        self.database = database
        self.maximumAgeSeconds = maximumAgeSeconds
    }

    func store(_ body: [UInt8], identity: String) {
        try? database.withConnection { session throws(EngineFailure) in
            try session.run("INSERT OR REPLACE INTO feed_cache (identity, body, stored_ms) VALUES (?, ?, ?)",
                            [.text(identity), .text(String(decoding: body, as: UTF8.self)), .integer(WallClock.milliseconds())])
        }
    }

    /// The stored answer for `identity` and its age in seconds, when it is younger than the maximum age. A row
    /// stored "in the future" (the clock went back) counts as just stored.
    func answer(for identity: String) -> (body: [UInt8], ageSeconds: UInt32)? {
        var found: (String, Int64)?
        try? database.withConnection { session throws(EngineFailure) in
            try session.run("SELECT body, stored_ms FROM feed_cache WHERE identity = ?", [.text(identity)]) { row throws(EngineFailure) in
                if let body = row.text(0) { found = (body, row.integer(1)) }
            }
        }
        guard let (body, stored) = found else { return nil }
        let (age, overflow) = WallClock.milliseconds().subtractingReportingOverflow(stored)
        let seconds = overflow ? UInt64.max : UInt64(max(age, 0) / 1000)
        guard seconds < UInt64(maximumAgeSeconds) else { return nil }
        return (Array(body.utf8), UInt32(seconds))
    }

    /// Forgets every stored feed: the feed was disabled, the identity changed or logged out, or the user asked.
    func deleteAll() {
        try? database.withConnection { session throws(EngineFailure) in try session.run("DELETE FROM feed_cache") }
    }
}
