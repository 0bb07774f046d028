internal import CJSONScan

/// The offer keys docs/PROTOCOL.md documents (section 1), legacy aliases included. Each offer sorts its members into
/// them once, when it is decoded, so a host reading a documented field finds it at once instead of walking the
/// offer's keys; any other key is still found by a walk.
public enum OfferKey: Int, CaseIterable, Sendable {
    case id, campaignID, title, description, clickURL, image, miniText, termsAndConditions, pixel, advertiserPixelURL
    case ctaYes, ctaNo, userActionCTA, userActionURL, beacons, creatives, shortHeadline, shortDescription
    case advertiserName, isLoyaltyBoost, loyaltyBoostRequirements, saveForLaterURL, tags, offerDescription
    case offerwallURL, qrCodeImage, name, creativeURL

    /// How many keys an offer's member table holds: the one literal, in `OfferMembers.Positions`; a test holds
    /// it to `allCases.count`.
    static var count: Int { OfferMembers.Positions.count }

    /// The keys for which `isURL` holds, in declaration order: what every decoded offer checks (a walk over
    /// `allCases` made an array each time).
    static let urlKeys: [OfferKey] = allCases.filter(\.isURL)

    /// Keys whose values are URLs a host opens, loads or fires: only absolute http(s) URLs are handed out;
    /// anything else (`javascript:`, `file:`, `intent:` ...) reads as absent.
    var isURL: Bool {
        switch self {
        case .clickURL, .userActionURL, .image, .creativeURL, .saveForLaterURL, .offerwallURL, .qrCodeImage, .pixel,
             .advertiserPixelURL:
            return true
        default:
            return false
        }
    }

    /// The key as the wire spells it.
    var wireName: StaticString {
        switch self {
        case .id: return "id"
        case .campaignID: return "campaign_id"
        case .title: return "title"
        case .description: return "description"
        case .clickURL: return "click_url"
        case .image: return "image"
        case .miniText: return "mini_text"
        case .termsAndConditions: return "terms_and_conditions"
        case .pixel: return "pixel"
        case .advertiserPixelURL: return "adv_pixel_url"
        case .ctaYes: return "cta_yes"
        case .ctaNo: return "cta_no"
        case .userActionCTA: return "useraction_cta"
        case .userActionURL: return "useraction_url"
        case .beacons: return "beacons"
        case .creatives: return "creatives"
        case .shortHeadline: return "short_headline"
        case .shortDescription: return "short_description"
        case .advertiserName: return "advertiser_name"
        case .isLoyaltyBoost: return "is_loyaltyboost"
        case .loyaltyBoostRequirements: return "loyaltyboost_requirements"
        case .saveForLaterURL: return "save_for_later_url"
        case .tags: return "tags"
        case .offerDescription: return "offer_description"
        case .offerwallURL: return "offerwall_url"
        case .qrCodeImage: return "qr_code_img"
        case .name: return "name"
        case .creativeURL: return "creative_url"
        }
    }

    /// The key `bytes` spell, if documented (`be_offer_key`, CJSONScan/offer.h, which spells every `wireName`
    /// again: it runs for every member of every offer and every field read; `documentedOfferKeysRoundTrip` holds
    /// the two together).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let name = bytes.baseAddress,
              let key = OfferKey(rawValue: Int(be_offer_key_index(name.assumingMemoryBound(to: UInt8.self), bytes.count))) else {
            return nil
        }
        self = key
    }
}

/// Where an offer's documented members sit in its answer's tape: the value of each key's last occurrence, and
/// where its host text is.
struct OfferMembers {
    /// A slot per `OfferKey` (a type's size must be a literal).
    typealias Positions = InlineArray<28, UInt32>
    /// `UInt32.max` for an absent key (a tape's positions are below it).
    private var positions = Positions(repeating: .max)
    /// Each key's host text, found here so that `Offer.fieldText` is one load (a host reads every field of every
    /// offer it shows; finding the text at each read cost about 80 instructions): the offset of a non-empty
    /// scalar's text in the answer's scalar texts (below 2^31, as a tape's offsets are), `rewritten | i` for the
    /// offer's i-th URL handed out as its `href`, or `noText`.
    var texts = Positions(repeating: Self.noText)
    static var noText: UInt32 { .max }
    static var rewritten: UInt32 { 0x8000_0000 }

    /// Which of the offer's `href`s a `texts` slot names; nil for a text's offset or `noText`.
    @inline(__always) static func href(_ slot: UInt32) -> Int? {
        slot & rewritten != 0 && slot != noText ? Int(slot & ~rewritten) : nil
    }

    /// The URL fields whose values need the URL parser, as bits of their `OfferKey` raw values; every other URL field
    /// is absent or its own `href` (`be_offer_url_needs_reading`, CJSONScan/offer.h).
    private(set) var unreadURLs: UInt32 = 0

    /// One walk over the offer's members.
    init(_ tape: JSONTape, _ object: Int) {
        unreadURLs = tape.readOfferMembers(of: object, positions: &positions, texts: &texts)
    }

    /// Whether `key`'s value needs the URL parser.
    func needsReading(_ key: OfferKey) -> Bool { unreadURLs >> UInt32(key.rawValue) & 1 != 0 }

    /// Makes `key` without a text of its own read as `legacy`.
    mutating func readText(of key: OfferKey, elseOf legacy: OfferKey) {
        if texts[key.rawValue] == Self.noText { texts[key.rawValue] = texts[legacy.rawValue] }
    }

    /// The value's position, nil when the key is absent.
    subscript(key: OfferKey) -> Int? {
        let position = positions[key.rawValue]
        return position == .max ? nil : Int(position)
    }
}
