internal import CJSONScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A JSON text and an index over its bytes, in the spirit of simdjson's tape: one entry per value and per object
/// key, in document order, each an offset and a length into the text. Parsing validates everything
/// `JSONParser` validates (RFC 8259, the depth cap, UTF-8, escapes) but decodes nothing: a string becomes text
/// only when someone asks for it, and then in one copy when it has no escape.
///
/// Positions (`Int`) name entries; 0 is the root. Objects and arrays know where they end, so a lookup steps over
/// a member it does not want without reading it.
// Safe: the entries, scalar ends and marks are written only while `init` parses, freed in deinit; all else only reads.
public final class JSONTape: @unchecked Sendable {
    public let bytes: [UInt8]
    /// The entries, owned: a lookup walks them with plain loads, no array between (positions only ever come from
    /// this tape, so they are always in bounds).
    private let entries: UnsafeMutablePointer<Entry>
    /// Where each scalar value's host text ends, as the builder recorded them (`be_json_build_tape`), for
    /// `writeScalarTexts`; after the entries, in the same memory.
    private let ends: UnsafeMutablePointer<UInt32>
    private let endCount: Int
    /// The memory of `entries` and `ends`, given back for the next answer when the tape goes.
    private let entryMemory: RecycledBuffers.Buffer
    /// How many entries the tape holds: positions run from 0 to `count - 1`.
    public let count: Int

    /// One entry: `be_json_entry` (CJSONScan/tape.h), the layout the C builder writes.
    typealias Entry = be_json_entry

    public init(parsing bytes: [UInt8]) throws(JSONParser.Failure) {
        // Offsets are 32-bit and open containers' slots 31-bit: a text this large is refused before either could wrap.
        guard bytes.count < Int(Int32.max) else {
            throw JSONParser.Failure(offset: 0, reason: "a text of \(bytes.count) bytes is larger than 2 GiB")
        }
        // Roughly one entry per 16 bytes of offer JSON: one build for most answers. A denser text runs out of room
        // and is built again with twice as much (every entry takes at least one byte, so this ends). Each entry's
        // room comes with room for one end (there are never more ends than entries), placed after the entries;
        // after both, aligned, the words the build marks the text's special bytes in (`be_json_mark_specials`).
        let stride = MemoryLayout<Entry>.stride + MemoryLayout<UInt32>.stride
        let specialsRoom = be_json_special_words(bytes.count) * MemoryLayout<UInt64>.stride + MemoryLayout<UInt64>.alignment
        var memory = RecycledBuffers.shared.take(atLeast: (bytes.count / 16 + 4) * stride + specialsRoom)
        var outcome = be_json_outcome()
        var capacity = 0
        while true {
            capacity = (memory.capacity - specialsRoom) / stride
            let specials = (memory.pointer + capacity * stride).alignedUp(for: UInt64.self)
            let status = Self.withCBytes(bytes) { text, count in
                be_json_tape_build(text, count, memory.pointer.bindMemory(to: Entry.self, capacity: capacity), capacity,
                                   Self.ends(in: memory, capacity: capacity),
                                   specials.bindMemory(to: UInt64.self, capacity: be_json_special_words(count)), &outcome)
            }
            if status == BE_JSON_OK { break }
            RecycledBuffers.shared.give(memory)
            guard status == BE_JSON_FULL else {
                throw JSONParser.Failure(offset: outcome.error_offset, reason: String(cString: outcome.error_reason))
            }
            memory = RecycledBuffers.shared.take(atLeast: memory.capacity * 2)
        }
        self.bytes = bytes
        entries = memory.pointer.assumingMemoryBound(to: Entry.self)
        ends = Self.ends(in: memory, capacity: capacity)
        endCount = outcome.end_count
        entryMemory = memory
        count = outcome.count
    }

    /// The room for the ends in a tape's memory of `capacity` entries: after them (an entry's stride keeps it aligned).
    private static func ends(in memory: RecycledBuffers.Buffer, capacity: Int) -> UnsafeMutablePointer<UInt32> {
        (memory.pointer + capacity * MemoryLayout<Entry>.stride).bindMemory(to: UInt32.self, capacity: capacity)
    }

    deinit { RecycledBuffers.shared.give(entryMemory) }

    // MARK: Reading


    public enum Kind: Sendable { case object, array, string, number, bool, null }

    // The one-line reads below are inlined into every caller: as calls they cost as much as their work, and a
    // field read makes several.

    /// The entry at `position` as the builder wrote it.
    @inline(__always) func entry(_ position: Int) -> Entry { entries[position] }

    @inline(__always) public func kind(_ position: Int) -> Kind {
        switch entries[position].kind {
        case .object: return .object
        case .array: return .array
        case .string: return .string
        case .number: return .number
        case .true, .false: return .bool
        case .null: return .null
        }
    }

    @inline(__always) public func isObject(_ position: Int) -> Bool { entries[position].kind == .object }
    @inline(__always) public func isArray(_ position: Int) -> Bool { entries[position].kind == .array }
    @inline(__always) public func isString(_ position: Int) -> Bool { entries[position].kind == .string }
    @inline(__always) public func isTrue(_ position: Int) -> Bool { entries[position].kind == .true }
    @inline(__always) public func isEmptyString(_ position: Int) -> Bool {
        entries[position].kind == .string && entries[position].length == 0
    }
    /// A string, number or boolean: a value with host-facing text of its own.
    @inline(__always) public func isScalar(_ position: Int) -> Bool {
        switch entries[position].kind {
        case .string, .number, .true, .false: return true
        case .object, .array, .null: return false
        }
    }

    /// The positions of an array's elements.
    public func elements(of array: Int) -> Elements {
        guard entries[array].kind == .array else { return Elements(tape: self, position: 0, end: 0) }
        return Elements(tape: self, position: array + 1, end: Int(entries[array].next))
    }

    /// An array's element positions, walked along the entries' `next` links: no array of positions is made.
    public struct Elements: Sequence, IteratorProtocol {
        fileprivate let tape: JSONTape
        fileprivate var position: Int
        fileprivate let end: Int

        public mutating func next() -> Int? {
            guard position < end else { return nil }
            defer { position = Int(tape.entries[position].next) }
            return position
        }

        /// How many elements there are (a walk).
        public var count: Int {
            var walk = self, count = 0
            while walk.next() != nil { count += 1 }
            return count
        }
    }

    /// Calls `body` with the position of each member's key and value, in wire order.
    public func forEachMember(of object: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        guard entries[object].kind == .object else { return }
        var position = object + 1
        let end = Int(entries[object].next)
        while position < end {
            try body(position, position + 1)
            position = Int(entries[position + 1].next)
        }
    }

    /// The value of the last member named `key` (a repeated key resolves to its last occurrence, as in
    /// `JSONObject`); nil when there is none.
    func lastMember(of object: Int, named key: UnsafeRawBufferPointer) -> Int? {
        // Every field a host reads is a walk over its offer's keys: lengths first, bytes only when they match.
        guard key.count < Int(UInt32.max), entries[object].kind == .object else { return nil }
        let length = UInt32(key.count)
        var found = -1
        bytes.withUnsafeBytes { text in
            var position = object + 1
            let end = Int(entries[object].next)
            while position < end {
                let entry = entries[position]
                if entry.length == length, !entry.escaped,
                   length == 0 || memcmp(text.baseAddress! + Int(entry.start), key.baseAddress!, key.count) == 0 {
                    found = position + 1
                } else if entry.escaped, stringEquals(position, key) {
                    found = position + 1
                }
                position = Int(entries[position + 1].next)
            }
        }
        return found < 0 ? nil : found
    }

    func lastMember(of object: Int, named key: StaticString) -> Int? {
        key.withUTF8Buffer { lastMember(of: object, named: UnsafeRawBufferPointer($0)) }
    }

    /// The value at `key`, with `null` treated as absent (`JSONObject.present`).
    public func present(_ object: Int, _ key: StaticString) -> Int? {
        guard let value = lastMember(of: object, named: key), entries[value].kind != .null else { return nil }
        return value
    }

    /// Follows a dotted path through nested objects ("offerText.buttonYes.color"); nil when absent or null.
    public func value(atPath components: some Collection<Substring>, in object: Int) -> Int? {
        var position = object
        for component in components {
            var name = String(component)
            let member = name.withUTF8 { lastMember(of: position, named: UnsafeRawBufferPointer($0)) }
            guard let value = member, entries[value].kind != .null else { return nil }
            position = value
        }
        return position
    }

    /// Whether the string at `position` reads as exactly `text` (escapes resolved).
    func stringEquals(_ position: Int, _ text: UnsafeRawBufferPointer) -> Bool {
        let entry = entries[position]
        guard entry.kind == .string else { return false }
        if entry.escaped { return withText(position) { $0.elementsEqual(text) } }
        guard Int(entry.length) == text.count else { return false }
        return bytes.withUnsafeBytes { all in
            text.count == 0 || memcmp(all.baseAddress! + Int(entry.start), text.baseAddress!, text.count) == 0
        }
    }

    /// The host-facing UTF-8 of a scalar, passed to `body`: a string's text with escapes resolved (its own bytes
    /// when it has none), a number's spelling, `true` or `false`; the compact JSON of an object or array; nothing
    /// for null.
    func withText<Result>(_ position: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let entry = entries[position]
        return bytes.withUnsafeBufferPointer { all in
            let range = Int(entry.start)..<Int(entry.start) + Int(entry.length)
            switch entry.kind {
            case .string where entry.escaped:
                return JSONLexer.withUnescaped(all, range) { body(UnsafeRawBufferPointer($0)) }
            case .string, .number:
                return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[range])))
            case .true: return ("true" as StaticString).withUTF8Buffer { body(UnsafeRawBufferPointer($0)) }
            case .false: return ("false" as StaticString).withUTF8Buffer { body(UnsafeRawBufferPointer($0)) }
            case .null: return body(UnsafeRawBufferPointer(start: nil, count: 0))
            case .object, .array:
                var output: [UInt8] = []
                output.reserveCapacity(range.count)
                write(position, to: &output)
                return output.withUnsafeBytes(body)
            }
        }
    }

    /// Where a scalar's host text starts in the text `writeScalarTexts` writes; nil for objects, arrays and keys.
    @inline(__always) func scalarTextOffset(_ position: Int) -> Int? {
        switch entries[position].kind {
        case .object, .array: return nil
        case .string where entries[position].isKey: return nil
        default: return Int(entries[position].start)
        }
    }

    /// The documented members of the offer object at `object` (`be_offer_read_members`, CJSONScan/offer.h): each
    /// key's value position, and where the value's host text starts in the text `writeScalarTexts` writes when it
    /// has one (a string that is not "", a number, true or false), else `OfferMembers.noText`. Returns the URL
    /// fields that need the URL parser, as bits of their `OfferKey` raw values: every other one is absent or its
    /// own `href`.
    func readOfferMembers(of object: Int, positions: inout OfferMembers.Positions, texts: inout OfferMembers.Positions) -> UInt32 {
        var positionSlots = positions.mutableSpan, textSlots = texts.mutableSpan
        return Self.withCBytes(bytes) { text, _ in
            positionSlots.withUnsafeMutableBufferPointer { positions in
                textSlots.withUnsafeMutableBufferPointer { texts in
                    be_offer_members(text, entries, UInt32(truncatingIfNeeded: object), positions.baseAddress!, texts.baseAddress!)
                }
            }
        }
    }

    /// The members a creative's decode reads and its pixel sizes (`be_creative_read_members`, CJSONScan/offer.h).
    func creativeMembers(of object: Int) -> be_creative_members {
        Self.withCBytes(bytes) { text, _ in be_creative_members_of(text, entries, UInt32(truncatingIfNeeded: object)) }
    }

    /// Writes the text once more to `destination` (room for `bytes.count + 1`), with every scalar's host text
    /// (see `withText`) NUL-terminated where it starts: the byte after a number or literal, or a string's closing
    /// quote, becomes the NUL; an escaped string is written resolved in its place (never longer); null reads as
    /// "". Objects and arrays are left as they are, their bytes overwritten by their members' NULs.
    func writeScalarTexts(into destination: UnsafeMutablePointer<UInt8>) {
        Self.withCBytes(bytes) { text, count in
            be_json_tape_write_texts(text, count, entries, ends, endCount, destination)
        }
    }

    /// `body` with the address and count of `bytes`, for the C scans. An empty text has no address: they are given
    /// a stand-in, which they never read (no byte, so no entry points into it).
    private static func withCBytes<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
    }

    /// The host-facing text of a value (see `withText`) as a String; nil for null.
    public func text(_ position: Int) -> String? {
        guard entries[position].kind != .null else { return nil }
        return withText(position) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value's bytes as received (a string's include its quotes).
    public func sourceBytes(_ position: Int) -> ArraySlice<UInt8> {
        let entry = entries[position]
        let quotes = entry.kind == .string ? 1 : 0
        return bytes[Int(entry.start) - quotes..<Int(entry.start) + Int(entry.length) + quotes]
    }

    /// Compact JSON text of a value, as `JSONValue.write` writes it: numbers keep their spelling, strings without
    /// escapes are copied as they are.
    func write(_ position: Int, to output: inout [UInt8]) {
        let entry = entries[position]
        switch entry.kind {
        case .string where entry.escaped:
            JSONValue.writeQuoted(text(position) ?? "", to: &output)
        case .string, .number, .true, .false, .null:
            output.append(contentsOf: sourceBytes(position))
        case .array:
            output.append(UInt8(ascii: "["))
            for (ordinal, element) in elements(of: position).enumerated() {
                if ordinal > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object:
            output.append(UInt8(ascii: "{"))
            var first = true
            forEachMember(of: position) { key, value in
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The value as a tree, for the code and tests that want one.
    public func value(_ position: Int) -> JSONValue {
        switch entries[position].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(text(position) ?? "")
        case .string: return .string(text(position) ?? "")
        case .array: return .array(elements(of: position).map(value))
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            forEachMember(of: position) { key, member in members.append((text(key) ?? "", value(member))) }
            let start = Int(entries[position].start)
            return .object(JSONObject(members, sourceRange: start..<start + Int(entries[position].length)))
        }
    }
}

extension be_json_entry {
    /// The entry kinds in the order of CJSONScan's BE_JSON_OBJECT ... BE_JSON_NULL (a test holds them together).
    enum Kind: UInt8 { case object, array, string, number, `true`, `false`, null }

    /// The builder writes only the kinds above.
    @inline(__always) var kind: Kind { Kind(rawValue: type).unsafelyUnwrapped }
    @inline(__always) var escaped: Bool { escapes & UInt8(BE_JSON_ESCAPED) != 0 }
    /// An object's key: compared, never handed out, so it has no scalar text.
    @inline(__always) var isKey: Bool { escapes & UInt8(BE_JSON_KEY) != 0 }
}
