internal import CCurl
internal import CJSONScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The parts of an absolute URL as libcurl's own URL parser reads them: the parser the transport then hands the
/// URL to, so what is validated is what is requested. No libcurl type leaves this file.
struct URLParts: Sendable, Equatable {
    /// Lower-cased.
    let scheme: String
    let host: String
    let query: String?
    let fragment: String?

    /// nil when libcurl does not read `text` as an absolute URL with a scheme and a host (spaces, control
    /// characters and malformed ports included).
    init?(_ text: String) {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        // Unknown schemes are parsed too (CURLU_NON_SUPPORT_SCHEME), so callers can name the one they refuse.
        guard curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST), !host.isEmpty else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host
        query = part(CURLUPART_QUERY)
        fragment = part(CURLUPART_FRAGMENT)
    }

    /// Whether `text` is an absolute http(s) URL that is its own WHATWG `href` (`be_url_is_canonical_http` in
    /// CJSONScan/url.h gives the rules): lower-case scheme and host, a path, nothing the serialiser would encode or
    /// resolve. A strict subset of what libcurl reads as an absolute http(s) URL; the `url` fuzz target holds it
    /// to libcurl and to `WebURL`.
    static func isCanonicalHTTP(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isCanonicalHTTP)
    }

    static func isCanonicalHTTP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // In C (CJSONScan/url.h, compiled once in scans.c): 16-byte blocks over the host, the path and the query.
        guard let base = bytes.baseAddress else { return false }
        return be_url_canonical_http(base, bytes.count) != 0
    }

    /// Whether libcurl reads `text` as an absolute http(s) URL with a host; asks libcurl for the two parts it
    /// needs and makes no Swift string of them.
    static func libcurlReadsAsHTTP(_ text: String) -> Bool {
        guard let handle = curl_url() else { return false }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else { return false }
        var scheme: UnsafeMutablePointer<CChar>?, host: UnsafeMutablePointer<CChar>?
        defer { curl_free(scheme); curl_free(host) }
        guard curl_url_get(handle, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK, let scheme,
              curl_url_get(handle, CURLUPART_HOST, &host, 0) == CURLUE_OK, let host, host.pointee != 0 else { return false }
        return strcasecmp(scheme, "http") == 0 || strcasecmp(scheme, "https") == 0
    }
}
