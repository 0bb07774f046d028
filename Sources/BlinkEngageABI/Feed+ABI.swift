public import CBlinkEngage
import BlinkEngageCore

@c @implementation
public func be_sdk_set_user_identity(_ sdk: OpaquePointer?, _ pub_user_id: UnsafePointer<CChar>?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.setUserIdentity(try hostString(pub_user_id, "pub_user_id"))
    }
}

@c @implementation
public func be_sdk_clear_user_identity(_ sdk: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.clearUserIdentity()
    }
}

@c @implementation
public func be_sdk_load_offer_feed(_ sdk: OpaquePointer?, _ callback: be_offer_feed_callback?, _ user_data: UnsafeMutableRawPointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let callback else { throw .invalidArgument("callback is NULL") }
        let userData = HostPointer(raw: user_data)
        try engine.loadOfferFeed { result in callBack(result, userData, callback) }
    }
}

@c @implementation
public func be_offer_feed_retain(_ feed: OpaquePointer?) -> OpaquePointer? {
    Handle.retain(feed, as: OfferFeed.self)
}

@c @implementation
public func be_offer_feed_release(_ feed: OpaquePointer?) {
    Handle.release(feed, as: OfferFeed.self)
}

@c @implementation
public func be_offer_feed_id(_ feed: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(feed, as: OfferFeed.self)?.idText.pointer
}

@c @implementation
public func be_offer_feed_group_count(_ feed: OpaquePointer?) -> Int {
    Handle.object(feed, as: OfferFeed.self)?.groups.count ?? 0
}

@c @implementation
public func be_offer_feed_group_at(_ feed: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let groups = Handle.object(feed, as: OfferFeed.self)?.groups, groups.indices.contains(index) else { return nil }
    return Handle.borrowed(groups[index])
}

@c @implementation
public func be_offer_group_id(_ group: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(group, as: OfferGroup.self)?.idText.pointer
}

@c @implementation
public func be_offer_group_title(_ group: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(group, as: OfferGroup.self)?.titleText?.pointer
}

@c @implementation
public func be_offer_group_offer_count(_ group: OpaquePointer?) -> Int {
    Handle.object(group, as: OfferGroup.self)?.offers.count ?? 0
}

@c @implementation
public func be_offer_group_offer_at(_ group: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let offers = Handle.object(group, as: OfferGroup.self)?.offers, offers.indices.contains(index) else { return nil }
    return Handle.borrowed(offers[index])
}
