internal import CJSONScan
import Synchronization

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
    /// Where each documented key's value sits.
    private let members: OfferMembers
    /// The creatives, made the first time they are asked for and kept as long as the offer (the C API lends them
    /// by address). The decoder read what the offer needs of them: their shape and the primary one's URL.
    public var creatives: [Creative] {
        if let made = madeCreatives.load(ordering: .acquiring) {
            return made.takeUnretainedValue().creatives
        }
        return makeCreatives()
    }
    /// A retained `CreativesBox` once made; released in deinit.
    private let madeCreatives = Atomic<Unmanaged<CreativesBox>?>(nil)
    /// The string elements of `tags`, read from the answer when asked for (the decoder checked it is an array
    /// or absent).
    public var tags: [String] {
        guard let value = members[.tags] else { return [] }
        return tape.elements(of: value).compactMap { tape.isString($0) ? tape.text($0) : nil }
    }
    /// The main image: the creative marked primary, else `image` (legacy `creative_url`); only an absolute
    /// http(s) URL.
    public var mainImageURL: String? { mainImage?.string(in: tape) }
    private let mainImage: AnswerURL?
    /// Where the offer sits in the feed that handed it out; nil for a Moments offer.
    public let placement: FeedPlacement?
    /// `id` as a C string in the answer's texts: its own text when the answer spells it so (the usual plain
    /// digits), else a copy made at decode (4001.0, "0042").
    public var idText: UnsafePointer<CChar>? {
        switch idSource {
        case .answer(let position): return texts.text(at: position)
        case .kept(let kept): return kept.pointer
        }
    }
    private enum IDSource { case answer(Int), kept(KeptText) }
    private let idSource: IDSource
    public var mainImageText: UnsafePointer<CChar>? {
        mainImage?.text(in: texts)
    }
    /// URL fields that held something other than an absolute http(s) URL and read as absent; the decoder logs them.
    public let refusedURLKeys: [String]
    /// The `href`s handed out for URL fields that are not their own (nearly always none), each named by its
    /// field's slot in `members.texts`.
    private let hrefs: [KeptText]

    /// - Parameter spelledAt: where the answer spells `id` as it is, when it does (`OfferDecoder`).
    /// - Parameter primaryImage: the URL of the creative marked primary, which the creative read.
    init(id: String, spelledAt idPosition: Int?, tape: JSONTape, position: Int, texts: AnswerTexts, members: OfferMembers,
         primaryImage: AnswerURL?, placement: FeedPlacement?) {
        self.id = id
        self.tape = tape
        self.position = position
        self.texts = texts
        self.placement = placement
        var members = members
        var refusedKeys: [String] = [], hrefs: [KeptText] = []
        // The member walk checked each URL field: only those it could not read as given are read here.
        for key in OfferKey.urlKeys where members.needsReading(key) {
            guard let value = OfferDecoder.nonEmpty(tape, members[key]) else { continue }
            switch tape.withText(value, ServiceURL.read) {
            case .asGiven: continue
            case .rewritten(let href):
                members.texts[key.rawValue] = OfferMembers.rewritten | UInt32(hrefs.count)
                hrefs.append(texts.kept(href))
            case .refused:
                members.texts[key.rawValue] = OfferMembers.noText
                refusedKeys.append(key.wireName.description)
            }
        }
        refusedURLKeys = refusedKeys
        self.hrefs = hrefs
        // The main image: the primary creative's URL, else `image` or `creative_url` as their own slots read them,
        // before the fallback below gives `image` the slot of `creative_url`.
        // The members as a parameter, not captured: a captured `var` cost a dynamic exclusivity check an offer.
        func url(_ key: OfferKey, _ members: OfferMembers) -> AnswerURL? {
            let slot = members.texts[key.rawValue]
            if let href = OfferMembers.href(slot) { return .href(hrefs[href]) }
            guard slot != OfferMembers.noText, let value = members[key] else { return nil }
            return .answer(value)
        }
        mainImage = primaryImage ?? url(.image, members) ?? url(.creativeURL, members)
        // "title" and "image" without a text of their own read as the legacy "name" and "creative_url".
        members.readText(of: .title, elseOf: .name)
        members.readText(of: .image, elseOf: .creativeURL)
        self.members = members
        idSource = idPosition.map { .answer($0) } ?? .kept(texts.kept(id))
    }

    deinit {
        madeCreatives.load(ordering: .acquiring)?.release()
    }

    /// Makes the creatives and publishes them; when another thread published first, that thread's are kept.
    @inline(never)
    private func makeCreatives() -> [Creative] {
        // The decoder refused an offer whose `creatives` is neither an array nor absent or null.
        let array = members[.creatives].flatMap { tape.isArray($0) ? $0 : nil }
        let made = array.map { tape.elements(of: $0).map { Creative(tape: tape, at: $0, texts: texts) } } ?? []
        let box = Unmanaged.passRetained(CreativesBox(made))
        let (stored, existing) = madeCreatives.compareExchange(expected: nil, desired: box, ordering: .acquiringAndReleasing)
        guard !stored, let existing else { return made }
        box.release()
        return existing.takeUnretainedValue().creatives
    }

    /// A top-level scalar by wire name (UTF-8) as a C string that lives as long as the offer; nil when absent,
    /// null, empty or not a scalar, or a URL field that is not an absolute http(s) URL. A repeated key resolves
    /// to its last occurrence; "title" and "image" fall back to the legacy "name" and "creative_url".
    public func fieldText(_ key: UnsafeRawBufferPointer) -> UnsafePointer<CChar>? {
        guard let known = OfferKey(key) else {
            // Not a documented key: never a URL field, found by a walk over the keys.
            return tape.lastMember(of: position, named: key).flatMap(text)
        }
        return fieldText(known)
    }

    /// `fieldText(_:)` of a host's NUL-terminated key: its documented key found in one C call.
    public func fieldText(cString key: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        let index = Int(be_offer_key_of_text(key))
        guard index >= 0 else { return otherFieldText(cString: key) }
        return fieldText(slot: index)
    }

    /// A key that is not a documented one, found by a walk over the offer's keys: out of line, so that a read of
    /// a documented field saves and restores no registers for it.
    @inline(never)
    private func otherFieldText(cString key: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        tape.lastMember(of: position, named: UnsafeRawBufferPointer(start: key, count: strlen(key))).flatMap(text)
    }

    public func fieldText(_ key: String) -> UnsafePointer<CChar>? {
        var key = key
        return key.withUTF8 { fieldText(UnsafeRawBufferPointer($0)) }
    }

    /// A documented field (see `fieldText(_:)` for the rules), without reading its name first.
    public func fieldText(_ key: OfferKey) -> UnsafePointer<CChar>? { fieldText(slot: key.rawValue) }

    /// The documented field whose `OfferKey` raw value is `index`.
    @inline(__always)
    private func fieldText(slot index: Int) -> UnsafePointer<CChar>? {
        let slot = members.texts[index]
        if slot < OfferMembers.rewritten { return texts.scalarText(atOffset: Int(slot)) }
        return OfferMembers.href(slot).map { hrefs[$0].pointer }
    }

    /// The host text of a scalar member, nil for null, "", objects and arrays.
    /// A guard, not `flatMap(texts.text)`: the method reference retained the texts on every read.
    private func text(_ value: Int) -> UnsafePointer<CChar>? {
        guard let value = OfferDecoder.nonEmpty(tape, value) else { return nil }
        return texts.text(at: value)
    }

    /// A top-level scalar by wire name, nil when absent, null, empty or not a scalar.
    public func field(_ key: String) -> String? { fieldText(key).map(String.init(answerText:)) }

    /// The offer as JSON text: its own bytes from the answer (member order, spacing and number spelling as
    /// received), in a copy of the answer made the first time a host asks for an offer's JSON (most never do) and
    /// kept as long as the offer.
    public var jsonText: UnsafePointer<CChar> { texts.offerSource(at: position)! }

    /// A URL of the `beacons` object (`close`, `no_thanks_click`) as a C string: its `href`, read when asked for;
    /// nil when absent, not a string, or not an http(s) URL.
    public func beaconText(_ key: StaticString) -> UnsafePointer<CChar>? {
        guard let beacons = members[.beacons], let value = tape.present(beacons, key) else { return nil }
        return texts.urlText(at: value)
    }

    public var title: String? { field(.title) }
    public var clickURL: String? { field(.clickURL) }
    public var pixelURL: String? { field(.pixel) }
    public var advertiserPixelURL: String? { field(.advertiserPixelURL) }
    public var closeBeaconURL: String? { beaconText("close").map(String.init(answerText:)) }
    public var noThanksBeaconURL: String? { beaconText("no_thanks_click").map(String.init(answerText:)) }

    private func field(_ key: OfferKey) -> String? { fieldText(key).map(String.init(answerText:)) }
}

/// An offer's creatives once made: a class, so that one atomic pointer publishes them.
private final class CreativesBox: Sendable {
    let creatives: [Creative]
    init(_ creatives: [Creative]) { self.creatives = creatives }
}

/// An offer's or group's position in the feed that handed it out, copied into the feed events about it.
public struct FeedPlacement: Sendable, Equatable {
    public let feedID: String
    public let groupID: String
    public let groupPosition: Int
    /// The offer's index in its group; nil for a group.
    public let offerPosition: Int?
}
