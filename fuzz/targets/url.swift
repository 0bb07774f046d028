// URL reading and {cbuster} substitution: an href handed out can be sent as is (no space, control, backslash or
// non-ASCII byte), starts with http(s):// and reads as itself; one the library requests is libcurl's too;
// substitution leaves no macro behind; the canonical fast path accepts nothing libcurl would refuse and nothing the
// parser would write differently.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let base = try? ServiceURL.validatedBase(text) { precondition(!base.hasSuffix("/")) }
    let busted = BeaconURL.bustingCache(text, random: { 7 })
    precondition(!busted.lowercased().contains("{cbuster}"))
    _ = BeaconURL.host(of: text)
    let raw = UnsafeBufferPointer(start: data, count: size)
    if URLParts.isCanonicalHTTP(raw) {
        precondition(WebURL.href(raw).map { $0.elementsEqual(raw) } == true, "canonical but rewritten: \(text)")
        precondition(URLParts.libcurlReadsAsHTTP(text), "canonical but not for libcurl: \(text)")
    }
    _ = WebURL.href(raw)  // any bytes, not only UTF-8
    if let href = ServiceURL.href(text) {
        precondition(!href.utf8.contains { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }, "unsendable href: \(href)")
        precondition(href.hasPrefix("http://") || href.hasPrefix("https://"))
        precondition(ServiceURL.href(href) == href, "an href that reads as another: \(href)")
        if let requested = ServiceURL.requestableHref(text) {
            precondition(requested == href && URLParts.libcurlReadsAsHTTP(requested), "requested as read: \(text)")
        }
        _ = try? HTTPRequestRules.check(HTTPRequest(method: .get, url: BeaconURL.bustingCache(href), timeoutMilliseconds: 1))
    }
    return 0
}
