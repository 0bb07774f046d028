public import CBlinkEngage
import BlinkEngageCore

/// The object behind `be_offer_feed_event *`: the event with everything it copied at creation.
final class FeedEventHandle {
    let event: FeedEvent
    init(_ event: FeedEvent) { self.event = event }
}

private func eventKind(_ type: be_offer_feed_event_type) -> FeedEvent.Kind? {
    FeedEvent.Kind(rawValue: Int(type.rawValue))  // C enums arrive unchecked
}

@c @implementation
public func be_offer_feed_event_new_with_offer(_ offer: OpaquePointer?, _ type: be_offer_feed_event_type) -> OpaquePointer? {
    valueCall { () throws(EngineFailure) -> OpaquePointer? in
        guard let offer = Handle.object(offer, as: Offer.self) else { throw .invalidArgument("offer is NULL") }
        guard let kind = eventKind(type), let event = FeedEvent(offer: offer, kind: kind) else {
            throw .invalidArgument("did_appear and did_tap take an offer from a feed")
        }
        return Handle.retained(FeedEventHandle(event))
    }
}

@c @implementation
public func be_offer_feed_event_new_with_group(_ group: OpaquePointer?, _ type: be_offer_feed_event_type) -> OpaquePointer? {
    valueCall { () throws(EngineFailure) -> OpaquePointer? in
        guard let group = Handle.object(group, as: OfferGroup.self) else { throw .invalidArgument("group is NULL") }
        guard let kind = eventKind(type), let event = FeedEvent(group: group, kind: kind) else {
            throw .invalidArgument("view_all takes a group")
        }
        return Handle.retained(FeedEventHandle(event))
    }
}

@c @implementation
public func be_offer_feed_event_free(_ event: OpaquePointer?) {
    Handle.release(event, as: FeedEventHandle.self)
}

@c @implementation
public func be_sdk_report_visibility(_ sdk: OpaquePointer?, _ offer: OpaquePointer?, _ visible_fraction: Double) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let offer = Handle.object(offer, as: Offer.self) else { throw .invalidArgument("offer is NULL") }
        try engine.reportVisibility(of: offer, fraction: visible_fraction)
    }
}

@c @implementation
public func be_sdk_report_offer_feed_event(_ sdk: OpaquePointer?, _ event: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let handle = Handle.object(event, as: FeedEventHandle.self) else {
            engine.refuseFeedEvent("event is NULL")
            throw .invalidArgument("event is NULL")
        }
        try engine.reportFeedEvent(handle.event)
    }
}
