/// What HTTP caching says about one image answer, without I/O: whether it may be stored, until when it is
/// fresh, and how to revalidate it. Times are wall-clock seconds since 1970 (entries outlive the process).
///
/// The rules (RFC 9111, the parts an image cache needs):
/// - `Cache-Control: no-store` keeps the answer out of both caches.
/// - `max-age=N` makes it fresh for N seconds (capped at a year); without it, `Expires` minus `Date` (or minus
///   now) does; `no-cache`, or neither header, makes it stale at once: it is stored, but every use revalidates.
/// - A stale entry with an `ETag` or a `Last-Modified` is revalidated with `If-None-Match` /
///   `If-Modified-Since`; a 304 refreshes it without a body. A stale entry without either is fetched anew.
/// - An entry stored "in the future" (the clock went back) is stale.
struct ImageCachePolicy: Equatable, Sendable {
    static let maximumLifetimeSeconds: Int64 = 365 * 86_400

    var noStore = false
    var noCache = false
    var maxAge: Int64?

    init(cacheControl: String?) {
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { String($0).trimmed.lowercased() }
            switch parts.first {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age" where parts.count == 2: maxAge = Self.seconds(parts[1])
            default: continue
            }
        }
    }

    /// The delta-seconds of `max-age`: digits only (quotes tolerated), any length, capped; nil when not a number.
    static func seconds(_ text: String) -> Int64? {
        let digits = text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text
        guard ASCII.isDigits(digits) else { return nil }
        var value: Int64 = 0
        for digit in digits.utf8 {
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            if value >= maximumLifetimeSeconds { return maximumLifetimeSeconds }
        }
        return value
    }

    /// Until when an answer with these (lower-cased) headers, received at `now`, is fresh. `now` when stale at once.
    static func freshUntil(headers: [String: String], now: Int64) -> Int64 {
        let policy = ImageCachePolicy(cacheControl: headers["cache-control"])
        if policy.noCache { return now }
        let lifetime: Int64
        if let maxAge = policy.maxAge {
            lifetime = maxAge
        } else if let expires = headers["expires"].flatMap({ HTTPDate.parse($0, now: now) }) {
            // Measured against the server's own Date when it sent one, so a skewed client clock does not matter.
            let served = headers["date"].flatMap({ HTTPDate.parse($0, now: now) }) ?? now
            lifetime = min(max(expires - served, 0), maximumLifetimeSeconds)  // both dates are years 1970...9999
        } else {
            lifetime = 0
        }
        let (until, overflow) = now.addingReportingOverflow(lifetime)
        return overflow ? now : until
    }

    static func isFresh(storedAt: Int64, freshUntil: Int64, now: Int64) -> Bool {
        storedAt <= now && now < freshUntil
    }

    /// The conditional headers that revalidate an entry with these validators; [] when it has none.
    static func validationHeaders(etag: String?, lastModified: String?) -> [(name: String, value: String)] {
        if let etag, !etag.isEmpty { return [("If-None-Match", etag)] }
        if let lastModified, !lastModified.isEmpty { return [("If-Modified-Since", lastModified)] }
        return []
    }

    /// Whether a `Content-Type` names an image: `image/<subtype>`, parameters allowed.
    static func isImage(contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first.map({ String($0).trimmed.lowercased() }) else { return false }
        return type.hasPrefix("image/") && type.count > "image/".count
    }
}
