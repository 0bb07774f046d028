/// Percent-encoding of query values and path segments: everything but RFC 3986's unreserved characters.
enum PercentEncoding {
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }

    /// `base?key=value&...` with every value encoded; nil values are left out.
    static func url(_ base: String, query: [(String, String?)]) -> String {
        let pairs = query.compactMap { key, value in value.map { "\(key)=\(encode($0))" } }
        return pairs.isEmpty ? base : base + "?" + pairs.joined(separator: "&")
    }
}
