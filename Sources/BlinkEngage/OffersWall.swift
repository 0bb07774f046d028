internal import BlinkEngageCore

/// The offer wall (the guides' `OffersWallViewController`): the newest feed as a complete SDK screen, headless. The
/// SDK owns the navigation, from the wall of every group to one group's offers to one offer's details, and records
/// the wall's feed events itself, with their positions: `did_appear` as offers become visible (the host says what
/// is visible with ``reportVisibility(group:offer:visibleFraction:)``), `view_all` for a group opened, `did_tap` for
/// an offer opened. A host that shows the wall reports none of these itself. From
/// ``BlinkEngageSDK/offersWallViewController()``. Calls after the SDK shut down throw
/// ``BlinkEngageError/invalidState(_:)``.
public struct BlinkEngageOffersWall: Sendable {
    /// What the wall shows now.
    public enum Level: Int, Sendable {
        /// Every group of the feed with its offers.
        case wall = 0
        /// One group's offers: ``currentGroup``.
        case group = 1
        /// One offer's details: ``currentOffer``.
        case offer = 2
        /// Closed: every action throws.
        case closed = 3
    }

    let core: OfferWall

    init(_ core: OfferWall) { self.core = core }

    private func step<Value>(_ body: () throws(EngineFailure) -> Value) throws(BlinkEngageError) -> Value {
        do throws(EngineFailure) { return try body() } catch { throw BlinkEngageError(error) }
    }

    /// What the wall shows now.
    public var level: Level { Level(rawValue: core.level.rawValue) ?? .closed }
    /// The feed the wall shows: its groups' and offers' indices are the wall's positions.
    public var feed: BlinkEngageOfferFeed { BlinkEngageOfferFeed(core.feed) }
    /// The group shown at ``Level/group``, or the shown offer's group at ``Level/offer``.
    public var currentGroup: BlinkEngageOfferGroup? { core.currentGroup.map(BlinkEngageOfferGroup.init) }
    /// The offer shown at ``Level/offer``.
    public var currentOffer: BlinkEngageOffer? { core.currentOffer.map(BlinkEngageOffer.init) }

    /// Reports that the offer `offer` of group `group` is `visibleFraction` (0...1) of its pixels on screen now;
    /// call it whenever that changes (0 when it leaves). An offer that becomes visible records `did_appear`.
    public func reportVisibility(group: Int, offer: Int, visibleFraction: Double) throws(BlinkEngageError) {
        try step { () throws(EngineFailure) in try core.reportVisibility(group: group, offer: offer, fraction: visibleFraction) }
    }
    /// Opens a group from the wall and records `view_all`.
    public func openGroup(_ group: Int) throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.openGroup(group) } }
    /// Opens an offer's details from the wall or its group, and records `did_tap`.
    public func openOffer(group: Int, offer: Int) throws(BlinkEngageError) {
        try step { () throws(EngineFailure) in try core.openOffer(group: group, offer: offer) }
    }
    /// The positive CTA in an offer's details: returns the offer (open its ``BlinkEngageOffer/clickURL``) and goes back.
    @discardableResult
    public func accept() throws(BlinkEngageError) -> BlinkEngageOffer {
        BlinkEngageOffer(try step { () throws(EngineFailure) in try core.accept() })
    }
    /// The negative CTA in an offer's details: fires `no_thanks_click` and goes back.
    public func decline() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.decline() } }
    /// One level up; at the wall it closes.
    public func back() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.back() } }
    /// Closes the wall from any level.
    public func close() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.close() } }
}

extension BlinkEngageSDK {
    /// The offer wall over the newest feed; nil before a feed was loaded, and when the SDK is not running.
    public func offersWallViewController() -> BlinkEngageOffersWall? {
        guard let engine = try? engine() else { return nil }
        return (try? engine.offerWall())?.map(BlinkEngageOffersWall.init)
    }
}
