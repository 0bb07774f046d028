public import CBlinkEngage
import BlinkEngageCore

/// The object behind `be_moments_request *`.
final class MomentsRequestHandle {
    let request = Locked(MomentsRequest())
}

private func changeRequest(
    _ request: OpaquePointer?, _ change: (inout MomentsRequest) throws(EngineFailure) -> Void
) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let handle = Handle.object(request, as: MomentsRequestHandle.self) else { throw .invalidArgument("request is NULL") }
        try handle.request.withLock { (request: inout MomentsRequest) throws(EngineFailure) in try change(&request) }
    }
}

@c @implementation
public func be_moments_request_new() -> OpaquePointer? {
    // Inside the fork gate, as every call that runs Swift code to make an object (Handle.release says why).
    valueCall { () throws(EngineFailure) -> OpaquePointer? in Handle.retained(MomentsRequestHandle()) }
}

@c @implementation
public func be_moments_request_free(_ request: OpaquePointer?) {
    Handle.release(request, as: MomentsRequestHandle.self)
}

@c @implementation
public func be_moments_request_set_loyaltyboost(_ request: OpaquePointer?, _ value: UnsafePointer<CChar>?) -> be_status {
    changeRequest(request) { (request: inout MomentsRequest) throws(EngineFailure) in
        try request.setLoyaltyboost(try optionalHostString(value, "value"))
    }
}

@c @implementation
public func be_moments_request_set_creative(_ request: OpaquePointer?, _ value: UnsafePointer<CChar>?) -> be_status {
    changeRequest(request) { (request: inout MomentsRequest) throws(EngineFailure) in
        try request.setCreative(try optionalHostString(value, "value"))
    }
}

@c @implementation
public func be_moments_request_set_campaign_id(_ request: OpaquePointer?, _ campaign_id: UnsafePointer<CChar>?) -> be_status {
    changeRequest(request) { (request: inout MomentsRequest) throws(EngineFailure) in
        try request.setCampaignID(try optionalHostString(campaign_id, "campaign_id"))
    }
}

@c @implementation
public func be_moments_request_set_development(_ request: OpaquePointer?, _ enabled: Int32) -> be_status {
    changeRequest(request) { request in request.development = enabled != 0 }
}

@c @implementation
public func be_moments_request_set_payload(
    _ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> be_status {
    changeRequest(request) { (request: inout MomentsRequest) throws(EngineFailure) in
        try request.setPayload(try hostString(key, "key"), try optionalHostString(value, "value"))
    }
}

@c @implementation
public func be_sdk_fetch_moments_offers(
    _ sdk: OpaquePointer?, _ request: OpaquePointer?, _ callback: be_moments_callback?, _ user_data: UnsafeMutableRawPointer?
) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let handle = Handle.object(request, as: MomentsRequestHandle.self) else { throw .invalidArgument("request is NULL") }
        guard let callback else { throw .invalidArgument("callback is NULL") }
        let userData = HostPointer(raw: user_data)
        try engine.fetchMomentsOffers(handle.request.withLock { $0 }) { result in callBack(result, userData, callback) }
    }
}

@c @implementation
public func be_moments_response_retain(_ response: OpaquePointer?) -> OpaquePointer? {
    Handle.retain(response, as: MomentsResponse.self)
}

@c @implementation
public func be_moments_response_release(_ response: OpaquePointer?) {
    Handle.release(response, as: MomentsResponse.self)
}

@c @implementation
public func be_moments_response_offer_count(_ response: OpaquePointer?) -> Int {
    Handle.object(response, as: MomentsResponse.self)?.offers.count ?? 0
}

@c @implementation
public func be_moments_response_offer_at(_ response: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    Handle.with(response, as: MomentsResponse.self) { response in
        response.offers.indices.contains(index) ? Handle.borrowed(response.offers[index]) : nil
    }
}

@c @implementation
public func be_moments_response_style(_ response: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let response = Handle.object(response, as: MomentsResponse.self),
          let path = recordingFailure({ () throws(EngineFailure) in try hostString(path, "path") }) else { return nil }
    return response.styles.text(atPath: path)
}

@c @implementation
public func be_moments_response_privacy_url(_ response: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(response, as: MomentsResponse.self) { $0.privacyURLText }
}
