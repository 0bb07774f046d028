/// The offer wall: the newest feed as a complete SDK screen, headless. The SDK owns its navigation (wall, a group's
/// offers, one offer's details) and, since it knows what the wall shows, reports the feed events a host reports
/// itself with a feed of its own: `did_appear` when an offer becomes visible (the host says what is visible, as with
/// `reportVisibility`), `view_all` when a group is opened, `did_tap` when an offer is. The details of an offer are an
/// `OfferScreen`, with its beacons. The host draws what `level` says.
public final class OfferWall: Sendable {
    public enum Level: Int, Sendable {
        /// Every group with its offers.
        case wall = 0
        /// One group's offers (`currentGroup`).
        case group = 1
        /// One offer's details (`currentOffer`, `details`).
        case offer = 2
        /// Closed: every action is refused.
        case closed = 3
    }

    private struct State {
        var level = Level.wall
        /// The group opened (at the group level, and at the offer level when the offer was opened from it).
        var group: Int?
        /// The offer shown, and whether it was opened from its group's level (back returns there) or the wall's.
        var offer: (group: Int, offer: Int)?
        var details: OfferScreen?
        /// The offers visible now, as the host reported them; each entry became visible once (one `did_appear`).
        var visible: Set<Position> = []
    }

    struct Position: Hashable {
        let group: Int
        let offer: Int
    }

    /// The feed the wall shows (kept alive by it).
    public let feed: OfferFeed
    private let sdk: SDK
    private let state = Locked(State())

    init(feed: OfferFeed, sdk: SDK) {
        self.feed = feed
        self.sdk = sdk
    }

    public var level: Level { state.withLock { $0.level } }
    /// The group shown at the group level, or the shown offer's group.
    public var currentGroup: OfferGroup? {
        state.withLock { state in (state.offer?.group ?? state.group).map { feed.groups[$0] } }
    }
    /// The offer at the offer level.
    public var currentOffer: Offer? { state.withLock { $0.offer.map { feed.groups[$0.group].offers[$0.offer] } } }
    /// The details screen at the offer level (its accept, decline and close are the wall's).
    public var details: OfferScreen? { state.withLock { $0.level == .offer ? $0.details : nil } }

    /// The host's word that the offer at `offer` of group `group` is `fraction` (0...1) of its pixels on screen. At
    /// the wall level any offer of the feed; at the group level, the group's; at the offer level, the offer shown.
    /// An offer that becomes visible records `did_appear` (its impression beacons fire); the fraction also goes to
    /// the viewability rule, as `SDK.reportVisibility` does.
    public func reportVisibility(group: Int, offer: Int, fraction: Double) throws(EngineFailure) {
        guard fraction >= 0, fraction <= 1 else { throw .invalidArgument("the visible fraction must be from 0 to 1") }
        guard feed.groups.indices.contains(group), feed.groups[group].offers.indices.contains(offer) else {
            throw .invalidArgument("no offer \(offer) in group \(group) of the wall's feed")
        }
        let position = Position(group: group, offer: offer)
        let appeared = try transition { state throws(EngineFailure) -> Bool in
            switch state.level {
            case .wall: break
            case .group: guard state.group == group else { throw .invalidState("group \(group) is not the one shown") }
            case .offer, .closed: guard state.offer.map({ Position(group: $0.group, offer: $0.offer) }) == position else {
                throw .invalidState("offer \(offer) of group \(group) is not the one shown")
            }
            }
            if fraction > 0 { return state.level != .offer && state.visible.insert(position).inserted }
            state.visible.remove(position)
            return false
        }
        let shown = feed.groups[group].offers[offer]
        try sdk.reportVisibility(of: shown, fraction: fraction)
        if appeared, let event = FeedEvent(offer: shown, kind: .didAppear) { try sdk.reportFeedEvent(event) }
    }

    /// Opens group `group` from the wall: records `view_all`.
    public func openGroup(_ group: Int) throws(EngineFailure) {
        guard feed.groups.indices.contains(group), !feed.groups[group].offers.isEmpty else {
            throw .invalidArgument("no group \(group) with offers in the wall's feed")
        }
        let hidden = try transition { state throws(EngineFailure) -> Set<Position> in
            guard state.level == .wall else { throw .invalidState("a group opens from the wall") }
            state.level = .group
            state.group = group
            return leaveVisible(&state)
        }
        endViews(hidden)
        if let event = FeedEvent(group: feed.groups[group], kind: .viewAll) { try sdk.reportFeedEvent(event) }
    }

    /// Opens an offer's details, from the wall or from its group's level: records `did_tap`; the details screen's
    /// own display is an impression, as every screen's is.
    public func openOffer(group: Int, offer: Int) throws(EngineFailure) {
        guard feed.groups.indices.contains(group), feed.groups[group].offers.indices.contains(offer) else {
            throw .invalidArgument("no offer \(offer) in group \(group) of the wall's feed")
        }
        let shown = feed.groups[group].offers[offer]
        let hidden = try transition { state throws(EngineFailure) -> Set<Position> in
            switch state.level {
            case .wall: break
            case .group: guard state.group == group else { throw .invalidState("offer \(offer) is not in the group shown") }
            default: throw .invalidState("an offer opens from the wall or its group")
            }
            return leaveVisible(&state)
        }
        endViews(hidden)
        if let event = FeedEvent(offer: shown, kind: .didTap) { try sdk.reportFeedEvent(event) }
        let screen = try OfferScreen(offers: [shown], owner: .feed(feed), sdk: sdk)
        try transition { state throws(EngineFailure) in
            state.level = .offer
            state.offer = (group, offer)
            state.details = screen
        }
    }

    /// The positive CTA at the offer level: returns the offer (the host opens its click URL), and goes back.
    public func accept() throws(EngineFailure) -> Offer {
        let offer = try detailsScreen().accept()  // a details screen of one offer finishes (and fires close)
        try back()
        return offer
    }

    /// The negative CTA at the offer level: fires `no_thanks_click` (and `close`), and goes back.
    public func decline() throws(EngineFailure) {
        try detailsScreen().decline()
        try back()
    }

    /// One level up: from an offer to where it was opened, from a group to the wall. At the wall it closes.
    public func back() throws(EngineFailure) {
        let (hidden, details) = try transition { state throws(EngineFailure) -> (Set<Position>, OfferScreen?) in
            let hidden = leaveVisible(&state), details = state.details
            switch state.level {
            case .offer:
                state.level = state.group == nil ? .wall : .group
                state.offer = nil
                state.details = nil
            case .group:
                state.level = .wall
                state.group = nil
            case .wall:
                state.level = .closed
            case .closed:
                break
            }
            return (hidden, details)
        }
        endViews(hidden)
        // Leaving the details without an answer dismisses them (`close` fires); an answered screen is finished.
        if let details, !details.isFinished { try details.close() }
    }

    /// Closes the wall from any level (the details, when shown, fire `close`).
    public func close() throws(EngineFailure) {
        while level != .closed { try back() }
    }

    // MARK: - State

    private func detailsScreen() throws(EngineFailure) -> OfferScreen {
        guard let details else { throw .invalidState("no offer is shown") }
        return details
    }

    /// Applies `change` to an open wall, under the SDK's host-call guard.
    private func transition<Result>(_ change: (inout State) throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        try sdk.hostCall { () throws(EngineFailure) in
            try state.withLock { (state: inout State) throws(EngineFailure) -> Result in
                guard state.level != .closed else { throw .invalidState("the wall is closed") }
                return try change(&state)
            }
        }
    }

    /// What was visible at the level being left: nothing of it is on screen any more.
    private func leaveVisible(_ state: inout State) -> Set<Position> {
        defer { state.visible = [] }
        return state.visible
    }

    /// Ends the views of offers no longer on screen (a view in progress counts nothing).
    private func endViews(_ positions: Set<Position>) {
        for position in positions {
            try? sdk.reportVisibility(of: feed.groups[position.group].offers[position.offer], fraction: 0)
        }
    }
}
