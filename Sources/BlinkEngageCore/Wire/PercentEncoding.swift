/// Percent-encoding of query values and path segments: everything but RFC 3986's unreserved characters.
enum PercentEncoding {
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if ASCII.isAlphanumeric(byte) || "-._~".utf8.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
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
