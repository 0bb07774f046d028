/// Decodes the offer shape shared by the Moments API and the offer feed (PROTOCOL.md section 1), from the
/// answer's tape: only what every offer needs now (id, creatives, tags, the URL checks) is read here; the other
/// fields are read when a host asks for them.
///
/// Every key but `id` is optional, unknown keys are ignored, `null` counts as absent and so does `""` in URL
/// fields. A container of the wrong kind (`beacons` that is not an object, say) is a shape error.
enum OfferDecoder {
    struct ShapeError: Error { let reason: String }

    /// The decoded offer, or nil when it has no usable `id` (the caller skips and logs it).
    static func decode(_ tape: JSONTape, at object: Int, texts: AnswerTexts, placement: FeedPlacement? = nil,
                       log: (String) -> Void = { _ in }) throws(ShapeError) -> Offer? {
        guard let id = idText(tape, tape.present(object, "id")) else { return nil }
        if let beacons = tape.present(object, "beacons"), !tape.isObject(beacons) {
            throw ShapeError(reason: "offer \(id): beacons is not an object")
        }
        let creatives = try decodeCreatives(tape, tape.present(object, "creatives"), offerID: id)
        var tags: [String] = []
        if let value = tape.present(object, "tags") {
            guard tape.isArray(value) else { throw ShapeError(reason: "offer \(id): tags is not an array") }
            tags = tape.elements(of: value).filter(tape.isString).compactMap(tape.text)
        }
        let primary = creatives.first(where: { $0.isPrimary })?.url
        let image = nonEmptyText(tape, tape.present(object, "image")) ?? nonEmptyText(tape, tape.present(object, "creative_url"))
        let offer = Offer(id: id, tape: tape, position: object, texts: texts, creatives: creatives, tags: tags,
                          mainImageURL: primary ?? image, placement: placement)
        if !offer.refusedURLKeys.isEmpty {
            log("offer \(SafeText.clean(id)): \(offer.refusedURLKeys.joined(separator: ", ")) not an http(s) URL; treated as absent")
        }
        return offer
    }

    /// An integer id as its decimal text; a string of digits is accepted too.
    static func idText(_ tape: JSONTape, _ position: Int?) -> String? {
        guard let position, let text = tape.text(position) else { return nil }
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

    private static func nonEmptyText(_ tape: JSONTape, _ position: Int?) -> String? {
        guard let position, tape.isScalar(position), let text = tape.text(position), !text.isEmpty else { return nil }
        return text
    }

    private static func decodeCreatives(_ tape: JSONTape, _ position: Int?, offerID: String) throws(ShapeError) -> [Creative] {
        guard let position else { return [] }
        guard tape.isArray(position) else { throw ShapeError(reason: "offer \(offerID): creatives is not an array") }
        var creatives: [Creative] = []
        for element in tape.elements(of: position) {
            guard tape.isObject(element) else { throw ShapeError(reason: "offer \(offerID): a creative is not an object") }
            func text(_ key: StaticString) -> String? { nonEmptyText(tape, tape.present(element, key)) }
            creatives.append(Creative(
                id: text("id"), url: text("url"), width: text("width"), height: text("height"), type: text("type"),
                creativeType: text("creative_type"), isPrimary: tape.present(element, "is_primary").map(tape.isTrue) == true,
                aspectRatio: text("aspect_ratio")))
        }
        return creatives
    }
}
