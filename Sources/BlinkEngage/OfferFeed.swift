internal import BlinkEngageCore

/// One load of the client-side offer feed: groups of offers, as data for the host to lay out.
public struct BlinkEngageOfferFeed: Sendable, Identifiable, Equatable {
    let core: OfferFeed

    init(_ core: OfferFeed) { self.core = core }

    /// The feed's id, new at each load.
    public var id: String { core.id }
    /// The groups, in the feed's order.
    public var groups: [BlinkEngageOfferGroup] { core.groups.map(BlinkEngageOfferGroup.init) }
    /// Whether this feed came from the feed cache after a load failed for a network reason.
    public var isCached: Bool { core.cacheAgeSeconds != nil }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
}

/// A group of the feed: a title and its offers.
public struct BlinkEngageOfferGroup: Sendable, Identifiable, Equatable {
    let core: OfferGroup

    init(_ core: OfferGroup) { self.core = core }

    /// The group's id.
    public var id: String { core.id }
    /// The group's title.
    public var title: String? { core.title }
    /// The group's offers, in order.
    public var offers: [BlinkEngageOffer] { core.offers.map(BlinkEngageOffer.init) }
    /// The group's index in its feed.
    public var position: Int { core.placement.groupPosition }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
}

/// What the user did with the feed, reported with ``BlinkEngageSDK/reportOfferFeedEvent(_:)``. The event copies
/// the ids and positions it needs when it is made.
public struct BlinkEngageOfferFeedEvent: Sendable, Equatable {
    /// What happened.
    public enum EventType: Int, Sendable {
        /// An offer came on screen (its impression beacons fire).
        case didAppear = 0
        /// The user tapped an offer.
        case didTap = 1
        /// The user opened a group's "view all".
        case viewAll = 2
    }

    let core: FeedEvent

    /// An event about an offer of a feed: ``EventType/didAppear`` or ``EventType/didTap``; nil for
    /// ``EventType/viewAll`` or an offer that did not come from a feed.
    public init?(offer: BlinkEngageOffer, type: EventType) {
        guard let kind = FeedEvent.Kind(rawValue: type.rawValue), let event = FeedEvent(offer: offer.core, kind: kind) else { return nil }
        core = event
    }

    /// An event about a group: ``EventType/viewAll``; nil for the other types.
    public init?(group: BlinkEngageOfferGroup, type: EventType) {
        guard let kind = FeedEvent.Kind(rawValue: type.rawValue), let event = FeedEvent(group: group.core, kind: kind) else { return nil }
        core = event
    }

    /// What happened.
    public var type: EventType { EventType(rawValue: core.kind.rawValue)! }
    /// The feed, group and, for an offer, its index, as the SDK records them.
    public var feedID: String { core.placement.feedID }
    /// The group the event is about, or the offer's group.
    public var groupID: String { core.placement.groupID }
    /// The group's index in its feed.
    public var groupPosition: Int { core.placement.groupPosition }
    /// The offer's index in its group; nil for a group event.
    public var offerPosition: Int? { core.placement.offerPosition }
    /// The offer's id; nil for a group event.
    public var offerID: String? { core.offerID }
}

extension BlinkEngageSDK {
    /// Sets the user the feed is for; registers the user on first launch. A new identity forgets the newest feed.
    public func setUserIdentity(_ publisherUserID: String) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.setUserIdentity(publisherUserID) }
    }

    /// Logs the user out: forgets the identity and the newest feed.
    public func clearUserIdentity() throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.clearUserIdentity() }
    }

    /// Loads the offer feed, or joins the load in progress (concurrent loads share one request). Waits for a
    /// registration in progress.
    ///
    /// `completion` runs exactly once, on the SDK's callback thread (or in ``dispatch(maximum:)``): with the
    /// feed, or a ``BlinkEngageOfferFeedError`` (code 1: no user; code 2: unavailable), or
    /// ``BlinkEngageError`` (not started: then at once, on the calling thread; ``BlinkEngageError/cancelled``
    /// when the SDK shuts down first).
    public func loadOfferFeed(completion: @escaping @Sendable (Result<BlinkEngageOfferFeed, any Error>) -> Void) {
        do throws(BlinkEngageError) {
            try call { (engine: SDK) throws(EngineFailure) in
                try engine.loadOfferFeed { result in
                    completion(result.map(BlinkEngageOfferFeed.init).mapError(\.feedError))
                }
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// Loads the offer feed, or joins the load in progress.
    /// - Throws: ``BlinkEngageOfferFeedError`` (codes 1 and 2), ``BlinkEngageError``, or `CancellationError`
    ///   when the task is cancelled (the shared load goes on for the others).
    public func loadOfferFeed() async throws -> BlinkEngageOfferFeed {
        try await awaitCompletion { (resume: @escaping @Sendable (Result<BlinkEngageOfferFeed, any Error>) -> Void) throws(BlinkEngageError) in
            try call { (engine: SDK) throws(EngineFailure) in
                try engine.loadOfferFeed { result in
                    resume(result.map(BlinkEngageOfferFeed.init).mapError(\.feedError))
                }
            }
        }
    }

    /// The newest feed loaded, if any.
    public var newestOfferFeed: BlinkEngageOfferFeed? { (try? engine())?.newestFeed.map(BlinkEngageOfferFeed.init) }

    /// The details screen of one offer of the newest feed; nil for an offer of any other (older) feed.
    public func offerDetailsViewController(for offer: BlinkEngageOffer) throws(BlinkEngageError) -> BlinkEngageOfferScreen? {
        try call { (engine: SDK) throws(EngineFailure) in try engine.offerDetailsScreen(for: offer.core) }.map(BlinkEngageOfferScreen.init)
    }

    /// The screen of a group of the newest feed; nil for a group of any other feed, or an empty group.
    public func offerGroupViewController(for group: BlinkEngageOfferGroup) throws(BlinkEngageError) -> BlinkEngageOfferScreen? {
        try call { (engine: SDK) throws(EngineFailure) in try engine.offerGroupScreen(for: group.core) }.map(BlinkEngageOfferScreen.init)
    }

    /// Records a feed event durably, with a fresh id and time; ``BlinkEngageOfferFeedEvent/EventType/didAppear``
    /// also fires the offer's impression beacons. Delivery is at least once.
    public func reportOfferFeedEvent(_ event: BlinkEngageOfferFeedEvent) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.reportFeedEvent(event.core) }
    }

    /// Opens the connections the next fetch needs ahead of it, with TLS done: a fetch then costs one round trip.
    public func warmUp() throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.warmUp() }
    }

    /// What the SDK just did and why: its flight recorder's requests (secrets redacted, with timings) and
    /// decisions, one JSON object per line, oldest first. Throws when the recorder is off.
    public func recorderJSONLines() throws(BlinkEngageError) -> String {
        try call { (engine: SDK) throws(EngineFailure) in try engine.recorderLines() }
    }

    /// Reports that `offer` is `visibleFraction` (0...1) of its pixels on screen now: call it whenever the
    /// fraction changes, 0 when the offer leaves. A view that meets the configured rule for long enough is
    /// counted once as a viewable impression (a durable event, and the impression beacons when
    /// ``BlinkEngageConfiguration/impressionBeaconsWhenViewable``).
    public func reportVisibility(of offer: BlinkEngageOffer, visibleFraction: Double) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.reportVisibility(of: offer.core, fraction: visibleFraction) }
    }
}
