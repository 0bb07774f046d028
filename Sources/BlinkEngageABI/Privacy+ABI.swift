public import CBlinkEngage
import BlinkEngageCore

/// Applies `change` to the privacy signals of the SDK behind `sdk`.
private func updatePrivacy(_ sdk: OpaquePointer?, _ change: (inout PrivacySignals) throws(EngineFailure) -> Void) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.updatePrivacy(change)
    }
}

@c @implementation
public func be_sdk_set_gdpr(_ sdk: OpaquePointer?, _ applies: Int32, _ tcf_string: UnsafePointer<CChar>?) -> be_status {
    updatePrivacy(sdk) { (signals: inout PrivacySignals) throws(EngineFailure) in
        try signals.setGDPR(applies: Int(applies), consent: try optionalHostString(tcf_string, "tcf_string"))
    }
}

@c @implementation
public func be_sdk_set_us_privacy(_ sdk: OpaquePointer?, _ us_privacy: UnsafePointer<CChar>?) -> be_status {
    updatePrivacy(sdk) { (signals: inout PrivacySignals) throws(EngineFailure) in
        try signals.setUSPrivacy(try optionalHostString(us_privacy, "us_privacy"))
    }
}

@c @implementation
public func be_sdk_set_gpp(_ sdk: OpaquePointer?, _ gpp_string: UnsafePointer<CChar>?, _ section_ids: UnsafePointer<CChar>?) -> be_status {
    updatePrivacy(sdk) { (signals: inout PrivacySignals) throws(EngineFailure) in
        try signals.setGPP(try optionalHostString(gpp_string, "gpp_string"), sections: try optionalHostString(section_ids, "section_ids"))
    }
}

@c @implementation
public func be_sdk_set_child_directed(_ sdk: OpaquePointer?, _ child_directed: Int32) -> be_status {
    updatePrivacy(sdk) { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setChildDirected(Int(child_directed)) }
}

@c @implementation
public func be_sdk_set_limit_tracking(_ sdk: OpaquePointer?, _ limited: Int32) -> be_status {
    updatePrivacy(sdk) { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setLimitTracking(Int(limited)) }
}

@c @implementation
public func be_sdk_delete_user_data(_ sdk: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.deleteUserData()
    }
}

@c @implementation
public func be_sdk_prefetch_moments_offers(_ sdk: OpaquePointer?, _ request: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let handle = Handle.object(request, as: MomentsRequestHandle.self) else { throw .invalidArgument("request is NULL") }
        try engine.prefetchMomentsOffers(handle.request.withLock { $0 })
    }
}

@c @implementation
public func be_offer_feed_is_cached(_ feed: OpaquePointer?) -> Int32 {
    Handle.object(feed, as: OfferFeed.self)?.cacheAgeSeconds == nil ? 0 : 1
}

@c @implementation
public func be_offer_feed_age_s(_ feed: OpaquePointer?) -> UInt32 {
    Handle.object(feed, as: OfferFeed.self)?.cacheAgeSeconds ?? 0
}
