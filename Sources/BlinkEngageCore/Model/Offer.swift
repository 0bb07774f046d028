/// One offer, decoded once and immutable. A final class because the C API hands offers out by identity: its
/// address is stable and its C strings live exactly as long as the feed or response that owns it.
public final class Offer: Sendable {
    /// The wire id as a decimal string.
    public let id: String
    /// The offer object as received, for `be_offer_json` and top-level lookups by wire name.
    public let object: JSONObject
    public let creatives: [Creative]
    public let tags: [String]
    /// The main image: the creative marked primary, else `image` (legacy `creative_url`).
    public let mainImageURL: String?
    /// Where the offer sits in the feed that handed it out; nil for a Moments offer.
    public let placement: FeedPlacement?

    /// Every top-level scalar by wire name (legacy aliases resolved), as host-facing C strings built once.
    /// In wire order; a repeated key's last value wins, as in `JSONObject`. A list, not a dictionary: an offer has
    /// a few dozen short keys, and comparing them costs less than hashing them.
    private let fieldTexts: [(key: String, text: StableCString)]
    public let idText: StableCString
    public let mainImageText: StableCString?
    /// The offer as JSON text: its own bytes from the answer (member order, spacing and number spelling as
    /// received), copied once the first time a host asks (most never do) and kept, so the pointer handed out
    /// lives as long as the offer. An offer not parsed from an answer writes itself out instead.
    public var jsonText: StableCString {
        json.withLock { cached in
            if let cached { return cached }
            let text = source?.text(of: object).map { StableCString(bytes: $0) } ?? StableCString(JSONValue.object(object).jsonText)
            cached = text
            return text
        }
    }
    private let json = Locked<StableCString?>(nil)
    /// The answer this offer was decoded from (kept alive for `jsonText`), or nil.
    private let source: JSONSource?

    /// Legacy wire names and the keys they stand for.
    static let legacyAliases = ["title": "name", "image": "creative_url"]

    /// Top-level keys whose values are URLs a host opens, loads or fires: only absolute http(s) URLs are
    /// handed out; anything else (`javascript:`, `file:`, `intent:` ...) reads as absent. A switch, not a set:
    /// every member of every offer is looked up, and comparing costs less than hashing.
    static func isURLKey(_ key: String) -> Bool {
        switch key {
        case "click_url", "useraction_url", "image", "creative_url", "save_for_later_url", "offerwall_url", "qr_code_img",
             "pixel", "adv_pixel_url":
            return true
        default:
            return false
        }
    }

    /// URL fields that held something other than an absolute http(s) URL and read as absent; the decoder logs them.
    public let refusedURLKeys: [String]

    init(id: String, object: JSONObject, creatives: [Creative], tags: [String], mainImageURL: String?, placement: FeedPlacement?,
         source: JSONSource? = nil) {
        self.id = id
        self.source = source
        self.placement = placement
        self.object = object
        self.creatives = creatives
        self.tags = tags
        var refused: [String] = []
        self.mainImageURL = mainImageURL.flatMap { ServiceURL.isAbsoluteHTTP($0) ? $0 : nil }
        if mainImageURL != nil, self.mainImageURL == nil { refused.append("main image") }
        var texts: [(key: String, text: StableCString)] = []
        texts.reserveCapacity(object.members.count)
        for member in object.members where member.value.isScalar {
            guard let text = member.value.scalarText, !text.isEmpty else { continue }
            if Offer.isURLKey(member.key), !ServiceURL.isAbsoluteHTTP(text) {
                refused.append(member.key)
                continue
            }
            texts.append((member.key, StableCString(text)))
        }
        refusedURLKeys = refused
        for (key, legacy) in Offer.legacyAliases where !texts.contains(where: { $0.key == key }) {
            if let found = texts.last(where: { $0.key == legacy }) { texts.append((key, found.text)) }
        }
        fieldTexts = texts
        idText = StableCString(id)
        mainImageText = StableCString.nonEmpty(self.mainImageURL)
    }

    /// A top-level scalar by wire name as a C string, nil when absent, null, empty or not a scalar.
    public func fieldText(_ key: String) -> StableCString? { fieldTexts.last(where: { JSONObject.sameKey($0.key, key) })?.text }

    /// A top-level scalar by wire name, nil when absent, null, empty or not a scalar.
    public func field(_ key: String) -> String? { fieldText(key)?.string }

    public var title: String? { field("title") }
    public var clickURL: String? { field("click_url") }
    public var pixelURL: String? { field("pixel") }
    public var advertiserPixelURL: String? { field("adv_pixel_url") }
    public var closeBeaconURL: String? { beacon("close") }
    public var noThanksBeaconURL: String? { beacon("no_thanks_click") }

    private func beacon(_ key: String) -> String? {
        guard let text = object.present("beacons")?.objectValue?.present(key)?.stringValue, ServiceURL.isAbsoluteHTTP(text) else { return nil }
        return text
    }
}

/// An offer's or group's position in the feed that handed it out, copied into the feed events about it.
public struct FeedPlacement: Sendable, Equatable {
    public let feedID: String
    public let groupID: String
    public let groupPosition: Int
    /// The offer's index in its group; nil for a group.
    public let offerPosition: Int?
}
