internal import CBlinkEngage
import BlinkEngageCore

/// A top-level field of the offer behind `offer`, borrowed from its owner.
private func offerField(_ offer: OpaquePointer?, _ key: OfferKey) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.fieldText(key) }
}

@c @implementation
public func be_offer_id(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.idText }
}

@c @implementation
public func be_offer_title(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .title) }

@c @implementation
public func be_offer_description(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .description) }

@c @implementation
public func be_offer_image_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.mainImageText }
}

@c @implementation
public func be_offer_click_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .clickURL) }

@c @implementation
public func be_offer_pixel_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .pixel) }

@c @implementation
public func be_offer_adv_pixel_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .advertiserPixelURL) }

@c @implementation
public func be_offer_close_beacon_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.beaconText("close") }
}

@c @implementation
public func be_offer_no_thanks_beacon_url(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.beaconText("no_thanks_click") }
}

@c @implementation
public func be_offer_cta_yes(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .ctaYes) }

@c @implementation
public func be_offer_cta_no(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .ctaNo) }

@c @implementation
public func be_offer_terms_html(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? { offerField(offer, .termsAndConditions) }

@c @implementation
public func be_offer_field(_ offer: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let key else { return nullKey() }
    return Handle.with(offer, as: Offer.self) { $0.fieldText(cString: key) }
}

/// `be_offer_field`'s NULL key, recorded as the thread's message: out of line, so that a read saves and restores
/// no registers for it.
@inline(never)
private func nullKey() -> UnsafePointer<CChar>? {
    recordingFailure({ () throws(EngineFailure) in throw .invalidArgument("key is NULL") })
    return nil
}

@c @implementation
public func be_offer_json(_ offer: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(offer, as: Offer.self) { $0.jsonText }
}

@c @implementation
public func be_offer_creative_count(_ offer: OpaquePointer?) -> Int {
    Handle.object(offer, as: Offer.self)?.creatives.count ?? 0
}

@c @implementation
public func be_offer_creative_at(_ offer: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let creatives = Handle.object(offer, as: Offer.self)?.creatives, creatives.indices.contains(index) else { return nil }
    return Handle.borrowed(creatives[index])
}

@c @implementation
public func be_creative_url(_ creative: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.with(creative, as: Creative.self) { $0.urlText }
}

@c @implementation
public func be_creative_width(_ creative: OpaquePointer?) -> UInt32 {
    Handle.object(creative, as: Creative.self)?.pixelWidth ?? 0
}

@c @implementation
public func be_creative_height(_ creative: OpaquePointer?) -> UInt32 {
    Handle.object(creative, as: Creative.self)?.pixelHeight ?? 0
}

@c @implementation
public func be_creative_type(_ creative: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(creative, as: Creative.self)?.typeText
}

@c @implementation
public func be_creative_is_primary(_ creative: OpaquePointer?) -> Int32 {
    Handle.object(creative, as: Creative.self)?.isPrimary == true ? 1 : 0
}
