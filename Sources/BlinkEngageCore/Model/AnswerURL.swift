/// A URL member of an answer that reads as an absolute http(s) URL (`ServiceURL.read`): its own text in the answer
/// when it is its own `href` (nearly always, at the cost of one scan), else the `href` a browser would open, kept
/// in the answer's texts.
enum AnswerURL: Sendable {
    case answer(Int)
    case href(KeptText)

    /// nil when the member at `position` is absent, null, empty, not a scalar, or refused.
    static func read(_ tape: JSONTape, _ position: Int?, texts: AnswerTexts) -> AnswerURL? {
        guard let position = OfferDecoder.nonEmpty(tape, position) else { return nil }
        switch tape.withText(position, ServiceURL.read) {
        case .asGiven: return .answer(position)
        case .rewritten(let href): return .href(texts.kept(href))
        case .refused: return nil
        }
    }

    /// The URL as a C string living as long as `texts`.
    func text(in texts: AnswerTexts) -> UnsafePointer<CChar>? {
        switch self {
        case .answer(let position): return texts.text(at: position)
        case .href(let kept): return kept.pointer
        }
    }

    func string(in tape: JSONTape) -> String? {
        switch self {
        case .answer(let position): return tape.text(position)
        case .href(let kept): return String(answerText: kept.pointer)
        }
    }

    /// Where the answer spells the URL, when it is handed out as given.
    var position: Int? {
        if case .answer(let position) = self { return position }
        return nil
    }
}
