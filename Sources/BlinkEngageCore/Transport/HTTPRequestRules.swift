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
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(isTokenByte) else {
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

    private static func hasScheme(_ url: String, _ scheme: String) -> Bool {
        let head = url.utf8.prefix(scheme.utf8.count)
        return head.count == scheme.utf8.count && zip(head, scheme.utf8).allSatisfy { lower($0) == $1 }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
