/// A decoded Moments API answer: its offers, styles and privacy URL. Immutable; owns its offers.
public final class MomentsResponse: Sendable {
    public let offers: [Offer]
    public let styles: Styles
    public let privacyURL: StableCString?

    public init(offers: [Offer], styles: Styles, privacyURL: String?) {
        self.offers = offers
        self.styles = styles
        self.privacyURL = StableCString.nonEmpty(privacyURL)
    }
}
