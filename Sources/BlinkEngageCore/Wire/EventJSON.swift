/// The Engage event objects (docs/PROTOCOL.md section 2), each as it is queued; `EngageRequests.events` carries up to
/// 100 of them in one request.
enum EventJSON {
    /// A feed event (`did_appear`, `did_tap`, `view_all`) with its id and the time it was reported.
    static func feedEvent(_ event: FeedEvent, id: String, occurredAtMilliseconds: Int64) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("type", .string(event.kind.wireName)),
            ("occurred_at", .string(Timestamp.iso8601(milliseconds: occurredAtMilliseconds))),
            ("feed_id", .string(event.placement.feedID)), ("group_id", .string(event.placement.groupID)),
            ("group_position", .number(String(event.placement.groupPosition))),
        ]
        if let offerID = event.offerID, let position = event.placement.offerPosition {
            members += [("offer_id", .string(offerID)), ("offer_position", .number(String(position)))]
        }
        return JSONValue.object(JSONObject(members)).jsonText
    }

    /// A `viewable_impression`: the offer, where it was in its feed (a feed's offer), and the rule it met.
    static func viewableImpression(of offer: Offer, rule: ViewabilityRule, id: String, occurredAtMilliseconds: Int64) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("type", .string("viewable_impression")),
            ("occurred_at", .string(Timestamp.iso8601(milliseconds: occurredAtMilliseconds))), ("offer_id", .string(offer.id)),
        ]
        if let placement = offer.placement {
            members += [("feed_id", .string(placement.feedID)), ("group_id", .string(placement.groupID)),
                        ("group_position", .number(String(placement.groupPosition)))]
            if let position = placement.offerPosition { members.append(("offer_position", .number(String(position)))) }
        }
        members += [("min_visible_percent", .number(String(Int((rule.threshold * 100).rounded())))),
                    ("min_visible_ms", .number(String(rule.durationNanoseconds / 1_000_000)))]
        return JSONValue.object(JSONObject(members)).jsonText
    }

    /// A `zone_ad_click`, which carries the zone and the link instead of feed fields.
    static func zoneAdClick(zoneID: String, linkURL: String?, id: String, occurredAtMilliseconds: Int64) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("type", .string("zone_ad_click")),
            ("occurred_at", .string(Timestamp.iso8601(milliseconds: occurredAtMilliseconds))), ("zone_id", .string(zoneID)),
        ]
        if let linkURL { members.append(("link_url", .string(linkURL))) }
        return JSONValue.object(JSONObject(members)).jsonText
    }
}
