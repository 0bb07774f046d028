@testable import BlinkEngageCore
import Testing

struct JSONParserTests {
    @Test func keepsNumberSpellingAndKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1.0, "a": 1e2, "c": -0.5, "big": 123456789012345678901234567890}"#)
        #expect(value.jsonText == #"{"b":1.0,"a":1e2,"c":-0.5,"big":123456789012345678901234567890}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["a\"b\\c\/d\n", "\u00e9\ud83d\ude00"]"#)
        #expect(value == .array([.string("a\"b\\c/d\n"), .string("é😀")]))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "-", "\"\\x\"", "\"\\ud800\"", "[1] 2", "{\"a\":1,}", "\"a\nb\"",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test func refusesInvalidUTF8InStrings() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func boundsNestingDepth() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        _ = try JSONParser.parse(fine)
    }

    @Test func lastDuplicateKeyWinsAndNullIsAbsent() throws {
        let object = try #require(try JSONParser.parse(#"{"a": 1, "a": 2, "n": null}"#).objectValue)
        #expect(object["a"] == .number("2"))
        #expect(object.present("n") == nil)
        #expect(object["n"] == .null)
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape, a control character or a non-ASCII letter
    /// at any position of a word, or in the tail shorter than a word, is still seen.
    @Test(arguments: 0..<19)
    func everyPositionInAStringIsLookedAt(position: Int) throws {
        func text(_ special: String) -> String {
            String(repeating: "a", count: position) + special + String(repeating: "b", count: 18 - position)
        }
        #expect(try JSONParser.parse(Array("[\"\(text("é"))\"]".utf8)) == .array([.string(text("é"))]))
        #expect(try JSONParser.parse(Array("[\"\(text("\\n"))\"]".utf8)) == .array([.string(text("\n"))]))
        #expect(try JSONParser.parse(Array("[\"\(text("\\\""))\"]".utf8)) == .array([.string(text("\""))]))
        // A quote ends the string there: what follows is not JSON.
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array("[\"\(text("\""))\"]".utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array("[\"\(text("\u{01}"))\"]".utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([UInt8]("[\"\(text(""))".utf8) + [0xC3, 0x28, 0x22, 0x5D]) }
    }
}
