/// Byte classes of the ASCII-only formats the engine checks (tokens, base64url, query text, numbers), in one
/// place instead of a range list in each checker.
enum ASCII {
    // Each range is one comparison: below its start, the wrapping difference is large.
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Lower case first: what hosts and keys are mostly made of.
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "A") < 26
    }

    /// Space, tab, line feed, vertical tab, form feed or carriage return: what header and zone ad lines are
    /// padded with (ASCII only, without Unicode's character tables).
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Only digits, and at least one.
    static func isDigits(_ text: some StringProtocol) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isDigit) }

    /// Whether two texts are equal once ASCII letters are folded to lower case; other bytes compare as they are.
    static func equalIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { lower($0) == lower($1) }
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte }

    /// A space, a control character or DEL: never part of a URL the engine accepts or sends.
    static func isSpaceOrControl(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }

    /// `isSpaceOrControl` anywhere in `text`.
    static func hasSpaceOrControl(_ text: String) -> Bool {
        // Over the contiguous UTF-8 a native String has: a plain loop, where the generic `contains` with a closure
        // cost about 20 instructions a byte (every request's URL is checked).
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(where: isSpaceOrControl) }
            ?? text.utf8.contains(where: isSpaceOrControl)
    }
}
