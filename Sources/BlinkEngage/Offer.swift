internal import BlinkEngageCore

/// One offer, from a Moments answer or the offer feed. Immutable; its fields are read from the answer when
/// asked for. URL fields read only as absolute http(s) URLs (anything else reads as nil); a field that is
/// absent, null or empty reads as nil.
public struct BlinkEngageOffer: Sendable, Hashable, Identifiable {
    let core: Offer

    init(_ core: Offer) { self.core = core }

    private func text(_ key: OfferKey) -> String? { core.fieldText(key).map { String(cString: $0) } }

    /// The offer's id, as decimal text.
    public var id: String { core.id }
    public var campaignID: String? { text(.campaignID) }
    /// `title`, else the legacy `name`.
    public var title: String? { text(.title) }
    public var description: String? { text(.description) }
    public var shortHeadline: String? { text(.shortHeadline) }
    public var shortDescription: String? { text(.shortDescription) }
    public var miniText: String? { text(.miniText) }
    public var advertiserName: String? { text(.advertiserName) }
    /// Where the positive CTA leads.
    public var clickURL: String? { text(.clickURL) }
    /// The main image: the creative marked primary, else `image` (legacy `creative_url`).
    public var imageURL: String? { core.mainImageURL }
    /// The positive and negative CTA labels.
    public var ctaYes: String? { text(.ctaYes) }
    public var ctaNo: String? { text(.ctaNo) }
    public var userActionCTA: String? { text(.userActionCTA) }
    public var userActionURL: String? { text(.userActionURL) }
    public var saveForLaterURL: String? { text(.saveForLaterURL) }
    public var offerwallURL: String? { text(.offerwallURL) }
    public var qrCodeImageURL: String? { text(.qrCodeImage) }
    /// The terms, as HTML.
    public var termsHTML: String? { text(.termsAndConditions) }
    public var isLoyaltyBoost: Bool { text(.isLoyaltyBoost) == "true" }
    public var loyaltyBoostRequirements: String? { text(.loyaltyBoostRequirements) }
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
    public var json: String { String(cString: core.jsonText) }
    /// Any top-level scalar by its wire name ("click_url", a custom key), with the rules of the named fields.
    public subscript(field key: String) -> String? { core.field(key) }
    /// Where the offer sits in the feed that handed it out; nil for a Moments offer.
    public var feedPosition: (group: Int, offer: Int)? {
        core.placement.flatMap { placement in placement.offerPosition.map { (placement.groupPosition, $0) } }
    }

    /// Offers are equal when they are the same offer of the same answer.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(core)) }
}

/// The tracking URLs of an offer; each nil when the answer has none (or not an absolute http(s) URL).
public struct BlinkEngageBeacons: Sendable, Equatable {
    public let pixel: String?
    public let advertiserPixel: String?
    public let close: String?
    public let noThanks: String?
}

/// One creative (image) of an offer.
public struct BlinkEngageCreative: Sendable, Equatable {
    let core: Creative

    init(_ core: Creative) { self.core = core }

    public var id: String? { core.id }
    /// Only an absolute http(s) URL.
    public var url: String? { core.url }
    public var type: String? { core.type }
    public var creativeType: String? { core.creativeType }
    public var aspectRatio: String? { core.aspectRatio }
    public var isPrimary: Bool { core.isPrimary }
    /// The size in pixels; 0 when the answer has no whole number for it.
    public var width: UInt32 { core.pixelWidth }
    public var height: UInt32 { core.pixelHeight }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
}

/// The styles of a Moments answer, by dotted path ("offerText.buttonYes.background"): strings as they are,
/// numbers and booleans as their JSON text, objects and arrays as JSON. `settings.*` paths read
/// `styles.settings` first and fall back to `data.settings`.
public struct BlinkEngageStyles: Sendable {
    let core: Styles

    init(_ core: Styles) { self.core = core }

    public subscript(path: String) -> String? { core.string(atPath: path) }
}
