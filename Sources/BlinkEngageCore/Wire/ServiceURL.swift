/// Validation of the base URLs a host configures: absolute http(s) with a host, nothing the library would
/// have to guess about when it appends paths and queries. Read with libcurl's parser (`URLParts`).
public enum ServiceURL {
    /// Checks a base URL and returns it without a trailing slash.
    public static func validatedBase(_ text: String) throws(EngineFailure) -> String {
        // The base every request is built on: a plain http(s) URL without query or fragment (what hosts configure)
        // needs no libcurl parse, which would cost more than the rest of building the request.
        if URLParts.isPlainHTTP(text), !text.utf8.contains(UInt8(ascii: "?")), !text.utf8.contains(UInt8(ascii: "#")) {
            return withoutTrailingSlashes(text)
        }
        guard !ASCII.hasSpaceOrControl(text), let url = URLParts(text) else {
            throw .invalidArgument("\"\(SafeText.clean(text))\" is not a URL")
        }
        guard url.scheme == "http" || url.scheme == "https" else {
            throw .invalidArgument("only http and https URLs are allowed, not \(SafeText.clean(url.scheme))")
        }
        guard url.query == nil, url.fragment == nil, !text.contains("?"), !text.contains("#") else {
            throw .invalidArgument("a base URL cannot carry a query or fragment: \"\(SafeText.clean(text))\"")
        }
        return withoutTrailingSlashes(text)
    }

    private static func withoutTrailingSlashes(_ text: String) -> String {
        var base = text
        while base.utf8.last == UInt8(ascii: "/") { base.removeLast() }
        return base
    }

    /// Checks an absolute http(s) URL handed out by a server (beacons, click URLs, zone ad links): one WHATWG's
    /// URL standard reads as http(s), within the limits of `WebURL` (no control, no space, no ambiguous authority).
    public static func isAbsoluteHTTP(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isAbsoluteHTTP(UnsafeRawBufferPointer($0)) }
    }

    /// `isAbsoluteHTTP` of UTF-8 bytes read straight from an answer: the plain URLs services send need no more
    /// than the block check.
    public static func isAbsoluteHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        return URLParts.isPlainHTTP(bytes) || WebURL.isOpenableHTTP(bytes)
    }
}
