/// Decodes the offer shape shared by the Moments API and the offer feed (docs/PROTOCOL.md section 1), from the
/// answer's tape: only what every offer needs now (id, creatives, tags, the URL checks) is read here; the other
/// fields are read when a host asks for them.
///
/// Every key but `id` is optional, unknown keys are ignored, `null` counts as absent and so does `""` in URL
/// fields. A container of the wrong kind (`beacons` that is not an object, say) is a shape error.
enum OfferDecoder {
    struct ShapeError: Error { let reason: String }

    /// The decoded offer, or nil when it has no usable `id` (the caller skips and logs it). Takes no logger (the
    /// caller logs `refusals(of:)`): with a closure, the optimiser would copy this function once per caller.
    static func decode(_ tape: JSONTape, at object: Int, texts: AnswerTexts, placement: FeedPlacement? = nil) throws(ShapeError) -> Offer? {
        let members = OfferMembers(tape, object)
        func present(_ key: OfferKey) -> Int? { members[key].flatMap { tape.kind($0) == .null ? nil : $0 } }
        let idPosition = present(.id)
        // An id the answer spells as its decimal text is handed out from the answer's texts (`Offer.idText`).
        let spelled = idPosition.flatMap { spelledID(tape, $0) }
        guard let id = spelled ?? idPosition.flatMap({ normalisedID(tape, $0) }) else { return nil }
        if let beacons = present(.beacons), !tape.isObject(beacons) {
            throw ShapeError(reason: "offer \(id): beacons is not an object")
        }
        let primaryImage = try primaryCreativeURL(tape, present(.creatives), texts: texts, offerID: id)
        // Tags are read from the answer when asked for (`Offer.tags`); only their shape is checked now.
        if let value = present(.tags), !tape.isArray(value) { throw ShapeError(reason: "offer \(id): tags is not an array") }
        return Offer(id: id, spelledAt: spelled == nil ? nil : idPosition, tape: tape, position: object, texts: texts,
                     members: members, primaryImage: primaryImage, placement: placement)
    }

    /// The log line for an offer's URL fields that read as absent, if any.
    static func refusals(of offer: Offer) -> String? {
        guard !offer.refusedURLKeys.isEmpty else { return nil }
        return "offer \(SafeText.clean(offer.id)): \(offer.refusedURLKeys.joined(separator: ", ")) not an http(s) URL; treated as absent"
    }

    /// An integer id as its decimal text; a string of digits is accepted too.
    static func idText(_ tape: JSONTape, _ position: Int?) -> String? {
        guard let position else { return nil }
        return spelledID(tape, position) ?? normalisedID(tape, position)
    }

    /// The usual id, up to 18 digits without a sign or a leading zero (a number or a string), which is its own
    /// decimal text: taken as it is, without the round trip through Int64 of `normalisedID`.
    private static func spelledID(_ tape: JSONTape, _ position: Int) -> String? {
        let kind = tape.kind(position)
        guard kind == .number || kind == .string else { return nil }
        return tape.withText(position) { bytes -> String? in
            guard bytes.count > 0, bytes.count <= 18, bytes[0] != UInt8(ascii: "0") || bytes.count == 1,
                  bytes.allSatisfy(ASCII.isDigit) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Any other id that is a whole number, as its decimal text (4001.0, "0042").
    private static func normalisedID(_ tape: JSONTape, _ position: Int) -> String? {
        guard let text = tape.text(position) else { return nil }
        switch tape.kind(position) {
        case .number:
            guard let integer = Int64(text) else {
                // 4001.0 or 4.001e3: accept only when it is a whole number.
                guard let double = Double(text), double.rounded() == double, abs(double) < 9.0e15 else { return nil }
                return String(Int64(double))
            }
            return String(integer)
        case .string:
            guard !text.isEmpty, text.allSatisfy(\.isASCII), let integer = Int64(text) else { return nil }
            return String(integer)
        default:
            return nil
        }
    }

    /// A scalar with non-empty text, or nil.
    static func nonEmpty(_ tape: JSONTape, _ position: Int?) -> Int? {
        guard let position, tape.isScalar(position), !tape.isEmptyString(position) else { return nil }
        return position
    }

    /// Checks the shape of `creatives` and reads the URL of the first one marked primary. The creatives
    /// themselves are made when asked for (`Offer.creatives`): most hosts never ask, and made here they cost an
    /// object each and an array an offer.
    private static func primaryCreativeURL(_ tape: JSONTape, _ position: Int?, texts: AnswerTexts, offerID: String) throws(ShapeError) -> AnswerURL? {
        guard let position else { return nil }
        guard tape.isArray(position) else { throw ShapeError(reason: "offer \(offerID): creatives is not an array") }
        var primary: AnswerURL?, found = false
        for element in tape.elements(of: position) {
            guard tape.isObject(element) else { throw ShapeError(reason: "offer \(offerID): a creative is not an object") }
            guard !found else { continue }
            let members = tape.creativeMembers(of: element)
            if Creative.isPrimary(members, tape: tape) {
                found = true
                primary = Creative.url(members, tape: tape, texts: texts)
            }
        }
        return primary
    }
}
