/// One offer, decoded once and immutable. A final class because the C API hands offers out by identity: its
/// address is stable and its C strings live exactly as long as the feed or response that owns it.
///
/// An offer is a position in the tape of the answer it came in: its fields are read from the answer's bytes
/// when asked for, and made into C strings (in the answer's `AnswerTexts`) only then.
public final class Offer: Sendable {
    /// The wire id as a decimal string.
    public let id: String
    /// The answer this offer was read from and where its object sits in it.
    public let tape: JSONTape
    public let position: Int
    private let texts: AnswerTexts
    public let creatives: [Creative]
    public let tags: [String]
    /// The main image: the creative marked primary, else `image` (legacy `creative_url`); only an absolute
    /// http(s) URL.
    public var mainImageURL: String? { mainImage.flatMap(tape.text) }
    /// Where the main image's URL sits in the tape.
    private let mainImage: Int?
    /// Where the offer sits in the feed that handed it out; nil for a Moments offer.
    public let placement: FeedPlacement?
    public let idText: StableCString
    public var mainImageText: UnsafePointer<CChar>? {
        guard let mainImage else { return nil }
        return texts.text(at: mainImage) { tape.withText(mainImage, AnswerTexts.copy) }
    }
    /// URL fields that held something other than an absolute http(s) URL and read as absent; the decoder logs them.
    public let refusedURLKeys: [String]
    /// The ordinals (among the object's members) of those refused fields.
    private let refusedOrdinals: [Int]

    init(id: String, tape: JSONTape, position: Int, texts: AnswerTexts, creatives: [Creative], tags: [String],
         mainImage: Int?, placement: FeedPlacement?) {
        self.id = id
        self.tape = tape
        self.position = position
        self.texts = texts
        self.placement = placement
        self.creatives = creatives
        self.tags = tags
        var refused: [String] = [], refusedOrdinals: [Int] = []
        let isHTTP = mainImage.map { tape.withText($0) { ServiceURL.isAbsoluteHTTP($0) } }
        self.mainImage = isHTTP == true ? mainImage : nil
        if isHTTP == false { refused.append("main image") }
        var ordinal = 0
        tape.forEachMember(of: position) { key, value in
            defer { ordinal += 1 }
            guard tape.isScalar(value), tape.withText(key, Offer.isURLKey) else { return }
            let acceptable = tape.withText(value) { $0.isEmpty || ServiceURL.isAbsoluteHTTP(UnsafeRawBufferPointer($0)) }
            if !acceptable {
                refused.append(tape.text(key) ?? "")
                refusedOrdinals.append(ordinal)
            }
        }
        refusedURLKeys = refused
        self.refusedOrdinals = refusedOrdinals
        idText = StableCString(id)
    }

    /// Top-level keys whose values are URLs a host opens, loads or fires: only absolute http(s) URLs are
    /// handed out; anything else (`javascript:`, `file:`, `intent:` ...) reads as absent. A switch, not a set:
    /// every member of every offer is looked up, and comparing costs less than hashing.
    static func isURLKey(_ key: UnsafeRawBufferPointer) -> Bool {
        func equals(_ name: StaticString) -> Bool { JSONTape.equal(key, name) }
        switch key.count {
        case 5: return equals("image") || equals("pixel")
        case 9: return equals("click_url")
        case 11: return equals("qr_code_img")
        case 12: return equals("creative_url")
        case 13: return equals("offerwall_url") || equals("adv_pixel_url")
        case 14: return equals("useraction_url")
        case 18: return equals("save_for_later_url")
        default: return false
        }
    }

    /// A top-level scalar by wire name (UTF-8) as a C string that lives as long as the offer; nil when absent,
    /// null, empty or not a scalar, or a URL field that is not an absolute http(s) URL. A repeated key resolves
    /// to its last occurrence; "title" and "image" fall back to the legacy "name" and "creative_url".
    public func fieldText(_ key: UnsafeRawBufferPointer) -> UnsafePointer<CChar>? {
        if let text = memberText(key) { return text }
        func named(_ name: StaticString) -> Bool { JSONTape.equal(key, name) }
        if named("title") { return ("name" as StaticString).withUTF8Buffer { memberText(UnsafeRawBufferPointer($0)) } }
        if named("image") { return ("creative_url" as StaticString).withUTF8Buffer { memberText(UnsafeRawBufferPointer($0)) } }
        return nil
    }

    public func fieldText(_ key: String) -> UnsafePointer<CChar>? {
        var key = key
        return key.withUTF8 { fieldText(UnsafeRawBufferPointer($0)) }
    }

    private func memberText(_ key: UnsafeRawBufferPointer) -> UnsafePointer<CChar>? {
        guard let (ordinal, value) = tape.lastMember(of: position, named: key), tape.isScalar(value),
              !tape.isEmptyString(value), !refusedOrdinals.contains(ordinal) else { return nil }
        return texts.text(at: value) { tape.withText(value, AnswerTexts.copy) }
    }

    /// A top-level scalar by wire name, nil when absent, null, empty or not a scalar.
    public func field(_ key: String) -> String? { fieldText(key).map { String(cString: $0) } }

    /// The offer as JSON text: its own bytes from the answer (member order, spacing and number spelling as
    /// received), copied the first time a host asks (most never do) and kept as long as the offer.
    public var jsonText: UnsafePointer<CChar> {
        texts.text(at: position) { tape.sourceBytes(position).withUnsafeBytes(AnswerTexts.copy) }!
    }

    public var title: String? { field("title") }
    public var clickURL: String? { field("click_url") }
    public var pixelURL: String? { field("pixel") }
    public var advertiserPixelURL: String? { field("adv_pixel_url") }
    public var closeBeaconURL: String? { beacon("close") }
    public var noThanksBeaconURL: String? { beacon("no_thanks_click") }

    private func beacon(_ key: StaticString) -> String? {
        guard let beacons = tape.present(position, "beacons"), let value = tape.present(beacons, key), tape.isString(value),
              let text = tape.text(value), ServiceURL.isAbsoluteHTTP(text) else { return nil }
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
