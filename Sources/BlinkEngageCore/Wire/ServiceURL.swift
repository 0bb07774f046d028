/// The URLs of the services and of their answers: base URLs a host configures, and the absolute http(s) URLs a
/// server hands out (beacons, click URLs, images, zone ad links), read as browsers read them.
public enum ServiceURL {
    /// Checks a base URL and returns it without a trailing slash: absolute http(s) with a host, nothing the library
    /// would have to guess about when it appends paths and queries. Read with libcurl's parser (`URLParts`), which
    /// is the one that then requests it.
    public static func validatedBase(_ text: String) throws(EngineFailure) -> String {
        // The base every request is built on: a canonical http(s) URL without query or fragment (what hosts
        // configure) needs no libcurl parse, which would cost more than the rest of building the request.
        if !text.utf8.contains(UInt8(ascii: "?")), !text.utf8.contains(UInt8(ascii: "#")),
           URLParts.isCanonicalHTTP(text) || URLParts.isCanonicalHTTP(text + "/") {
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

    /// How an absolute http(s) URL read straight from an answer reads (`WebURL`): as given, the common case, which
    /// costs one scan of its bytes; as the `href` a browser would open; or refused.
    static func read(_ bytes: UnsafeRawBufferPointer) -> WebURL.Reading {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        return URLParts.isCanonicalHTTP(bytes) ? .asGiven : WebURL.read(bytes)
    }

    /// The `href` of an absolute http(s) URL from a server, as a browser would open it; nil when it is refused.
    public static func href(_ text: String) -> String? {
        var text = text
        switch text.withUTF8({ read(UnsafeRawBufferPointer($0)) }) {
        case .asGiven: return text
        case .rewritten(let href): return href
        case .refused: return nil
        }
    }

    /// Whether `href(text)` is not nil.
    public static func isAbsoluteHTTP(_ text: String) -> Bool { href(text) != nil }

    /// The `href` of a URL the library requests itself (a beacon, an image), when libcurl reads it too: browsers
    /// accept hosts libcurl refuses (`http://a,b/`), which could never be requested. A canonical URL, nearly every
    /// one, needs no libcurl parse: the fast path accepts only what libcurl reads.
    static func requestableHref(_ text: String) -> String? {
        var text = text
        if text.withUTF8(URLParts.isCanonicalHTTP) { return text }
        guard let href = href(text), URLParts.libcurlReadsAsHTTP(href) else { return nil }
        return href
    }
}
