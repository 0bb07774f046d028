@testable import BlinkEngageCore
import CJSONScan
import Foundation
import TestSupport
import Testing

/// The tape reader against the tree parser: the same strictness, the same values, and offers, creatives and
/// styles that answer as the tree-built ones answered, on every fixture and seed.
struct JSONTapeTests {
    /// Every JSON text the project keeps: the sandbox's answers and the fuzz seeds.
    static let corpus: [(name: String, bytes: [UInt8])] = {
        var texts: [(String, [UInt8])] = []
        for name in ["moments-offers.json", "offer-feed.json"] { texts.append((name, (try? Fixtures.bytes(name)) ?? [])) }
        for folder in ["json", "moments", "feed"] {
            let directory = ProjectPaths.root.appendingPathComponent("fuzz/corpus/\(folder)")
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() {
                texts.append(("\(folder)/\(name)", Array((try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data())))
            }
        }
        return texts
    }()

    func agree(_ bytes: [UInt8], _ name: String) {
        let tree = try? JSONParser.parse(bytes)
        let tape = try? JSONTape(parsing: bytes)
        #expect((tree == nil) == (tape == nil), "\(name): one reader accepts what the other refuses")
        guard let tree, let tape else { return }
        #expect(tape.value(0) == tree, "\(name)")
        var compact: [UInt8] = []
        tape.write(0, to: &compact)
        #expect(String(decoding: compact, as: UTF8.self) == tree.jsonText, "\(name)")
    }

    @Test func readsEveryFixtureAsTheTreeParserDoes() {
        #expect(Self.corpus.count > 5)
        for (name, bytes) in Self.corpus { agree(bytes, name) }
    }

    /// Damaged copies of every fixture (bytes flipped, cut, dropped, doubled: a fixed seed, so every run is the
    /// same): both readers accept or refuse each alike, and read the same value.
    @Test func agreesWithTheTreeParserOnDamagedFixtures() {
        var random = SeededGenerator(seed: 0x5EED)
        for (name, bytes) in Self.corpus where !bytes.isEmpty {
            for round in 0..<60 {
                var damaged = bytes
                let at = Int(random.next() % UInt64(damaged.count))
                switch round % 4 {
                case 0: damaged[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: damaged.removeSubrange(at...)
                case 2: damaged.remove(at: at)
                default: damaged.insert(damaged[at], at: at)
                }
                agree(damaged, "\(name) round \(round)")
            }
        }
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "-", "\"\\x\"", "\"\\ud800\"", "[1] 2", "{\"a\":1,}", "\"a\nb\"",
        "{\"a\":1 \"b\":2}", "[1 2]", "{1:2}", "\"\\u12\"", "\"\\udc00\"", "nul", "[", "{\"a\":",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: Array(text.utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    /// Where and why a text is refused, with whitespace in every place the builder skips it: a refusal names the
    /// first byte that cannot be read, past any whitespace before it.
    @Test(arguments: [
        ("{\"a\":\r\r", 7, "unexpected end"), ("{\"a\" :  1 , \"b\"\t:\n[ 1 ,2 ] }x", 28, "unexpected data after the value"),
        ("[1 ,\n]", 5, "unexpected character"), ("{\"a\":1,}", 7, "expected a key"), ("{\"a\" 1}", 5, "expected ':'"),
        ("[1 2]", 3, "expected ',' or ']'"), ("{ , }", 2, "expected a key"), ("[\n\n", 3, "unexpected end in an array"),
        ("{\n\"a\"\n:\n}", 8, "unexpected character"), ("[tru]", 1, "unknown literal"), ("[ fals", 2, "unexpected end"),
        ("  nul", 2, "unexpected end"), ("[-]", 2, "unexpected character"), ("[1.]", 3, "digit expected after '.'"),
        ("[1e+]", 4, "digit expected in exponent"), ("{\"a\":1}  ,", 9, "unexpected data after the value"),
        ("[\"\\x\"]", 4, "unknown escape"), ("[\"a\u{01}\"]", 3, "control character in a string"), ("", 0, "unexpected end"),
        ("  ", 2, "unexpected end"), ("[falsE]", 1, "unknown literal"), ("[fAlse]", 1, "unknown literal"),
        ("[nulL]", 1, "unknown literal"), ("[trUe]", 1, "unknown literal"), ("[ null1]", 6, "expected ',' or ']'"),
        (String(repeating: "[", count: JSONParser.maximumDepth) + "  1", JSONParser.maximumDepth + 2, "nested deeper than 128"),
        (String(repeating: "{\"a\":", count: JSONParser.maximumDepth) + "  1", 5 * JSONParser.maximumDepth + 2,
         "nested deeper than 128"),
    ] as [(String, Int, String)])
    func refusalsSayWhereAndWhy(_ text: String, _ offset: Int, _ reason: String) {
        #expect(throws: JSONParser.Failure(offset: offset, reason: reason)) { try JSONTape(parsing: Array(text.utf8)) }
    }

    @Test func whitespaceAnywhereReadsTheSame() throws {
        let spaced = try JSONTape(parsing: Array("\n{ \"a\" :\t[ 1 , {\r\n} , [ ] ] ,\"b\":  \"x\" }\n".utf8))
        let tight = try JSONTape(parsing: Array("{\"a\":[1,{},[]],\"b\":\"x\"}".utf8))
        #expect(spaced.value(0) == tight.value(0))
        #expect(spaced.count == tight.count)
    }

    /// Invalid UTF-8 of every kind String refuses: a stray continuation, an overlong form, a surrogate, a code
    /// point past U+10FFFF, a sequence cut short.
    @Test(arguments: [[0x80], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                      [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func refusesInvalidUTF8(_ sequence: [UInt8]) {
        let text = [0x22] + sequence + [0x22]
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: text) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
        #expect(String(validating: sequence, as: UTF8.self) == nil)
    }

    @Test func boundsNestingDepth() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: Array(deep.utf8)) }
        let fine = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try JSONTape(parsing: Array(fine.utf8))
        // One level more, or any value inside the deepest container, is refused by both readers.
        let depth = JSONParser.maximumDepth
        for text in [String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1),
                     String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth),
                     String(repeating: "{\"a\":", count: depth) + "{}" + String(repeating: "}", count: depth)] {
            #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: Array(text.utf8)) }
            #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
        }
        // The C builder's cap is the parser's.
        #expect(Int(BE_JSON_MAX_DEPTH) == JSONParser.maximumDepth)
    }

    /// Every escape resolves to its UTF-8, alone, at either end of a string and between plain runs, through the
    /// tape's text and through the scalar texts written in place.
    @Test func everyEscapeResolves() throws {
        let cases: [(String, String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\n"#, "\n"), (#"\r"#, "\r"),
            (#"\t"#, "\t"), (#"\u0041"#, "A"), (#"\u00e9"#, "\u{E9}"), (#"\u20AC"#, "\u{20AC}"), (#"\ud83d\ude00"#, "\u{1F600}"),
            (#"\u0000"#, "\u{0}"),
        ]
        for (escape, resolved) in cases {
            for (prefix, suffix) in [("", ""), ("ab", ""), ("", "cd"), ("plain run ", " and more")] {
                let body = prefix + escape + suffix
                let tape = try JSONTape(parsing: Array("[\"\(body)\", 1]".utf8))
                #expect(tape.text(1) == prefix + resolved + suffix, "\(body)")
                let destination = UnsafeMutablePointer<UInt8>.allocate(capacity: tape.bytes.count + 1)
                defer { destination.deallocate() }
                tape.writeScalarTexts(into: destination)
                let start = Int(tape.scalarTextOffset(1)!)
                let written = Array(UnsafeBufferPointer(start: destination + start, count: (prefix + resolved + suffix).utf8.count))
                #expect(written == Array((prefix + resolved + suffix).utf8), "\(body)")
                #expect(destination[start + written.count] == 0)
            }
        }
    }

    /// Keys are marked as keys, escaped or not, and get no scalar text: the values' texts are whole around them,
    /// and a key's own text, asked for all the same, is made apart with its escapes resolved.
    @Test func keysGetNoScalarTextAndReadWhole() throws {
        let tape = try JSONTape(parsing: Array(#"{"plain": "v1", "esc\u0041ped": "v\n2", "n": 3}"#.utf8))
        let keys = [1, 3, 5], values = [2, 4, 6]
        for key in keys { #expect(tape.entry(key).isKey && tape.scalarTextOffset(key) == nil) }
        #expect(tape.entry(3).escaped && !tape.entry(1).escaped)
        for value in values { #expect(!tape.entry(value).isKey && tape.scalarTextOffset(value) != nil) }
        let texts = AnswerTexts(tape: tape)
        #expect(values.map { texts.text(at: $0).map { String(cString: $0) } } == ["v1", "v\n2", "3"])
        #expect(keys.map { texts.text(at: $0).map { String(cString: $0) } } == ["plain", "escAped", "n"])
    }

    /// An offer's id as a C string: its own text in the answer when the answer spells it as its decimal text,
    /// else a copy of the normalised text; the same address each time it is asked for.
    @Test func offerIDTextsAreTheirDecimalText() throws {
        let body = #"{"data": {"offers": [{"id": 4001}, {"id": "4002"}, {"id": 4003.0}, {"id": "0042"}, {"id": 4.005e3}]}}"#
        let response = try MomentsResponseDecoder.decodeBody(Array(body.utf8))
        let texts = response.offers.map { $0.idText.map { String(cString: $0) } }
        #expect(texts == ["4001", "4002", "4003", "42", "4005"])
        for offer in response.offers { #expect(offer.idText == offer.idText && offer.idText.map { String(cString: $0) } == offer.id) }
    }

    /// The entry kinds the Swift side reads are the C builder's, in its order.
    @Test func entryKindsAreTheBuildersKinds() {
        let kinds: [(JSONTape.Entry.Kind, Int)] = [
            (.object, Int(BE_JSON_OBJECT)), (.array, Int(BE_JSON_ARRAY)), (.string, Int(BE_JSON_STRING)),
            (.number, Int(BE_JSON_NUMBER)), (.true, Int(BE_JSON_TRUE)), (.false, Int(BE_JSON_FALSE)), (.null, Int(BE_JSON_NULL)),
        ]
        for (kind, value) in kinds { #expect(Int(kind.rawValue) == value) }
    }

    /// A text denser than the first guess of one entry per 16 bytes (here one per 2) is built again with more
    /// room, and reads whole.
    @Test func denseTextsOutgrowTheFirstGuess() throws {
        for count in [0, 1, 7, 100, 5_000] {
            let text = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
            let tape = try JSONTape(parsing: Array(text.utf8))
            #expect(tape.count == count + 1)
            #expect(tape.elements(of: 0).count == count)
            #expect(tape.value(0) == (try JSONParser.parse(text)))
        }
        let keys = "{" + (0..<3_000).map { "\"\($0 % 10)\":0" }.joined(separator: ",") + "}"
        let tape = try JSONTape(parsing: Array(keys.utf8))
        #expect(tape.count == 6_001)
        #expect(tape.value(0) == (try JSONParser.parse(keys)))
    }

    /// The scan skips sixteen plain bytes at a time, then looks at eight at a time and jumps to the first that
    /// needs a look: a special byte at any position of a block or a word, or in the tail, is still seen.
    @Test(arguments: 0..<41)
    func everyPositionInAStringIsLookedAt(position: Int) throws {
        func text(_ special: String) -> String {
            String(repeating: "a", count: position) + special + String(repeating: "b", count: 40 - position)
        }
        for special in ["é", "\\n", "\\\"", "😀", "\\u00e9\\ud83d\\ude00"] { agree(Array("[\"\(text(special))\"]".utf8), special) }
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: Array("[\"\(text("\""))\"]".utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: Array("[\"\(text("\u{01}"))\"]".utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: [UInt8]("[\"\(text(""))".utf8) + [0xC3, 0x28, 0x22, 0x5D]) }
    }

    /// A string still open at the end of the text, whatever its length: the skip can end exactly at the end
    /// (whole blocks of plain bytes) and must not read past it.
    @Test(arguments: 0..<50)
    func aStringOpenAtTheEndIsUnterminated(length: Int) {
        let text = Array("\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(throws: JSONParser.Failure.self) { try JSONTape(parsing: text) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    /// Every documented key is recognised by its wire name, and nothing else is: a near miss of each (one letter
    /// off, one short) is not a key.
    @Test func documentedOfferKeysRoundTrip() {
        #expect(OfferKey.allCases.count == OfferKey.count && Int(BE_OFFER_KEY_COUNT) == OfferKey.count)
        #expect(BE_OFFER_NONE == OfferMembers.noText)
        for key in OfferKey.allCases {
            let name = key.wireName.description
            #expect(Array(name.utf8).withUnsafeBytes { OfferKey($0) } == key, "\(name)")
            #expect(Array((name + "x").utf8).withUnsafeBytes { OfferKey($0) } == nil)
            #expect(Array(name.dropLast().utf8).withUnsafeBytes { OfferKey($0) } == nil)
            #expect(Array(("_" + name.dropFirst()).utf8).withUnsafeBytes { OfferKey($0) } == nil)
            #expect(Array((name.dropLast() + "_").utf8).withUnsafeBytes { OfferKey($0) } == nil)
        }
        #expect(OfferKey.allCases.filter(\.isURL).count == 9)
        #expect(OfferKey.urlKeys == OfferKey.allCases.filter(\.isURL))
        #expect(OfferKey.urlKeys.reduce(UInt32(0)) { $0 | 1 << UInt32($1.rawValue) } == UInt32(BE_OFFER_URL_KEYS))
    }

    /// A repeated documented key, an escaped one, and an unknown one: the last occurrence answers.
    @Test func repeatedAndEscapedKeysAnswerTheirLastOccurrence() throws {
        let body = #"{"data": {"offers": [{"id": 1, "title": "first", "t\u0069tle": "second", "x": "1", "x": "2", "cta_yes": "", "click_url": "javascript:x"}]}}"#
        let offer = try #require(try MomentsResponseDecoder.decodeBody(Array(body.utf8)).offers.first)
        #expect(offer.title == "second")
        #expect(offer.field("x") == "2")
        #expect(offer.field("cta_yes") == nil)
        #expect(offer.clickURL == nil && offer.refusedURLKeys == ["click_url"])
    }

    @Test func lastDuplicateKeyWinsAndNullIsAbsent() throws {
        let tape = try JSONTape(parsing: Array(#"{"a": 1, "a": 2, "n": null, "\u0061": 3}"#.utf8))
        #expect(tape.present(0, "a").flatMap(tape.text) == "3")  // an escaped key is the same key
        #expect(tape.present(0, "n") == nil)
        #expect(tape.lastMember(of: 0, named: "n") != nil)
    }

    // MARK: Offers and styles, held to the tree-built answers

    /// What a top-level field answered when offers were built from the tree: the last occurrence, a non-empty
    /// scalar, URL fields only as absolute http(s), "title" and "image" falling back to their legacy names.
    static func treeField(_ object: JSONObject, _ key: String) -> String? {
        func own(_ key: String) -> String? {
            guard let value = object[key], value.isScalar, let text = value.scalarText, !text.isEmpty else { return nil }
            if Array(key.utf8).withUnsafeBytes({ OfferKey($0)?.isURL == true }), !ServiceURL.isAbsoluteHTTP(text) { return nil }
            return text
        }
        return own(key) ?? ["title": "name", "image": "creative_url"][key].flatMap(own)
    }

    static func offers(_ fixture: String) throws -> (offers: [Offer], styles: Styles?) {
        let body = try Fixtures.bytes(fixture)
        if fixture.hasPrefix("moments") {
            let response = try MomentsResponseDecoder.decodeBody(body)
            return (response.offers, response.styles)
        }
        guard case .feed(let feed) = try OfferFeedDecoder.decode(body) else { return ([], nil) }
        return (feed.groups.flatMap(\.offers), nil)
    }

    @Test(arguments: ["moments-offers.json", "offer-feed.json"])
    func offersAnswerAsTheTreeBuiltOnesDid(fixture: String) throws {
        let (offers, _) = try Self.offers(fixture)
        #expect(!offers.isEmpty)
        for offer in offers {
            let object = try #require(offer.tape.value(offer.position).objectValue)
            for key in object.members.map(\.key) + ["title", "image", "absent", ""] {
                #expect(offer.field(key) == Self.treeField(object, key), "offer \(offer.id) \(key)")
                // A host's C string key (be_offer_field) reads the same.
                #expect(key.withCString { offer.fieldText(cString: $0) }.map { String(cString: $0) } == Self.treeField(object, key),
                        "offer \(offer.id) \(key)")
            }
            var creatives: [JSONValue] = []
            if case .array(let list)? = object.present("creatives") { creatives = list }
            #expect(offer.creatives.count == creatives.count)
            for (creative, value) in zip(offer.creatives, creatives) {
                let tree = try #require(value.objectValue)
                func text(_ key: String) -> String? { tree.present(key).flatMap { $0.isScalar ? $0.scalarText : nil }.flatMap { $0.isEmpty ? nil : $0 } }
                #expect(creative.url == text("url").flatMap { ServiceURL.isAbsoluteHTTP($0) ? $0 : nil })
                #expect([creative.id, creative.width, creative.height, creative.type, creative.creativeType, creative.aspectRatio]
                    == [text("id"), text("width"), text("height"), text("type"), text("creative_type"), text("aspect_ratio")])
                #expect(creative.isPrimary == (tree.present("is_primary") == .bool(true)))
            }
        }
    }

    /// Every path through the styles object answers what the tree answered: scalars as text, objects and arrays
    /// as compact JSON, null and "" as nothing.
    @Test func stylesAnswerEveryPathAsTheTreeDid() throws {
        let body = try Fixtures.bytes("moments-offers.json")
        let styles = try MomentsResponseDecoder.decodeBody(body).styles
        let tree = try #require(try JSONParser.parse(body).objectValue?.present("data")?.objectValue?.present("styles")?.objectValue)
        var checked = 0
        func walk(_ object: JSONObject, _ prefix: String) {
            for member in object.members {
                let key = member.key, value: JSONValue = member.value
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                let expected = object.present(key)?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
                #expect(styles.string(atPath: path) == expected, "\(path)")
                checked += 1
                if let inner = value.objectValue { walk(inner, path) }
            }
        }
        walk(tree, "")
        #expect(checked > 20)
        #expect(styles.string(atPath: "popup..x") == nil && styles.string(atPath: "") == nil)
    }
}
