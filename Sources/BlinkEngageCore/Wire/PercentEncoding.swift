/// Percent-encoding of query values and path segments: everything but RFC 3986's unreserved characters.
///
/// Built as bytes and made a String once: a Moments request is built on the host's thread at every fetch.
enum PercentEncoding {
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `base?key=value&...` with every value encoded; nil values are left out.
    static func url(_ base: String, query: [(String, String?)]) -> String {
        var output = Array(base.utf8)
        output.reserveCapacity(output.count + query.reduce(0) { $0 + $1.0.utf8.count + ($1.1?.utf8.count ?? 0) * 3 + 2 })
        var separator = UInt8(ascii: "?")
        for (key, value) in query {
            guard let value else { continue }
            output.append(separator)
            output.append(contentsOf: key.utf8)
            output.append(UInt8(ascii: "="))
            append(value, to: &output)
            separator = UInt8(ascii: "&")
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func append(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) { output.append(byte) } else { appendEscape(byte, to: &output) }
        }
    }

    /// `%XX`, upper-case hex, as RFC 3986 and WHATWG's serialiser write it.
    static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        output.append(UInt8(ascii: "%"))
        output.append(hex.utf8Start[Int(byte >> 4)])
        output.append(hex.utf8Start[Int(byte & 0x0F)])
    }

    /// RFC 3986 `unreserved`: letters, digits and `-._~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }
}
