import FoundationEssentials

/// Validation of the base URLs a host configures: absolute http(s) with a host, nothing the library would
/// have to guess about when it appends paths and queries.
public enum ServiceURL {
    /// Checks a base URL and returns it without a trailing slash.
    public static func validatedBase(_ text: String) throws(EngineFailure) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw .invalidArgument("\"\(text)\" is not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw .invalidArgument("only http and https URLs are allowed, not \(scheme)") }
        guard let host = url.host(), !host.isEmpty else { throw .invalidArgument("\"\(text)\" has no host") }
        guard url.query() == nil, url.fragment() == nil else {
            throw .invalidArgument("a base URL cannot carry a query or fragment: \"\(text)\"")
        }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Checks an absolute http(s) URL handed out by a server (beacons, zone ad links).
    public static func isAbsoluteHTTP(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(), !host.isEmpty else { return false }
        return true
    }
}
