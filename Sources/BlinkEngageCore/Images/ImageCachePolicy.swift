/// What HTTP caching says about one image answer, without I/O: whether it may be stored, until when it is
/// fresh, and how to revalidate it. Times are wall-clock seconds since 1970 (entries outlive the process).
///
/// The rules: RFC 9111 for a private cache, the parts an image cache needs (ImageCacheRFCTests holds each to the
/// sandbox):
/// - `Cache-Control: no-store` keeps the answer out of both caches; `private` changes nothing (this is a private
///   cache) and `s-maxage` is ignored (it is for shared ones).
/// - The freshness lifetime is `max-age=N` (capped at a year), else `Expires` minus `Date` (minus now without a
///   `Date`), else 0; an `Expires` that is not an HTTP date means already expired. `no-cache` makes it 0: stored,
///   but every use revalidates.
/// - The age at arrival is the larger of `Age` and how long ago `Date` says the answer was made (0 for a `Date`
///   in the future, which a slow client clock gives); it is taken off the lifetime.
/// - Nothing stale is ever served (`must-revalidate` is what this cache always does): a stale entry with an
///   `ETag` or a `Last-Modified` is revalidated with `If-None-Match` / `If-Modified-Since`; a 304 refreshes it,
///   its own `Cache-Control` or `Expires` replacing the stored ones (without them the stored lifetime stays);
///   a stale entry without either validator is fetched anew.
/// - `Vary`: an entry is used only for a request whose headers named by the answer's `Vary` have the values the
///   stored request had; `Vary: *` never matches, so such an answer is not stored.
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
        guard let lifetime = lifetime(headers: headers, now: now) else { return now }
        return freshUntil(lifetime: lifetime, headers: headers, now: now)
    }

    /// The freshness lifetime the headers give, in seconds; nil when they give none (no `Cache-Control` lifetime
    /// and no `Expires`), 0 for `no-cache` or an invalid `Expires`.
    static func lifetime(headers: [String: String], now: Int64) -> Int64? {
        let policy = ImageCachePolicy(cacheControl: headers["cache-control"])
        if policy.noCache { return 0 }
        if let maxAge = policy.maxAge { return maxAge }
        guard let expiresText = headers["expires"] else { return nil }
        guard let expires = HTTPDate.parse(expiresText, now: now) else { return 0 }
        // Measured against the server's own Date when it sent one, so a skewed client clock does not matter.
        let served = headers["date"].flatMap({ HTTPDate.parse($0, now: now) }) ?? now
        return min(max(expires - served, 0), maximumLifetimeSeconds)  // both dates are years 1970...9999
    }

    /// `now` plus `lifetime` less the answer's age at arrival: the larger of `Age` and `now - Date`.
    static func freshUntil(lifetime: Int64, headers: [String: String], now: Int64) -> Int64 {
        let apparentAge = headers["date"].flatMap({ HTTPDate.parse($0, now: now) }).map { max(0, now - $0) } ?? 0
        let ageValue = headers["age"].flatMap({ seconds($0.trimmed) }) ?? 0
        let remaining = lifetime - min(max(apparentAge, ageValue), maximumLifetimeSeconds)
        guard remaining > 0 else { return now }
        let (until, overflow) = now.addingReportingOverflow(remaining)
        return overflow ? now : until
    }

    /// The field names a `Vary` lists, trimmed and lower-cased, in its order.
    private static func varyNames(_ vary: String?) -> [String] {
        (vary ?? "").split(separator: ",").map { String($0).trimmed.lowercased() }.filter { !$0.isEmpty }
    }

    /// Whether an answer with this `Vary` may be stored: `*` never matches a later request.
    static func isStorable(vary: String?) -> Bool { !varyNames(vary).contains("*") }

    /// The request headers an answer's `Vary` names and their values in `request`, as one string stored with the
    /// entry and compared at each use: the names lower-cased, in the answer's order, then an FNV-1a of the values
    /// (an absent header is an empty value). nil without a `Vary`.
    static func variant(vary: String?, request: [(name: String, value: String)]) -> String? {
        let names = varyNames(vary)
        guard !names.isEmpty else { return nil }
        var hash = FNV1a.offsetBasis
        for name in names {
            let value = request.first { $0.name.lowercased() == name }?.value ?? ""
            hash = FNV1a.hash(value.utf8, continuing: hash)
            hash = FNV1a.hash(CollectionOfOne(0), continuing: hash)
        }
        return names.joined(separator: ",") + "=" + String(hash, radix: 16)
    }

    /// Whether an entry stored with `variant` may answer `request`.
    static func matches(variant: String?, request: [(name: String, value: String)]) -> Bool {
        guard let variant else { return true }
        guard let names = variant.split(separator: "=", maxSplits: 1).first else { return false }
        return ImageCachePolicy.variant(vary: String(names), request: request) == variant
    }

    static func isFresh(storedAt: Int64, freshUntil: Int64, now: Int64) -> Bool {
        storedAt <= now && now < freshUntil
    }

    /// The conditional headers that revalidate an entry with these validators; [] when it has none.
    /// `value` when it can go back out as a header value (RFC 9110, 5.5: no control character but the tab, at most
    /// 8 KiB); nil otherwise. A server's `ETag` of `"a\rb"` would make every later request of the image fail.
    static func sendableValidator(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 8192,
              !value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        return value
    }

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
