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

    public init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The value at `key`, with `null` treated as absent.
    public func present(_ key: String) -> JSONValue? {
        guard let value = self[key], value != .null else { return nil }
        return value
    }

    /// Follows a dotted path through nested objects ("offerText.buttonYes.color").
    public func value(atPath components: some Collection<Substring>) -> JSONValue? {
        guard let first = components.first, let value = present(String(first)) else { return nil }
        let rest = components.dropFirst()
        if rest.isEmpty { return value }
        return value.objectValue?.value(atPath: rest)
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
