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
///
/// An event always exists, as the feed guide writes it: one the SDK cannot record (``EventType/viewAll`` made with
/// an offer, ``EventType/didAppear`` with a group, an offer that came from no feed) is refused when reported, with
/// a warning in the log and a count in ``BlinkEngageStats/feedEventsRefused``.
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

    /// The event to record, or why there is none.
    let recordable: Result<FeedEvent, Unrecordable>

    struct Unrecordable: Error, Equatable {
        let reason: String
    }

    /// What happened.
    public let type: EventType

    /// An event about an offer of a feed: ``EventType/didAppear`` or ``EventType/didTap``. With
    /// ``EventType/viewAll``, or an offer that did not come from a feed, the event is refused when reported.
    public init(offer: BlinkEngageOffer, type: EventType) {
        self.type = type
        if let kind = FeedEvent.Kind(rawValue: type.rawValue), let event = FeedEvent(offer: offer.core, kind: kind) {
            recordable = .success(event)
        } else {
            recordable = .failure(Unrecordable(reason: type == .viewAll ? "view_all takes a group, not an offer"
                                                                          : "offer \(offer.id) did not come from an offer feed"))
        }
    }

    /// An event about a group: ``EventType/viewAll``. With another type the event is refused when reported.
    public init(group: BlinkEngageOfferGroup, type: EventType) {
        self.type = type
        if let kind = FeedEvent.Kind(rawValue: type.rawValue), let event = FeedEvent(group: group.core, kind: kind) {
            recordable = .success(event)
        } else {
            recordable = .failure(Unrecordable(reason: "\(type == .didAppear ? "did_appear" : "did_tap") takes an offer, not a group"))
        }
    }

    private var event: FeedEvent? { try? recordable.get() }

    /// Whether reporting it can record it (see the type's description).
    public var isRecordable: Bool { event != nil }
    /// The feed, group and, for an offer, its index, as the SDK records them; "" for an event that cannot be
    /// recorded.
    public var feedID: String { event?.placement.feedID ?? "" }
    /// The group the event is about, or the offer's group.
    public var groupID: String { event?.placement.groupID ?? "" }
    /// The group's index in its feed; -1 for an event that cannot be recorded.
    public var groupPosition: Int { event?.placement.groupPosition ?? -1 }
    /// The offer's index in its group; nil for a group event.
    public var offerPosition: Int? { event?.placement.offerPosition }
    /// The offer's id; nil for a group event.
    public var offerID: String? { event?.offerID }
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
    /// `completion` runs exactly once, where ``BlinkEngageConfiguration/callbackQueue`` says (the main queue on
    /// Apple platforms), never inside this call: with the feed, or an error in domain `BlinkEngageOfferFeed`:
    /// - code 1 (``BlinkEngageOfferFeedError/Code/noUser``): no registered user and no registration in progress:
    ///   no identity is set, the SDK is not started, or it was shut down;
    /// - code 2 (``BlinkEngageOfferFeedError/Code/unavailable``): the feed is unavailable: the request failed, the
    ///   service refused it or turned the feed off, or the SDK shut down while the load was in flight.
    public func loadOfferFeed(completion: @escaping @Sendable (Result<BlinkEngageOfferFeed, BlinkEngageOfferFeedError>) -> Void) {
        guard let running = try? running() else {
            // Nothing started: answered on a queue all the same, never inside this call.
            return BlinkEngageCallbackQueue.platformDefault.later { completion(.failure(.notStarted)) }
        }
        do throws(BlinkEngageOfferFeedError) { try startLoad(running.engine, running.delivering(completion)) } catch {
            running.callbackQueue.later { completion(.failure(error)) }
        }
    }

    /// Loads the offer feed, or joins the load in progress.
    /// - Throws: ``BlinkEngageOfferFeedError`` (codes 1 and 2, as ``loadOfferFeed(completion:)`` says), or
    ///   `CancellationError` when the task is cancelled (the shared load goes on for the others).
    public func loadOfferFeed() async throws -> BlinkEngageOfferFeed {
        try await awaitCompletion { (resume: @escaping @Sendable (Result<BlinkEngageOfferFeed, any Error>) -> Void) throws(BlinkEngageError) in
            guard let engine = try? engine() else { return resume(.failure(BlinkEngageOfferFeedError.notStarted)) }
            do throws(BlinkEngageOfferFeedError) { try startLoad(engine) { result in resume(result.mapError { $0 }) } } catch {
                resume(.failure(error))
            }
        }
    }

    /// Starts a load whose `completion` the engine owes; a load refused at once (the SDK shutting down, an inert
    /// start) throws code 2 instead.
    private func startLoad(_ engine: SDK, _ completion: @escaping @Sendable (Result<BlinkEngageOfferFeed, BlinkEngageOfferFeedError>) -> Void)
        throws(BlinkEngageOfferFeedError) {
        do throws(EngineFailure) {
            try engine.loadOfferFeed { result in completion(result.map(BlinkEngageOfferFeed.init).mapError(\.feedError)) }
        } catch {
            throw BlinkEngageOfferFeedError(code: .unavailable, message: error.message)
        }
    }

    /// The newest feed loaded, if any.
    public var newestOfferFeed: BlinkEngageOfferFeed? { (try? engine())?.newestFeed.map(BlinkEngageOfferFeed.init) }

    /// The details screen of one offer of the newest feed; nil for objects that are no longer part of the newest
    /// load (an offer of an older feed, even with the same id), and when the SDK is not running (logged).
    public func offerDetailsViewController(for offer: BlinkEngageOffer) -> BlinkEngageOfferScreen? {
        screen { (engine: SDK) throws(EngineFailure) in try engine.offerDetailsScreen(for: offer.core) }
    }

    /// The screen of a group of the newest feed; nil for objects that are no longer part of the newest load, an
    /// empty group, and when the SDK is not running (logged).
    public func offerGroupViewController(for group: BlinkEngageOfferGroup) -> BlinkEngageOfferScreen? {
        screen { (engine: SDK) throws(EngineFailure) in try engine.offerGroupScreen(for: group.core) }
    }

    private func screen(_ make: (SDK) throws(EngineFailure) -> OfferScreen?) -> BlinkEngageOfferScreen? {
        guard let engine = try? engine() else { return nil }
        do throws(EngineFailure) { return try make(engine).map(BlinkEngageOfferScreen.init) } catch {
            engine.log(.warning, "no screen: \(error.message)")
            return nil
        }
    }

    /// Records a feed event durably, with a fresh id and time; ``BlinkEngageOfferFeedEvent/EventType/didAppear``
    /// also fires the offer's impression beacons. Delivery is at least once. An event of an older load is
    /// recorded with the positions it had there.
    ///
    /// An event the SDK cannot record (see ``BlinkEngageOfferFeedEvent``; the SDK shut down; a full disk) is
    /// logged as a warning and counted in ``BlinkEngageStats/feedEventsRefused``, never thrown: the feed guide
    /// calls this without `try`. Before ``start(_:)`` there is no log to write to.
    /// - Returns: whether the event was recorded.
    @discardableResult
    public func reportOfferFeedEvent(_ event: BlinkEngageOfferFeedEvent) -> Bool {
        guard let engine = try? engine() else { return false }
        switch event.recordable {
        case .success(let core):
            return (try? engine.reportFeedEvent(core)) != nil  // a failure is counted and logged there
        case .failure(let refusal):
            engine.refuseFeedEvent(refusal.reason)
            return false
        }
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
