/// A decoded Moments API answer: its offers, styles and privacy URL. Immutable; owns its offers.
public final class MomentsResponse: Sendable {
    public let offers: [Offer]
    public let styles: Styles
    /// `privacy_url` when it reads as an absolute http(s) URL (the decoder checked).
    private let privacy: AnswerURL?
    private let texts: AnswerTexts

    init(offers: [Offer], styles: Styles, privacy: AnswerURL?, texts: AnswerTexts) {
        self.offers = offers
        self.styles = styles
        self.privacy = privacy
        self.texts = texts
    }

    /// `privacy_url` as a C string in the answer's texts, living as long as the response; nil when absent, empty
    /// or not an absolute http(s) URL. Read from the answer when asked for, like an offer's fields.
    public var privacyURLText: UnsafePointer<CChar>? {
        privacy?.text(in: texts)
    }

    public var privacyURL: String? { privacyURLText.map(String.init(answerText:)) }
}
