/// What a request must be before it leaves: an absolute http(s) URL and header lines that cannot be split.
///
/// Checked by the transport for every request, whoever supplied the parts (host strings, server tokens, the
/// configuration), so a CR/LF smuggled into any of them cannot add a header line or a request.
enum HTTPRequestRules {
    static func check(_ request: HTTPRequest) throws(TransportError) {
        guard isHTTP(request.url) else { throw .refused("the URL is not an absolute http(s) URL") }
        guard !ASCII.hasSpaceOrControl(request.url) else {
            throw .refused("the URL holds a space or a control character")
        }
        for header in request.headers {
            guard !header.name.isEmpty, !header.name.utf8.contains(where: { !isTokenByte($0) }) else {
                throw .refused("the header name \"\(SafeText.clean(header.name))\" is not an HTTP token")
            }
            guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw .refused("the value of header \(header.name) holds CR, LF or NUL")
            }
        }
    }

    /// What a redirect may switch to: never from https down to http, which would strip the first request's TLS.
    static func redirectProtocols(for url: String) -> String { isHTTPS(url) ? "https" : "http,https" }

    static func isHTTPS(_ url: String) -> Bool { hasScheme(url, "https://") }

    static func isHTTP(_ url: String) -> Bool { hasScheme(url, "http://") || hasScheme(url, "https://") }

    private static func hasScheme(_ url: String, _ scheme: StaticString) -> Bool {
        let utf8 = url.utf8
        guard utf8.count >= scheme.utf8CodeUnitCount else { return false }
        var index = utf8.startIndex
        for offset in 0..<scheme.utf8CodeUnitCount {
            guard ASCII.lower(utf8[index]) == scheme.utf8Start[offset] else { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// Why a header line a host transport answered with cannot be taken, or nil: it must be `name: value` with a
    /// token for a name and a value without control characters but the tab (RFC 9110, 5.5), so a CR or LF from the
    /// host can never add a field (an ETag with a CR/LF would go back out in the next If-None-Match).
    static func problem(ofResponseHeaderLine line: String) -> String? {
        let bytes = line.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "has no colon" }
        let name = bytes[..<colon]
        guard !name.isEmpty, !name.contains(where: { !isTokenByte($0) }) else { return "does not start with a token and a colon" }
        guard !bytes[bytes.index(after: colon)...].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            return "holds CR, LF or another control character"
        }
        return nil
    }

    /// RFC 9110 `tchar`: letters, digits and `!#$%&'*+-.^_`|~`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        if ASCII.isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
