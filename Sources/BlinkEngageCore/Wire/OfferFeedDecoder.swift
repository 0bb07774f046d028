/// Decodes `GET /v1/offer-feed` (docs/PROTOCOL.md section 2).
public enum OfferFeedDecoder {
    public enum Outcome: Sendable {
        case feed(OfferFeed)
        /// `"enabled": false`: the feature is off remotely.
        case disabled
    }

    public struct Failure: Error, Equatable, Sendable { public let reason: String }

    /// - Parameter warnings: gains a message for each offer skipped for lack of an id or with URL fields refused
    ///   (collected, not passed to a closure: with one, the optimiser copies the decoder once per caller).
    /// - Parameter cacheAgeSeconds: set when the body comes from the feed cache: the feed says so, and how old.
    public static func decode(_ body: [UInt8], cacheAgeSeconds: UInt32? = nil) throws(Failure) -> Outcome {
        var warnings: [String] = []
        return try decode(body, cacheAgeSeconds: cacheAgeSeconds, warnings: &warnings)
    }

    public static func decode(_ body: [UInt8], cacheAgeSeconds: UInt32? = nil, warnings: inout [String]) throws(Failure) -> Outcome {
        let tape: JSONTape
        do { tape = try JSONTape(parsing: body) } catch { throw Failure(reason: "the feed is not JSON: \(error)") }
        guard tape.isObject(0) else { throw Failure(reason: "the feed is not a JSON object") }
        guard let enabled = tape.present(0, "enabled") else { throw Failure(reason: "the feed has no \"enabled\"") }
        guard tape.kind(enabled) == .bool else { throw Failure(reason: "\"enabled\" is not a boolean") }
        guard tape.isTrue(enabled) else { return .disabled }
        guard let feedValue = tape.present(0, "feed_id"), tape.isString(feedValue), let feedID = tape.text(feedValue), !feedID.isEmpty else {
            throw Failure(reason: "the feed has no \"feed_id\"")
        }
        guard let groupList = tape.present(0, "groups"), tape.isArray(groupList) else { throw Failure(reason: "\"groups\" is not an array") }
        var groups: [OfferGroup] = []
        let texts = AnswerTexts(tape: tape)
        for (groupPosition, group) in tape.elements(of: groupList).enumerated() {
            guard tape.isObject(group), let idValue = tape.present(group, "id"), tape.isScalar(idValue),
                  let groupID = tape.text(idValue), !groupID.isEmpty else {
                throw Failure(reason: "group \(groupPosition) has no id")
            }
            var offers: [Offer] = []
            if let list = tape.present(group, "offers") {
                guard tape.isArray(list) else { throw Failure(reason: "\"offers\" of group \(groupID) is not an array") }
                for element in tape.elements(of: list) {
                    guard tape.isObject(element) else { throw Failure(reason: "an offer of group \(groupID) is not an object") }
                    let placement = FeedPlacement(feedID: feedID, groupID: groupID, groupPosition: groupPosition, offerPosition: offers.count)
                    do {
                        if let offer = try OfferDecoder.decode(tape, at: element, texts: texts, placement: placement) {
                            if let refusal = OfferDecoder.refusals(of: offer) { warnings.append(refusal) }
                            offers.append(offer)
                        } else {
                            warnings.append("skipped an offer without an id in group \(groupID)")
                        }
                    } catch {
                        throw Failure(reason: error.reason)
                    }
                }
            }
            let title = tape.present(group, "title").flatMap { tape.isString($0) ? tape.text($0) : nil }
            let placement = FeedPlacement(feedID: feedID, groupID: groupID, groupPosition: groupPosition, offerPosition: nil)
            groups.append(OfferGroup(id: groupID, title: title, offers: offers, placement: placement))
        }
        return .feed(OfferFeed(id: feedID, groups: groups, cacheAgeSeconds: cacheAgeSeconds))
    }
}
