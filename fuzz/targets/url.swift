// URL validation and {cbuster} substitution: a URL that passes can be sent as is (no space, CR/LF or NUL) and
// starts with http(s)://, substitution leaves no macro behind, the plain-URL fast path accepts nothing libcurl
// would refuse nor anything the full (WHATWG) check would, and punycode decoding never traps.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let base = try? ServiceURL.validatedBase(text) { precondition(!base.hasSuffix("/")) }
    let busted = BeaconURL.bustingCache(text, random: { 7 })
    precondition(!busted.lowercased().contains("{cbuster}"))
    _ = BeaconURL.host(of: text)
    // The plain-URL fast path is a subset of libcurl's reading: never an http(s) URL libcurl would not see.
    if URLParts.isPlainHTTP(text) {
        precondition(URLParts.libcurlReadsAsHTTP(text), "plain but not for libcurl: \(text)")
        let parts = URLParts(text)
        precondition(parts?.scheme == "http" || parts?.scheme == "https")
    }
    var utf8 = text
    if URLParts.isPlainHTTP(text) { precondition(utf8.withUTF8 { WebURL.isOpenableHTTP($0) }, "plain but not WHATWG: \(text)") }
    _ = Array(text.utf8).withUnsafeBufferPointer { Punycode.decode($0) }
    if ServiceURL.isAbsoluteHTTP(text) {
        precondition(!text.utf8.contains { $0 <= 0x20 || $0 == 0x7F })
        precondition(text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://"))
        _ = try? HTTPRequestRules.check(HTTPRequest(method: .get, url: BeaconURL.bustingCache(text), timeoutMilliseconds: 1))
    }
    return 0
}
