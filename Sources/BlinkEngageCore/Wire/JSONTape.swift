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
// Safe: the entries are written only while `init` parses and freed in deinit; everything else only reads them.
public final class JSONTape: @unchecked Sendable {
    public let bytes: [UInt8]
    /// The entries, owned: a lookup walks them with plain loads, no array between (positions only ever come from
    /// this tape, so they are always in bounds).
    private let entries: UnsafeMutablePointer<Entry>
    /// The memory of `entries`, given back for the next answer when the tape goes.
    private let entryMemory: RecycledBuffers.Buffer
    /// How many entries the tape holds: positions run from 0 to `count - 1`.
    public let count: Int

    struct Entry: Sendable {
        /// Containers first: `writeScalarTexts` tells scalars by `rawValue >= string`.
        enum Kind: UInt8, Sendable { case object, array, string, number, `true`, `false`, null }
        /// Strings: the first byte after the opening quote; everything else: its first byte.
        let start: UInt32
        /// Strings: the bytes between the quotes; numbers: their spelling; objects and arrays: brackets included.
        var length: UInt32
        /// The position after this value and everything inside it.
        var next: UInt32
        let kind: Kind
        /// Strings: a backslash escape is among the bytes.
        let escaped: Bool
    }

    public init(parsing bytes: [UInt8]) throws(JSONParser.Failure) {
        // Offsets are 32-bit and open containers' slots 31-bit: a text this large is refused before either could wrap.
        guard bytes.count < Int(Int32.max) else {
            throw JSONParser.Failure(offset: 0, reason: "a text of \(bytes.count) bytes is larger than 2 GiB")
        }
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<EntryBuffer, JSONParser.Failure> in
            // Roughly one entry per 16 bytes of offer JSON: one allocation for most answers.
            var builder = Builder(lexer: JSONLexer(buffer), entries: EntryBuffer(capacity: bytes.count / 16 + 4))
            return Result { () throws(JSONParser.Failure) in
                do throws(JSONParser.Failure) {
                    builder.lexer.skipWhitespace()
                    try builder.parse()
                    builder.lexer.skipWhitespace()
                    guard builder.lexer.atEnd else { throw builder.lexer.failure("unexpected data after the value") }
                } catch {
                    builder.entries.release()
                    throw error
                }
                return builder.entries
            }
        }
        let built = try parsed.get()
        self.bytes = bytes
        entries = built.base
        entryMemory = built.memory
        count = built.count
    }

    deinit { RecycledBuffers.shared.give(entryMemory) }

    // MARK: Reading


    public enum Kind: Sendable { case object, array, string, number, bool, null }

    public func kind(_ position: Int) -> Kind {
        switch entries[position].kind {
        case .object: return .object
        case .array: return .array
        case .string: return .string
        case .number: return .number
        case .true, .false: return .bool
        case .null: return .null
        }
    }

    public func isObject(_ position: Int) -> Bool { entries[position].kind == .object }
    public func isArray(_ position: Int) -> Bool { entries[position].kind == .array }
    public func isString(_ position: Int) -> Bool { entries[position].kind == .string }
    public func isTrue(_ position: Int) -> Bool { entries[position].kind == .true }
    public func isEmptyString(_ position: Int) -> Bool { entries[position].kind == .string && entries[position].length == 0 }
    /// A string, number or boolean: a value with host-facing text of its own.
    public func isScalar(_ position: Int) -> Bool {
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

    /// Whether `bytes` are exactly `text`'s UTF-8 (lengths first; one `memcmp`).
    @inline(__always)
    static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && (bytes.count == 0 || memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0)
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

    /// Where a scalar's host text starts in the text `writeScalarTexts` writes; nil for objects and arrays.
    func scalarTextOffset(_ position: Int) -> Int? {
        switch entries[position].kind {
        case .object, .array: return nil
        default: return Int(entries[position].start)
        }
    }

    /// Writes the text once more to `destination` (room for `bytes.count + 1`), with every scalar's host text
    /// (see `withText`) NUL-terminated where it starts: the byte after a number or literal, or a string's closing
    /// quote, becomes the NUL; an escaped string is written resolved in its place (never longer); null reads as
    /// "". Objects and arrays are left as they are, their bytes overwritten by their members' NULs.
    func writeScalarTexts(into destination: UnsafeMutablePointer<UInt8>) {
        bytes.withUnsafeBufferPointer { all in
            if let base = all.baseAddress { memcpy(destination, base, all.count) }
            destination[all.count] = 0
            // One pass, mostly the plain case: a store at each scalar's end (offsets stay below 2 GiB, so their
            // 32-bit sum cannot wrap).
            let scalars = Entry.Kind.string.rawValue
            for entry in UnsafeBufferPointer(start: entries, count: count) where entry.kind.rawValue >= scalars {
                if entry.escaped {
                    let start = Int(entry.start), end = start + Int(entry.length)
                    destination[start + JSONLexer.unescape(all, start..<end, into: destination + start)] = 0
                } else if entry.kind == .null {
                    destination[Int(entry.start)] = 0
                } else {
                    destination[Int(entry.start &+ entry.length)] = 0
                }
            }
        }
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

    // MARK: Parsing

    /// Appends entries while the lexer reads, in one loop over the text with the open containers on a stack (no
    /// call per value); a container's entry is patched with its end once its last member is read.
    private struct Builder {
        var lexer: JSONLexer
        var entries: EntryBuffer

        /// Marks an open container's slot as an object's (slots stay below 2^31: every entry takes at least one
        /// byte of the text, which is refused from 2 GiB on).
        static var objectBit: UInt32 { 1 << 31 }

        /// What the loop expects next.
        private enum Expecting { case value, key, afterValue }

        mutating func parse() throws(JSONParser.Failure) {
            /// The open containers' slots, innermost last; `depth` of them.
            var open = InlineArray<128, UInt32>(repeating: 0)
            // The parser's cap, which the stack holds (the tests keep both readers to one cap).
            let maximumDepth = min(JSONParser.maximumDepth, open.count)
            var depth = 0
            var expecting = Expecting.value
            while true {
                switch expecting {
                case .value:
                    // As in JSONParser: no value at all, scalar or not, below the depth cap.
                    guard depth < maximumDepth else { throw lexer.failure("nested deeper than \(maximumDepth)") }
                    let start = lexer.index
                    guard start < lexer.bytes.count else { throw lexer.failure("unexpected end") }
                    switch lexer.bytes[start] {
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        let isObject = lexer.bytes[start] == UInt8(ascii: "{")
                        open[depth] = UInt32(entries.count) | (isObject ? Self.objectBit : 0)
                        depth += 1
                        entries.append(Entry(start: UInt32(start), length: 0, next: 0, kind: isObject ? .object : .array, escaped: false))
                        lexer.index += 1
                        let next = try lexer.nextByte(isObject ? "in an object" : "in an array")
                        if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                            close(&depth, &open)
                            expecting = .afterValue
                        } else {
                            expecting = isObject ? .key : .value
                        }
                        continue
                    case UInt8(ascii: "\""): try string()
                    case UInt8(ascii: "t"): try lexer.expectLiteral("true"); scalar(.true, start)
                    case UInt8(ascii: "f"): try lexer.expectLiteral("false"); scalar(.false, start)
                    case UInt8(ascii: "n"): try lexer.expectLiteral("null"); scalar(.null, start)
                    default: _ = try lexer.scanNumber(); scalar(.number, start)
                    }
                    expecting = .afterValue
                case .key:
                    guard try lexer.nextByte("in an object") == UInt8(ascii: "\"") else { throw lexer.failure("expected a key") }
                    try string()
                    guard try lexer.nextByte("in an object") == UInt8(ascii: ":") else { throw lexer.failure("expected ':'") }
                    lexer.index += 1
                    lexer.skipWhitespace()
                    expecting = .value
                    // The commonest member, `"key": "text",`, in one pass: the states it would go through next
                    // (a string value, then what follows it in an object) with their checks, without the loop.
                    guard depth < maximumDepth, lexer.index < lexer.bytes.count,
                          lexer.bytes[lexer.index] == UInt8(ascii: "\"") else { continue }
                    try string()
                    expecting = try afterMember(&depth, &open)
                case .afterValue:
                    guard depth > 0 else { return }
                    guard open[depth - 1] & Self.objectBit == 0 else {
                        expecting = try afterMember(&depth, &open)
                        continue
                    }
                    switch try lexer.nextByte("in an array") {
                    case UInt8(ascii: ","):
                        lexer.index += 1
                        lexer.skipWhitespace()
                        expecting = .value
                    case UInt8(ascii: "]"):
                        close(&depth, &open)
                    default:
                        throw lexer.failure("expected ',' or ']'")
                    }
                }
            }
        }

        /// What follows an object's member: `,` and another key, or `}`, which closes the object.
        @inline(__always)
        private mutating func afterMember(_ depth: inout Int, _ open: inout InlineArray<128, UInt32>) throws(JSONParser.Failure) -> Expecting {
            switch try lexer.nextByte("in an object") {
            case UInt8(ascii: ","):
                lexer.index += 1
                return .key
            case UInt8(ascii: "}"):
                close(&depth, &open)
                return .afterValue
            default:
                throw lexer.failure("expected ',' or '}'")
            }
        }

        /// Steps past the closing bracket at the lexer and patches the innermost open container with its end.
        @inline(__always)
        private mutating func close(_ depth: inout Int, _ open: inout InlineArray<128, UInt32>) {
            depth -= 1
            let slot = Int(open[depth] & ~Self.objectBit)
            lexer.index += 1
            entries.base[slot].length = UInt32(lexer.index - Int(entries.base[slot].start))
            entries.base[slot].next = UInt32(entries.count)
        }

        @inline(__always)
        private mutating func scalar(_ kind: Entry.Kind, _ start: Int) {
            entries.append(Entry(start: UInt32(start), length: UInt32(lexer.index - start), next: UInt32(entries.count + 1),
                                 kind: kind, escaped: false))
        }

        @inline(__always)
        private mutating func string() throws(JSONParser.Failure) {
            let (body, escaped) = try lexer.scanString()
            entries.append(Entry(start: UInt32(body.lowerBound), length: UInt32(body.count), next: UInt32(entries.count + 1),
                                 kind: .string, escaped: escaped))
        }
    }

    /// A growable run of entries the builder appends to and the tape then owns (Entry is plain data: moved with
    /// one copy, never initialised twice), in a recycled buffer.
    struct EntryBuffer {
        private(set) var memory: RecycledBuffers.Buffer
        private(set) var base: UnsafeMutablePointer<Entry>
        private(set) var count = 0
        private var capacity: Int
        private static let stride = MemoryLayout<Entry>.stride

        init(capacity: Int) {
            memory = RecycledBuffers.shared.take(atLeast: max(capacity, 4) * Self.stride)
            self.capacity = memory.capacity / Self.stride
            base = memory.pointer.bindMemory(to: Entry.self, capacity: self.capacity)
        }

        @inline(__always)
        mutating func append(_ entry: Entry) {
            if count == capacity { grow() }
            (base + count).initialize(to: entry)
            count += 1
        }

        @inline(never)
        private mutating func grow() {
            let larger = RecycledBuffers.shared.take(atLeast: memory.capacity * 2)
            memcpy(larger.pointer, memory.pointer, count * Self.stride)
            RecycledBuffers.shared.give(memory)
            memory = larger
            capacity = larger.capacity / Self.stride
            base = larger.pointer.bindMemory(to: Entry.self, capacity: capacity)
        }

        func release() { RecycledBuffers.shared.give(memory) }
    }
}
