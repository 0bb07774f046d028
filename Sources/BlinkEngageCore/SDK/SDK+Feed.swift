
/// The client-side offer feed, screens and feed events (C-API.md).
extension SDK {
    /// Sets the user's identity; registers it on first launch. A new identity clears the newest feed.
    public func setUserIdentity(_ publisherUserID: String) throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            guard !publisherUserID.isEmpty else { throw .invalidArgument("pub_user_id is empty") }
            guard publisherUserID.utf8.count <= IdentityStore.maximumIdentityBytes else {
                throw .invalidArgument("pub_user_id is longer than \(IdentityStore.maximumIdentityBytes) bytes")
            }
            if registrar.setIdentity(publisherUserID) { feedLoader.forgetUser() }
        }
    }

    /// Logs out: forgets the identity and the newest feed.
    public func clearUserIdentity() throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            registrar.clearIdentity()
            feedLoader.forgetUser()
        }
    }

    /// Loads the feed (or joins the load in progress). `completion` runs exactly once on the callback queue.
    public func loadOfferFeed(_ completion: @escaping @Sendable (Result<OfferFeed, ServiceError>) -> Void) throws(EngineFailure) {
        try fetchCall { () throws(EngineFailure) in
            let completion = crashGuard.watchingFirstAnswer(completion)
            feedLoader.load { [callbacks] result in callbacks.enqueue { completion(result) } }
        }
    }

    /// The newest successfully loaded feed.
    public var newestFeed: OfferFeed? { feedLoader.newestFeed }

    /// A screen for one offer of the newest feed; nil for an offer of any other feed.
    public func offerDetailsScreen(for offer: Offer) throws(EngineFailure) -> OfferScreen? {
        try hostCall { () throws(EngineFailure) -> OfferScreen? in
            guard let feed = feedLoader.newestFeed, feed.contains(offer) else { return nil }
            return try OfferScreen(offers: [offer], owner: .feed(feed), sdk: self)
        }
    }

    /// A screen for a group of the newest feed; nil for a group of any other feed, or an empty one.
    public func offerGroupScreen(for group: OfferGroup) throws(EngineFailure) -> OfferScreen? {
        try hostCall { () throws(EngineFailure) -> OfferScreen? in
            guard let feed = feedLoader.newestFeed, feed.contains(group), !group.offers.isEmpty else { return nil }
            return try OfferScreen(offers: group.offers, owner: .feed(feed), sdk: self)
        }
    }

    /// The offer wall over the newest feed; nil before the first successful load.
    public func offerWall() throws(EngineFailure) -> OfferWall? {
        try hostCall { () throws(EngineFailure) -> OfferWall? in feedLoader.newestFeed.map { OfferWall(feed: $0, sdk: self) } }
    }

    /// A screen over a Moments answer's offers, with its styles.
    public func momentsScreen(for response: MomentsResponse) throws(EngineFailure) -> OfferScreen {
        try hostCall { () throws(EngineFailure) in try OfferScreen(offers: response.offers, owner: .moments(response), sdk: self) }
    }

    /// Records one feed event durably (a fresh id and time each call); `did_appear` also fires the offer's
    /// impression beacons.
    /// Every report it could not record is counted and logged (`refuseFeedEvent`), and the error thrown.
    public func reportFeedEvent(_ event: FeedEvent) throws(EngineFailure) {
        do throws(EngineFailure) {
            try recordFeedEvent(event)
        } catch {
            refuseFeedEvent(error.message)
            throw error
        }
    }

    /// A feed event the host reported that cannot be recorded (a shut-down SDK, an event of the wrong kind, a full
    /// disk): counted in the stats and logged, never lost silently.
    public func refuseFeedEvent(_ reason: String) {
        refusedFeedEvents.withLock { $0 += 1 }
        logger.warning("a feed event was not recorded: \(reason)")
    }

    private func recordFeedEvent(_ event: FeedEvent) throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            let json = EventJSON.feedEvent(event, id: RandomID.make(), occurredAtMilliseconds: WallClock.milliseconds())
            try outbox.requireEvents()
            // The pixels before the event: the first pixel then goes out at once, taking a kept connection when its
            // host is the service's, and the event (one request) opens one if it must. A host's pixels go one after
            // another, so the other way round costs a round trip more: a new connection's handshake first.
            fireBeacons(appearanceBeacons(pixel: event.pixelURL, advertiserPixel: event.advertiserPixelURL))
            try outbox.enqueueEvent(json: json, identity: registrar.currentIdentity, privacy: privacySignals)
        }
    }
}
