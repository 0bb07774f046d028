public import CBlinkEngage
import BlinkEngageCore

// The offer wall (the header's "The offer wall"): translation only; OfferWall owns the rules.

private func wallAction(_ wall: OpaquePointer?, _ action: (OfferWall) throws(EngineFailure) -> Void) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let wall = Handle.object(wall, as: OfferWall.self) else { throw .invalidArgument("wall is NULL") }
        try action(wall)
    }
}

@c @implementation
public func be_sdk_offer_wall(_ sdk: OpaquePointer?) -> OpaquePointer? {
    valueCall { () throws(EngineFailure) -> OpaquePointer? in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let wall = try engine.offerWall() else { throw .notFound("no feed has been loaded yet") }
        return Handle.retained(wall)
    }
}

@c @implementation
public func be_offer_wall_free(_ wall: OpaquePointer?) {
    Handle.release(wall, as: OfferWall.self)
}

@c @implementation
public func be_offer_wall_get_level(_ wall: OpaquePointer?) -> be_offer_wall_level {
    be_offer_wall_level(rawValue: UInt32(Handle.object(wall, as: OfferWall.self)?.level.rawValue ?? OfferWall.Level.closed.rawValue))
}

@c @implementation
public func be_offer_wall_feed(_ wall: OpaquePointer?) -> OpaquePointer? {
    Handle.object(wall, as: OfferWall.self).map { Handle.borrowed($0.feed) }
}

@c @implementation
public func be_offer_wall_current_group(_ wall: OpaquePointer?) -> OpaquePointer? {
    Handle.object(wall, as: OfferWall.self)?.currentGroup.map { Handle.borrowed($0) }
}

@c @implementation
public func be_offer_wall_current_offer(_ wall: OpaquePointer?) -> OpaquePointer? {
    Handle.object(wall, as: OfferWall.self)?.currentOffer.map { Handle.borrowed($0) }
}

@c @implementation
public func be_offer_wall_report_visibility(_ wall: OpaquePointer?, _ group_index: Int, _ offer_index: Int,
                                            _ visible_fraction: Double) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in
        try wall.reportVisibility(group: group_index, offer: offer_index, fraction: visible_fraction)
    }
}

@c @implementation
public func be_offer_wall_open_group(_ wall: OpaquePointer?, _ group_index: Int) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in try wall.openGroup(group_index) }
}

@c @implementation
public func be_offer_wall_open_offer(_ wall: OpaquePointer?, _ group_index: Int, _ offer_index: Int) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in try wall.openOffer(group: group_index, offer: offer_index) }
}

@c @implementation
public func be_offer_wall_accept(_ wall: OpaquePointer?) -> UnsafePointer<CChar>? {
    valueCall { () throws(EngineFailure) -> UnsafePointer<CChar>? in
        guard let wall = Handle.object(wall, as: OfferWall.self) else { throw .invalidArgument("wall is NULL") }
        return try wall.accept().fieldText(.clickURL)  // lives as long as the wall's feed
    }
}

@c @implementation
public func be_offer_wall_decline(_ wall: OpaquePointer?) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in try wall.decline() }
}

@c @implementation
public func be_offer_wall_back(_ wall: OpaquePointer?) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in try wall.back() }
}

@c @implementation
public func be_offer_wall_close(_ wall: OpaquePointer?) -> be_status {
    wallAction(wall) { (wall: OfferWall) throws(EngineFailure) in try wall.close() }
}
