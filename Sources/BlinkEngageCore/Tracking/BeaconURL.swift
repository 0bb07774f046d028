/// Beacon URLs are sent exactly as given, except for the cache-buster macro (docs/PROTOCOL.md section 3).
enum BeaconURL {
    /// Replaces `{cbuster}` and `%7Bcbuster%7D` (any case) with a fresh random decimal number.
    static func bustingCache(_ url: String, random: () -> UInt64 = { UInt64.random(in: 1...UInt64(1) << 53) }) -> String {
        var output = ""
        var rest = Substring(url)
        while !rest.isEmpty {
            if let length = macroLength(at: rest) {
                output += String(random())
                rest = rest.dropFirst(length)
            } else {
                output.append(rest.removeFirst())
            }
        }
        return output
    }

    private static func macroLength(at text: Substring) -> Int? {
        let lower = text.prefix(15).lowercased()
        if lower.hasPrefix("{cbuster}") { return 9 }
        if lower.hasPrefix("%7bcbuster%7d") { return 13 }
        return nil
    }

    /// `scheme://host[:port]` of an http(s) URL (the authority as `host(of:)` reads it), or nil without a host: the
    /// connection a request to it can share.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(ofText: "://") else { return nil }
        let host = host(of: url)
        return host.isEmpty ? nil : url[..<schemeEnd.lowerBound].lowercased() + "://" + host
    }

    /// The destination host (with port) that beacons are serialised by; "" when the URL has none.
    static func host(of url: String) -> String {
        guard let schemeEnd = url.firstRange(ofText: "://") else { return "" }
        let afterScheme = url[schemeEnd.upperBound...]
        let authority = afterScheme.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        let hostPart = authority.split(separator: "@").last.map(String.init) ?? ""
        return hostPart.lowercased()
    }
}
