internal import CCurl
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

    /// Whether `text` is an absolute http(s) URL with a host: the check every URL of an answer gets. Plain
    /// URLs (the ones services send) are recognised by `isPlainHTTP` without a parse; anything else is left to
    /// libcurl's parser, the one the transport uses.
    static func isAbsoluteHTTP(_ text: String) -> Bool {
        isPlainHTTP(text) || libcurlReadsAsHTTP(text)
    }

    /// A strict subset of what libcurl reads as an absolute http(s) URL: a lower-case `http://` or `https://`,
    /// a host of letters, digits, dots and hyphens (labels not empty, starting with a letter or digit), an
    /// optional port 1...65535, and a path, query and fragment of printable ASCII only (no space). The `url` fuzz
    /// target holds it to libcurl: whatever it accepts, libcurl accepts with an http(s) scheme and a host.
    static func isPlainHTTP(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isPlainHTTP)
    }

    static func isPlainHTTP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index: Int
        // "http://" or "https://", byte by byte (a generic `starts(with:)` costs more than the rest of the check).
        guard bytes.count > 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"), bytes[2] == UInt8(ascii: "t"),
              bytes[3] == UInt8(ascii: "p") else { return false }
        index = bytes[4] == UInt8(ascii: "s") ? 5 : 4
        guard bytes.count > index + 3, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
              bytes[index + 2] == UInt8(ascii: "/") else { return false }
        index += 3
        // The host: labels of letters, digits and hyphens, each starting with a letter or digit.
        let hostStart = index
        var labelStart = true
        scan: while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break scan
            case UInt8(ascii: "."):
                guard !labelStart else { return false }
                labelStart = true
            case UInt8(ascii: "-"):
                guard !labelStart else { return false }
            default:
                guard ASCII.isAlphanumeric(byte) else { return false }
                labelStart = false
            }
            index += 1
        }
        guard index > hostStart, index - hostStart <= 253, !labelStart else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            var port = 0, digits = 0
            while index < bytes.count, ASCII.isDigit(bytes[index]) {
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 5 else { return false }
                index += 1
            }
            guard digits > 0, (1...65535).contains(port) else { return false }
        }
        guard index < bytes.count else { return true }
        let next = bytes[index]
        guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else { return false }
        // The path, query and fragment: eight bytes at a time while all are printable ASCII, then byte by byte.
        if let base = bytes.baseAddress {
            while bytes.count - index >= 8 {
                guard !hasNonURLByte(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) else { return false }
                index += 8
            }
        }
        while index < bytes.count {
            guard isURLByte(bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    /// Whether any of the eight bytes of `word` is below 0x21 or above 0x7E (SWAR "has less" and "has more":
    /// exact as a yes or no, whatever the byte order).
    @inline(__always)
    static func hasNonURLByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x21) & ~word & highs
        let above = ((word &+ ones &* (127 - 0x7E)) | word) & highs
        return (below | above) != 0
    }

    /// A byte libcurl takes as it is in a path, query or fragment: printable ASCII but the space (measured on
    /// every byte from 0x21 to 0x7E, and the `url` fuzz target keeps checking). Services send `{cbuster}`-style
    /// macros in beacons, and a narrower set would send each of those to the slower libcurl parse.
    @inline(__always) static func isURLByte(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

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
