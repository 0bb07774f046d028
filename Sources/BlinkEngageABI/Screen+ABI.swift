public import CBlinkEngage
import BlinkEngageCore

/// Opens a screen through `open`, handing the host an owned reference; NULL (with the reason) otherwise.
private func openScreen(_ sdk: OpaquePointer?, _ open: (SDK) throws(EngineFailure) -> OfferScreen?) -> OpaquePointer? {
    valueCall { () throws(EngineFailure) -> OpaquePointer? in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let screen = try open(engine) else { throw .notFound("the offer or group is not part of the newest feed") }
        return Handle.retained(screen)
    }
}

private func screenAction(_ screen: OpaquePointer?, _ action: (OfferScreen) throws(EngineFailure) -> Void) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let screen = Handle.object(screen, as: OfferScreen.self) else { throw .invalidArgument("screen is NULL") }
        try action(screen)
    }
}

@c @implementation
public func be_sdk_offer_details_screen(_ sdk: OpaquePointer?, _ offer: OpaquePointer?) -> OpaquePointer? {
    openScreen(sdk) { (engine: SDK) throws(EngineFailure) -> OfferScreen? in
        guard let offer = Handle.object(offer, as: Offer.self) else { throw .invalidArgument("offer is NULL") }
        return try engine.offerDetailsScreen(for: offer)
    }
}

@c @implementation
public func be_sdk_offer_group_screen(_ sdk: OpaquePointer?, _ group: OpaquePointer?) -> OpaquePointer? {
    openScreen(sdk) { (engine: SDK) throws(EngineFailure) -> OfferScreen? in
        guard let group = Handle.object(group, as: OfferGroup.self) else { throw .invalidArgument("group is NULL") }
        return try engine.offerGroupScreen(for: group)
    }
}

@c @implementation
public func be_sdk_moments_screen(_ sdk: OpaquePointer?, _ response: OpaquePointer?) -> OpaquePointer? {
    openScreen(sdk) { (engine: SDK) throws(EngineFailure) -> OfferScreen? in
        guard let response = Handle.object(response, as: MomentsResponse.self) else { throw .invalidArgument("response is NULL") }
        return try engine.momentsScreen(for: response)
    }
}

@c @implementation
public func be_offer_screen_free(_ screen: OpaquePointer?) {
    Handle.release(screen, as: OfferScreen.self)
}

@c @implementation
public func be_offer_screen_current_offer(_ screen: OpaquePointer?) -> OpaquePointer? {
    Handle.object(screen, as: OfferScreen.self)?.currentOffer.map { Handle.borrowed($0) }
}

@c @implementation
public func be_offer_screen_index(_ screen: OpaquePointer?) -> Int {
    Handle.object(screen, as: OfferScreen.self)?.index ?? 0
}

@c @implementation
public func be_offer_screen_offer_count(_ screen: OpaquePointer?) -> Int {
    Handle.object(screen, as: OfferScreen.self)?.offers.count ?? 0
}

@c @implementation
public func be_offer_screen_has_next(_ screen: OpaquePointer?) -> Int32 {
    Handle.object(screen, as: OfferScreen.self)?.hasNext == true ? 1 : 0
}

@c @implementation
public func be_offer_screen_has_previous(_ screen: OpaquePointer?) -> Int32 {
    Handle.object(screen, as: OfferScreen.self)?.hasPrevious == true ? 1 : 0
}

@c @implementation
public func be_offer_screen_show_next(_ screen: OpaquePointer?) -> be_status {
    screenAction(screen) { (screen: OfferScreen) throws(EngineFailure) in try screen.showNext() }
}

@c @implementation
public func be_offer_screen_show_previous(_ screen: OpaquePointer?) -> be_status {
    screenAction(screen) { (screen: OfferScreen) throws(EngineFailure) in try screen.showPrevious() }
}

@c @implementation
public func be_offer_screen_accept(_ screen: OpaquePointer?) -> UnsafePointer<CChar>? {
    valueCall { () throws(EngineFailure) -> UnsafePointer<CChar>? in
        guard let screen = Handle.object(screen, as: OfferScreen.self) else { throw .invalidArgument("screen is NULL") }
        return try screen.accept().fieldText(.clickURL)  // lives as long as the screen's feed or response
    }
}

@c @implementation
public func be_offer_screen_decline(_ screen: OpaquePointer?) -> be_status {
    screenAction(screen) { (screen: OfferScreen) throws(EngineFailure) in try screen.decline() }
}

@c @implementation
public func be_offer_screen_close(_ screen: OpaquePointer?) -> be_status {
    screenAction(screen) { (screen: OfferScreen) throws(EngineFailure) in try screen.close() }
}

@c @implementation
public func be_offer_screen_is_finished(_ screen: OpaquePointer?) -> Int32 {
    Handle.object(screen, as: OfferScreen.self)?.isFinished == true ? 1 : 0
}

@c @implementation
public func be_offer_screen_style(_ screen: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let styles = Handle.object(screen, as: OfferScreen.self)?.styles,
          let path = recordingFailure({ () throws(EngineFailure) in try hostString(path, "path") }) else { return nil }
    return styles.text(atPath: path)
}
