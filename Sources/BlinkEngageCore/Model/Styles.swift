/// The styles object of a Moments answer, kept whole and answered by dotted path.
///
/// `settings` may also arrive at `data.settings` (older API versions): a `settings.*` path reads
/// `styles.settings` first and falls back to `data.settings` key by key.
public final class Styles: Sendable {
    public let styles: JSONObject
    public let legacySettings: JSONObject?
    /// Answers handed to C, built on first lookup and kept as long as the styles, so pointers stay valid.
    private let answered = Locked<[String: StableCString?]>([:])

    public init(styles: JSONObject, legacySettings: JSONObject?) {
        self.styles = styles
        self.legacySettings = legacySettings
    }

    /// The value at a dotted path, nil when absent or null.
    public func value(atPath path: String) -> JSONValue? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard !components.isEmpty, !components.contains(where: \.isEmpty) else { return nil }
        if let value = styles.value(atPath: components) { return value }
        if components.first == "settings", let legacySettings {
            return legacySettings.value(atPath: components.dropFirst())
        }
        return nil
    }

    /// The value at a dotted path as host-facing text (see `JSONValue.scalarText`); nil when absent or empty.
    public func text(atPath path: String) -> StableCString? {
        answered.withLock { answered in
            if let known = answered[path] { return known }
            let text = StableCString.nonEmpty(value(atPath: path)?.scalarText)
            answered[path] = text
            return text
        }
    }
}
