/// Decodes the offer shape shared by the Moments API and the offer feed (PROTOCOL.md section 1).
///
/// Every key but `id` is optional, unknown keys are ignored, `null` counts as absent and so does `""` in URL
/// fields. A container of the wrong kind (`beacons` that is not an object, say) is a shape error.
enum OfferDecoder {
    struct ShapeError: Error { let reason: String }

    /// The decoded offer, or nil when it has no usable `id` (the caller skips and logs it).
    /// - Parameter source: the text `object` was parsed from; the offer then hands out its own bytes as JSON.
    static func decode(_ object: JSONObject, source: JSONSource? = nil, placement: FeedPlacement? = nil,
                       log: (String) -> Void = { _ in }) throws(ShapeError) -> Offer? {
        guard let id = idText(object.present("id")) else { return nil }
        if let beacons = object.present("beacons"), beacons.objectValue == nil {
            throw ShapeError(reason: "offer \(id): beacons is not an object")
        }
        let creatives = try decodeCreatives(object.present("creatives"), offerID: id)
        let tags: [String]
        switch object.present("tags") {
        case nil: tags = []
        case .array(let elements)?: tags = elements.compactMap(\.stringValue)
        default: throw ShapeError(reason: "offer \(id): tags is not an array")
        }
        let primary = creatives.first(where: { $0.isPrimary })?.url
        let image = nonEmptyText(object.present("image")) ?? nonEmptyText(object.present("creative_url"))
        let offer = Offer(id: id, object: object, creatives: creatives, tags: tags, mainImageURL: primary ?? image,
                          placement: placement, source: source)
        if !offer.refusedURLKeys.isEmpty {
            log("offer \(SafeText.clean(id)): \(offer.refusedURLKeys.joined(separator: ", ")) not an http(s) URL; treated as absent")
        }
        return offer
    }

    /// An integer id as its decimal text; a string of digits is accepted too.
    static func idText(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let text)?:
            guard let integer = Int64(text) else {
                // 4001.0 or 4.001e3: accept only when it is a whole number.
                guard let double = Double(text), double.rounded() == double, abs(double) < 9.0e15 else { return nil }
                return String(Int64(double))
            }
            return String(integer)
        case .string(let text)?:
            guard !text.isEmpty, text.allSatisfy(\.isASCII), let integer = Int64(text) else { return nil }
            return String(integer)
        default:
            return nil
        }
    }

    private static func nonEmptyText(_ value: JSONValue?) -> String? {
        guard let text = value?.scalarText, !text.isEmpty, value?.isScalar == true else { return nil }
        return text
    }

    private static func decodeCreatives(_ value: JSONValue?, offerID: String) throws(ShapeError) -> [Creative] {
        guard let value else { return [] }
        guard case .array(let elements) = value else { throw ShapeError(reason: "offer \(offerID): creatives is not an array") }
        var creatives: [Creative] = []
        for element in elements {
            guard let creative = element.objectValue else { throw ShapeError(reason: "offer \(offerID): a creative is not an object") }
            func text(_ key: String) -> String? { nonEmptyText(creative.present(key)) }
            creatives.append(Creative(
                id: text("id"), url: text("url"), width: text("width"), height: text("height"), type: text("type"),
                creativeType: text("creative_type"), isPrimary: creative.present("is_primary") == .bool(true),
                aspectRatio: text("aspect_ratio")))
        }
        return creatives
    }
}
