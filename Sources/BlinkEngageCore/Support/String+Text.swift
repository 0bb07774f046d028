#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few text helpers the engine needs, on the standard library alone (no Foundation, and not the
/// string-processing module, which the library leaves out).
extension String {
    /// Without surrounding ASCII whitespace (space, tab, line breaks, vertical tab, form feed): what header
    /// lines and zone ad lines are padded with. Byte by byte, without Unicode's character tables.
    var trimmed: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !ASCII.isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !ASCII.isWhitespace($0) }) else { return "" }
        return String(Substring(bytes[first...last]))
    }

    /// The first occurrence of `needle`, compared byte for byte in UTF-8; nil when absent or `needle` is empty.
    func firstRange(ofText needle: String) -> Range<String.Index>? {
        let haystack = utf8, target = Array(needle.utf8)
        guard !target.isEmpty else { return nil }
        var start = haystack.startIndex
        while start != haystack.endIndex {
            var candidate = start, matched = 0
            while matched < target.count, candidate != haystack.endIndex, haystack[candidate] == target[matched] {
                candidate = haystack.index(after: candidate)
                matched += 1
            }
            if matched == target.count { return start..<candidate }
            start = haystack.index(after: start)
        }
        return nil
    }

    func containsText(_ needle: String) -> Bool { firstRange(ofText: needle) != nil }

    /// Whether `other` is the same UTF-8, byte for byte (`==` compares as Unicode does: another normalization
    /// form of the same text is equal there). One `memcmp` over the contiguous UTF-8 native strings have.
    func hasSameUTF8(as other: String) -> Bool {
        var lhs = self, rhs = other
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    /// Every occurrence of `target` replaced by `replacement`.
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var output = ""
        var rest = self[...]
        while let range = String(rest).firstRange(ofText: target) {
            let restString = String(rest)
            output += restString[..<range.lowerBound]
            output += replacement
            rest = restString[range.upperBound...]
        }
        return output + rest
    }
}
