internal import BlinkEngageCore

/// One offer, from a Moments answer or the offer feed. Immutable; its fields are read from the answer when
/// asked for. URL fields read only as absolute http(s) URLs (anything else reads as nil); a field that is
/// absent, null or empty reads as nil.
public struct BlinkEngageOffer: Sendable, Hashable, Identifiable {
    let core: Offer

    init(_ core: Offer) { self.core = core }

    private func text(_ key: OfferKey) -> String? { core.fieldText(key).map(String.init(answerText:)) }

    /// The offer's id, as decimal text.
    public var id: String { core.id }
    /// The campaign the offer belongs to.
    public var campaignID: String? { text(.campaignID) }
    /// `title`, else the legacy `name`.
    public var title: String? { text(.title) }
    /// The offer's longer text.
    public var description: String? { text(.description) }
    /// A short headline for small layouts.
    public var shortHeadline: String? { text(.shortHeadline) }
    /// A short description for small layouts.
    public var shortDescription: String? { text(.shortDescription) }
    /// The small print shown under the CTAs.
    public var miniText: String? { text(.miniText) }
    /// The advertiser's name.
    public var advertiserName: String? { text(.advertiserName) }
    /// Where the positive CTA leads.
    public var clickURL: String? { text(.clickURL) }
    /// The main image: the creative marked primary, else `image` (legacy `creative_url`).
    public var imageURL: String? { core.mainImageURL }
    /// The positive and negative CTA labels.
    public var ctaYes: String? { text(.ctaYes) }
    /// The negative CTA's label.
    public var ctaNo: String? { text(.ctaNo) }
    /// The label of the offer's secondary action.
    public var userActionCTA: String? { text(.userActionCTA) }
    /// Where the secondary action leads.
    public var userActionURL: String? { text(.userActionURL) }
    /// Where "save for later" leads.
    public var saveForLaterURL: String? { text(.saveForLaterURL) }
    /// The offer wall's URL.
    public var offerwallURL: String? { text(.offerwallURL) }
    /// An image of a QR code for the offer.
    public var qrCodeImageURL: String? { text(.qrCodeImage) }
    /// The terms, as HTML.
    public var termsHTML: String? { text(.termsAndConditions) }
    /// Whether the offer is a loyalty boost.
    public var isLoyaltyBoost: Bool { text(.isLoyaltyBoost) == "true" }
    /// What the user must do for the loyalty boost.
    public var loyaltyBoostRequirements: String? { text(.loyaltyBoostRequirements) }
    /// The offer's tags (the string elements of `tags`).
    public var tags: [String] { core.tags }
    /// The beacons the SDK fires for this offer: the impression pixel, the advertiser's pixel, and the
    /// `close` and `no_thanks_click` beacons of the single-offer unit.
    public var beacons: BlinkEngageBeacons {
        BlinkEngageBeacons(pixel: core.pixelURL, advertiserPixel: core.advertiserPixelURL, close: core.closeBeaconURL,
                           noThanks: core.noThanksBeaconURL)
    }
    /// The creatives, in the answer's order.
    public var creatives: [BlinkEngageCreative] { core.creatives.map(BlinkEngageCreative.init) }
    /// The offer's own JSON object, as received.
    public var json: String { String(answerText: core.jsonText) }
    /// Any top-level scalar by its wire name ("click_url", a custom key), with the rules of the named fields.
    public subscript(field key: String) -> String? { core.field(key) }
    /// Where the offer sits in the feed that handed it out; nil for a Moments offer.
    public var feedPosition: (group: Int, offer: Int)? {
        core.placement.flatMap { placement in placement.offerPosition.map { (placement.groupPosition, $0) } }
    }

    /// Offers are equal when they are the same offer of the same answer.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
    /// Hashes the offer's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(core)) }
}

/// The tracking URLs of an offer; each nil when the answer has none (or not an absolute http(s) URL).
public struct BlinkEngageBeacons: Sendable, Equatable {
    /// The impression pixel, fired when the offer is shown.
    public let pixel: String?
    /// The advertiser's impression pixel; withheld under COPPA or limited tracking.
    public let advertiserPixel: String?
    /// Fired when the unit is closed on this offer.
    public let close: String?
    /// Fired when the user declines this offer.
    public let noThanks: String?
}

/// One creative (image) of an offer.
public struct BlinkEngageCreative: Sendable, Equatable {
    let core: Creative

    init(_ core: Creative) { self.core = core }

    /// The creative's id.
    public var id: String? { core.id }
    /// Only an absolute http(s) URL.
    public var url: String? { core.url }
    /// The creative's MIME type or kind, as the answer gives it.
    public var type: String? { core.type }
    /// The creative's role (`creative_type`).
    public var creativeType: String? { core.creativeType }
    /// The creative's aspect ratio, as the answer spells it.
    public var aspectRatio: String? { core.aspectRatio }
    /// Whether this is the offer's main image.
    public var isPrimary: Bool { core.isPrimary }
    /// The size in pixels; 0 when the answer has no whole number for it.
    public var width: UInt32 { core.pixelWidth }
    /// The height in pixels; 0 when the answer has no whole number for it.
    public var height: UInt32 { core.pixelHeight }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
}

/// The styles of a Moments answer, by dotted path ("offerText.buttonYes.background"): strings as they are,
/// numbers and booleans as their JSON text, objects and arrays as JSON. `settings.*` paths read
/// `styles.settings` first and fall back to `data.settings`.
public struct BlinkEngageStyles: Sendable {
    let core: Styles

    init(_ core: Styles) { self.core = core }

    /// The style at a dotted path; nil when absent, null or empty.
    public subscript(path: String) -> String? { core.string(atPath: path) }
}
