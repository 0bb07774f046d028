internal import CJSONScan

/// The tokens of the tree parser, each checked as strictly as RFC 8259 asks: whitespace, literals, numbers,
/// string bodies (escapes and UTF-8 validated in place, nothing built) and escapes. `JSONParser` builds values
/// from them. `JSONTape`'s builder reads the same tokens by the same rules in C (CJSONScan/tape.h, the hot path
/// of every answer); the `json` fuzz target holds the two to the same verdicts, and `unescape` serves both.
struct JSONLexer {
    typealias Failure = JSONParser.Failure

    /// The text, valid only while the reader that owns this lexer runs (a buffer pointer: every byte read is a
    /// plain load).
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    var atEnd: Bool { index >= bytes.count }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            // Anything above the space is not whitespace: one comparison for the byte that ends nearly every skip.
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    /// Skips whitespace and answers the next byte, failing at the end of the text with `context`.
    @inline(__always)
    mutating func nextByte(_ context: StaticString) throws(Failure) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw endFailure(context) }
        return bytes[index]
    }

    @inline(never)
    private func endFailure(_ context: StaticString) -> Failure { failure("unexpected end \(context)") }

    mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end") }
        let expected = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw failure("unknown literal") }
        index += count
    }

    /// A number's bytes, as spelled: `-? int frac? exp?`.
    mutating func scanNumber() throws(Failure) -> Range<Int> {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("unexpected character") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("digit expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("digit expected in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return start..<index
    }

    /// A string literal's body, from its opening quote to just past its closing one: the bytes between the quotes,
    /// and whether any escape is among them. Escapes and UTF-8 are validated here, so the body can later be copied
    /// (or unescaped) without another check.
    @inline(__always)
    mutating func scanString() throws(Failure) -> (body: Range<Int>, escaped: Bool) {
        index += 1
        let start = index
        var escaped = false
        let count = bytes.count
        guard let base = bytes.baseAddress else { throw failure("unterminated string") }
        while index < count {
            // Sixteen bytes at a time while none of them is a quote, a backslash, a control character or non-ASCII
            // (SSE2, in C: Swift's SIMD types were measured here, and their reductions cost fifteen times more);
            // then eight at a time, where the lowest flagged byte of a word is the first one that needs a look, so
            // the scan jumps straight to it.
            index += be_json_plain_prefix(base + index, count - index)
            // The skip may end exactly at the end of the text (whole blocks, no quote): unterminated.
            guard index < count else { break }
            // Sixteen bytes or more left: the scan stopped at a byte that needs a look. Fewer: look eight at a time.
            if count - index < 16, count - index >= 8 {
                let flags = Self.specialBytes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
                if flags == 0 { index += 8; continue }
                index += flags.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return (start..<index - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                _ = try readEscape()
            case 0..<0x20:
                throw failure("control character in a string")
            case 0x80...:
                try skipMultibyte()
            default:
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    /// The high bit of each of the eight bytes of `word` (little-endian) that is `"`, `\`, below 0x20 or above
    /// 0x7F, and possibly of bytes above such a byte (SWAR: a byte equal to a value is a zero byte after XOR, and a
    /// subtraction's borrow only runs upward, so the lowest flag is always a true one).
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let quote = hasZero(word ^ (ones &* 0x22)), backslash = hasZero(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return quote | backslash | control | (word & highs)
    }

    /// Skips one UTF-8 sequence of two to four bytes at `index` (whose first byte is above 0x7F). Overlong forms,
    /// surrogates and code points above U+10FFFF are refused, as `String(validating:)` refuses them.
    private mutating func skipMultibyte() throws(Failure) {
        let count: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: throw failure("string is not valid UTF-8")
        }
        guard index + count <= bytes.count else { throw failure("unterminated string") }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { throw failure("string is not valid UTF-8") }
        for offset in 2..<max(2, count) where bytes[index + offset] & 0xC0 != 0x80 {
            throw failure("string is not valid UTF-8")
        }
        index += count
    }

    /// One escape at `index` (a backslash): the Unicode scalar it stands for. A surrogate must come as an escaped
    /// high and low pair.
    mutating func readEscape() throws(Failure) -> Unicode.Scalar {
        index += 1
        guard index < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate") }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid code point") }
            return unicode
        default:
            throw failure("unknown escape")
        }
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("bad hex digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The UTF-8 of a string body that `scanString` accepted, escapes resolved, passed to `body` as one buffer
    /// (on the stack when it is small: no allocation).
    static func withUnescaped<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                      _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // Resolving escapes never lengthens: "\uXXXX" (6 bytes) is at most 3 bytes of UTF-8, a pair (12) is 4.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(range.count, 1)) { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[..<unescape(bytes, range, into: buffer.baseAddress!)]))
        }
    }

    /// Writes the body at `range` (accepted by `scanString`) with its escapes resolved to `destination`, which
    /// has room for `range.count` bytes; returns how many it wrote. The tape's C code does it (`be_json_unescape`),
    /// for both readers. Not inlined: the C function is `static`, and each object file calling it would carry a copy.
    @inline(never)
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into destination: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress, !range.isEmpty else { return 0 }
        return be_json_unescape(base, range.lowerBound, range.upperBound, destination)
    }
}
