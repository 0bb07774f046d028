/// The styles object of a Moments answer, answered by dotted path from the answer's tape.
///
/// `settings` may also arrive at `data.settings` (older API versions): a `settings.*` path reads
/// `styles.settings` first and falls back to `data.settings` key by key.
public final class Styles: Sendable {
    private let tape: JSONTape
    /// The positions of `data.styles` and `data.settings`, when the answer has them.
    private let styles: Int?
    private let legacySettings: Int?
    /// Answers handed to C, made on first lookup and kept as long as the answer, so pointers stay valid.
    private let texts: AnswerTexts

    init(tape: JSONTape, styles: Int?, legacySettings: Int?, texts: AnswerTexts) {
        self.tape = tape
        self.styles = styles
        self.legacySettings = legacySettings
        self.texts = texts
    }

    /// The position of the value at a dotted path, nil when absent or null.
    private func position(atPath path: String) -> Int? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard !components.isEmpty, !components.contains(where: \.isEmpty) else { return nil }
        if let styles, let value = tape.value(atPath: components, in: styles) { return value }
        if components.first == "settings", let legacySettings {
            return tape.value(atPath: components.dropFirst(), in: legacySettings)
        }
        return nil
    }

    /// The value at a dotted path as host-facing text (strings as they are, numbers as spelled, booleans, objects
    /// and arrays as compact JSON); nil when absent, null or empty. Lives as long as the answer.
    public func text(atPath path: String) -> UnsafePointer<CChar>? {
        guard let value = position(atPath: path), !tape.isEmptyString(value) else { return nil }
        return texts.text(at: value)
    }

    /// `text(atPath:)` as a String.
    public func string(atPath path: String) -> String? { text(atPath: path).map(String.init(answerText:)) }
}
