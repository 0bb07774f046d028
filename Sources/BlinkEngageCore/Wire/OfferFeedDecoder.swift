/// Decodes `GET /v1/offer-feed` (PROTOCOL.md section 2).
public enum OfferFeedDecoder {
    public enum Outcome: Sendable {
        case feed(OfferFeed)
        /// `"enabled": false`: the feature is off remotely.
        case disabled
    }

    public struct Failure: Error, Equatable, Sendable { public let reason: String }

    /// - Parameter log: receives a message for each offer skipped for lack of an id.
    /// - Parameter cacheAgeSeconds: set when the body comes from the feed cache: the feed says so, and how old.
    public static func decode(_ body: [UInt8], cacheAgeSeconds: UInt32? = nil, log: (String) -> Void = { _ in }) throws(Failure) -> Outcome {
        let root: JSONObject
        do {
            guard let object = try JSONParser.parse(body).objectValue else { throw Failure(reason: "the feed is not a JSON object") }
            root = object
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(reason: "the feed is not JSON: \(error)")
        }
        guard let enabled = root.present("enabled") else { throw Failure(reason: "the feed has no \"enabled\"") }
        guard case .bool(let isEnabled) = enabled else { throw Failure(reason: "\"enabled\" is not a boolean") }
        guard isEnabled else { return .disabled }
        guard let feedID = root.present("feed_id")?.stringValue, !feedID.isEmpty else { throw Failure(reason: "the feed has no \"feed_id\"") }
        guard case .array(let groupValues)? = root.present("groups") else { throw Failure(reason: "\"groups\" is not an array") }
        var groups: [OfferGroup] = []
        let source = JSONSource(body)
        for (groupPosition, value) in groupValues.enumerated() {
            guard let group = value.objectValue, let groupID = group.present("id")?.scalarText, !groupID.isEmpty else {
                throw Failure(reason: "group \(groupPosition) has no id")
            }
            var offers: [Offer] = []
            switch group.present("offers") {
            case nil: break
            case .array(let offerValues)?:
                for value in offerValues {
                    guard let object = value.objectValue else { throw Failure(reason: "an offer of group \(groupID) is not an object") }
                    let placement = FeedPlacement(feedID: feedID, groupID: groupID, groupPosition: groupPosition, offerPosition: offers.count)
                    do {
                        if let offer = try OfferDecoder.decode(object, source: source, placement: placement, log: log) { offers.append(offer) } else {
                            log("skipped an offer without an id in group \(groupID)")
                        }
                    } catch {
                        throw Failure(reason: error.reason)
                    }
                }
            default:
                throw Failure(reason: "\"offers\" of group \(groupID) is not an array")
            }
            let placement = FeedPlacement(feedID: feedID, groupID: groupID, groupPosition: groupPosition, offerPosition: nil)
            groups.append(OfferGroup(id: groupID, title: group.present("title")?.stringValue, offers: offers, placement: placement))
        }
        return .feed(OfferFeed(id: feedID, groups: groups, cacheAgeSeconds: cacheAgeSeconds))
    }
}
