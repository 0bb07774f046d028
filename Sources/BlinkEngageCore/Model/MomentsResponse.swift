/// A decoded Moments API answer: its offers, styles and privacy URL. Immutable; owns its offers.
public final class MomentsResponse: Sendable {
    public let offers: [Offer]
    public let styles: Styles
    /// Where `privacy_url` sits in the answer when it is a non-empty absolute http(s) URL (the decoder checked).
    private let privacyPosition: Int?
    private let texts: AnswerTexts

    init(offers: [Offer], styles: Styles, privacyPosition: Int?, texts: AnswerTexts) {
        self.offers = offers
        self.styles = styles
        self.privacyPosition = privacyPosition
        self.texts = texts
    }

    /// `privacy_url` as a C string in the answer's texts, living as long as the response; nil when absent, empty
    /// or not an absolute http(s) URL. Read from the answer when asked for, like an offer's fields.
    public var privacyURLText: UnsafePointer<CChar>? {
        guard let privacyPosition else { return nil }
        return texts.text(at: privacyPosition)
    }

    public var privacyURL: String? { privacyURLText.map { String(cString: $0) } }
}
