/// The few text helpers FoundationEssentials does not give a plain `String`.
extension String {
    /// Without surrounding spaces, tabs and line breaks.
    var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }

    /// Every occurrence of `target` replaced by `replacement`.
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
