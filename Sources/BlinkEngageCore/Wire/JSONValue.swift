/// A parsed JSON value. Numbers keep their original spelling so that `1.0` stays `1.0` when handed to the host,
/// and objects keep their members in wire order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value as host-facing text: strings as they are, numbers and booleans as their JSON text, objects
    /// and arrays as JSON text; nil for null.
    public var scalarText: String? {
        switch self {
        case .null: return nil
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return text
        case .array, .object: return jsonText
        }
    }

    public var isScalar: Bool {
        switch self {
        case .bool, .number, .string: return true
        case .null, .array, .object: return false
        }
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// A JSON object's members in wire order. A repeated key resolves to its last occurrence, as most parsers do.
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSONValue)]
    /// Where the parser read this object: its bytes in the parsed text, braces included. nil for objects
    /// built in code. Not part of equality.
    public var sourceRange: Range<Int>?

    public init(_ members: [(key: String, value: JSONValue)] = [], sourceRange: Range<Int>? = nil) {
        self.members = members
        self.sourceRange = sourceRange
    }

    public subscript(key: String) -> JSONValue? {
        members.last(where: { JSONObject.sameKey($0.key, key) })?.value
    }

    /// Key equality, cheapest first: lengths differ for most pairs, and a native string knows its length.
    @inline(__always) static func sameKey(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs == rhs
    }

    /// The value at `key`, with `null` treated as absent.
    public func present(_ key: String) -> JSONValue? {
        guard let value = self[key], value != .null else { return nil }
        return value
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
