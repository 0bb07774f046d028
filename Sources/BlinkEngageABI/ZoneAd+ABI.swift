public import CBlinkEngage
import BlinkEngageCore

@c @implementation
public func be_sdk_fetch_zone_ad(
    _ sdk: OpaquePointer?, _ zone_id: UnsafePointer<CChar>?, _ callback: be_zone_ad_callback?, _ user_data: UnsafeMutableRawPointer?
) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let callback else { throw .invalidArgument("callback is NULL") }
        let userData = HostPointer(raw: user_data)
        try engine.fetchZoneAd(zoneID: try hostString(zone_id, "zone_id")) { result in callBack(result, userData, callback) }
    }
}

@c @implementation
public func be_zone_ad_retain(_ ad: OpaquePointer?) -> OpaquePointer? {
    Handle.retain(ad, as: ZoneAd.self)
}

@c @implementation
public func be_zone_ad_release(_ ad: OpaquePointer?) {
    Handle.release(ad, as: ZoneAd.self)
}

@c @implementation
public func be_zone_ad_is_enabled(_ ad: OpaquePointer?) -> Int32 {
    Handle.object(ad, as: ZoneAd.self)?.isEnabled == true ? 1 : 0
}

@c @implementation
public func be_zone_ad_image_url(_ ad: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(ad, as: ZoneAd.self)?.imageURL?.pointer
}

@c @implementation
public func be_zone_ad_link_url(_ ad: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(ad, as: ZoneAd.self)?.linkURL?.pointer
}

@c @implementation
public func be_sdk_report_zone_ad_click(_ sdk: OpaquePointer?, _ ad: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let ad = Handle.object(ad, as: ZoneAd.self) else { throw .invalidArgument("ad is NULL") }
        try engine.reportZoneAdClick(ad)
    }
}
