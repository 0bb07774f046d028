/// A strict JSON parser over UTF-8 bytes (RFC 8259) into a tree of values: one pass, bounded nesting, invalid
/// UTF-8 refused. Used for the small texts the engine reads whole (error bodies, stored settings, tests); answers
/// full of offers are read through `JSONTape`, which builds nothing it is not asked for.
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

    private var lexer: JSONLexer

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, Failure> in
            var parser = JSONParser(lexer: JSONLexer(buffer))
            return Result { () throws(Failure) in
                parser.lexer.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.lexer.skipWhitespace()
                guard parser.lexer.atEnd else { throw parser.lexer.failure("unexpected data after the value") }
                return value
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(Failure) -> JSONValue { try parse(Array(text.utf8)) }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw lexer.failure("nested deeper than \(Self.maximumDepth)") }
        guard !lexer.atEnd else { throw lexer.failure("unexpected end") }
        switch lexer.bytes[lexer.index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try lexer.expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try lexer.expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try lexer.expectLiteral("null"); return .null
        default: return .number(String(decoding: lexer.bytes[try lexer.scanNumber()], as: UTF8.self))
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        let start = lexer.index
        lexer.index += 1
        var members: [(key: String, value: JSONValue)] = []
        if try lexer.nextByte("in an object") == UInt8(ascii: "}") {
            lexer.index += 1
            return .object(JSONObject(members, sourceRange: start..<lexer.index))
        }
        while true {
            guard try lexer.nextByte("in an object") == UInt8(ascii: "\"") else { throw lexer.failure("expected a key") }
            let key = try parseString()
            guard try lexer.nextByte("in an object") == UInt8(ascii: ":") else { throw lexer.failure("expected ':'") }
            lexer.index += 1
            lexer.skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            switch try lexer.nextByte("in an object") {
            case UInt8(ascii: ","): lexer.index += 1
            case UInt8(ascii: "}"):
                lexer.index += 1
                return .object(JSONObject(members, sourceRange: start..<lexer.index))
            default: throw lexer.failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        lexer.index += 1
        var elements: [JSONValue] = []
        if try lexer.nextByte("in an array") == UInt8(ascii: "]") { lexer.index += 1; return .array(elements) }
        while true {
            lexer.skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            switch try lexer.nextByte("in an array") {
            case UInt8(ascii: ","): lexer.index += 1
            case UInt8(ascii: "]"): lexer.index += 1; return .array(elements)
            default: throw lexer.failure("expected ',' or ']'")
            }
        }
    }

    /// Scanned and validated once by the lexer, then made into a String in one copy (unescaped first if needed).
    private mutating func parseString() throws(Failure) -> String {
        let (body, escaped) = try lexer.scanString()
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[body]), as: UTF8.self) }
        return JSONLexer.withUnescaped(lexer.bytes, body) { String(decoding: $0, as: UTF8.self) }
    }
}
