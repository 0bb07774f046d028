/// A strict JSON parser over UTF-8 bytes (RFC 8259): one pass, bounded nesting, invalid UTF-8 refused.
///
/// FoundationEssentials has no `JSONSerialization`, and `Codable` loses number spelling and key order, which
/// `be_offer_json` and the styles lookup must keep.
public struct JSONParser {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Nesting deeper than this is refused instead of recursing without bound.
    public static let maximumDepth = 128

    /// The text, valid only during `parse` (a buffer pointer: every byte read is a plain load).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, Failure> in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(Failure) in
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.failure("unexpected data after the value") }
                return value
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(Failure) -> JSONValue { try parse(Array(text.utf8)) }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth)") }
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: return .number(try parseNumber())
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unknown literal") }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        let start = index
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members, sourceRange: start..<index))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(members, sourceRange: start..<index))
            }
            throw failure("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw failure("expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        // Most strings have no escape: validated and made into a String straight from the answer's bytes, one
        // copy, no buffer in between.
        let start = index
        var ascii = true
        while index < bytes.count {
            // Eight bytes at a time while none of them is a quote, a backslash, a control character or non-ASCII.
            if bytes.count - index >= 8,
               !Self.needsALook(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                // ASCII needs no validation (and the decoding initializer is the fast, specialized one).
                guard let text = ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8")
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        index = start
        return try parseEscapedString()
    }

    /// Whether any of the eight bytes in `word` is `"`, `\`, below 0x20 or above 0x7F (SWAR: a byte equal to
    /// a value is a zero byte after XOR; a borrow can only add false alarms, which the byte loop then clears).
    @inline(__always)
    private static func needsALook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let quote = hasZero(word ^ (ones &* 0x22)), backslash = hasZero(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return (quote | backslash | control | (word & highs)) != 0
    }

    /// A string with escapes: unescaped run by run into a buffer, then validated once.
    private mutating func parseEscapedString() throws(Failure) -> String {
        var decoded: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                decoded.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &decoded)
                runStart = index
                continue
            }
            index += 1
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw failure("string is not valid UTF-8") }
        return text
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(Failure) {
        index += 1
        guard index < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): decoded.append(0x22)
        case UInt8(ascii: "\\"): decoded.append(0x5C)
        case UInt8(ascii: "/"): decoded.append(0x2F)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid code point") }
            decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("unknown escape")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
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

    private mutating func parseNumber() throws(Failure) -> String {
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
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
