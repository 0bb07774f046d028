/// Loads the client-side offer feed: concurrent loads share one request, a load during registration waits for
/// it, and the newest successful feed is remembered for the screens (docs/PROTOCOL.md section 2). With the feed cache
/// on, each success is stored for its identity, and a load that fails for a network reason, a 5xx or a timeout
/// answers with the stored feed when it is young enough.
final class FeedLoader: Sendable {
    typealias Completion = @Sendable (Result<OfferFeed, ServiceError>) -> Void

    private struct State {
        /// Callers of the load in progress; non-empty exactly while one is in progress.
        var waiters: [Completion] = []
        var newest: OfferFeed?
        /// Bumped by erasure: a load that began before it delivers nothing and stores nothing.
        var generation = 0
    }

    private let requests: EngageRequests?
    private let transport: any Transport
    private let registrar: Registrar
    private let logger: Logger
    private let privacy: @Sendable () -> PrivacySignals
    private let cache: FeedCache?
    private let state = Locked(State())

    init(requests: EngageRequests?, transport: any Transport, registrar: Registrar, logger: Logger,
         privacy: @escaping @Sendable () -> PrivacySignals = { PrivacySignals() }, cache: FeedCache? = nil) {
        self.requests = requests
        self.transport = transport
        self.registrar = registrar
        self.logger = logger
        self.privacy = privacy
        self.cache = cache
    }

    /// The feed that screens resolve against, nil before the first success or after it was cleared.
    var newestFeed: OfferFeed? { state.withLock { $0.newest } }

    /// Forgets the newest feed (remote disable).
    func clearNewestFeed() { state.withLock { $0.newest = nil } }

    /// A new identity or a log-out: the newest feed and every cached one go.
    func forgetUser() {
        clearNewestFeed()
        cache?.deleteAll()
    }

    /// Erasure: the newest and cached feeds go, and loads in progress end now with error 1.
    func erase() {
        let waiters = state.withLock { state -> [Completion] in
            state.generation += 1
            state.newest = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        cache?.deleteAll()
        for waiter in waiters { waiter(.failure(Self.noUser)) }
    }

    /// Loads the feed, or joins the load in progress. `completion` runs exactly once, on whatever thread
    /// finishes the load (the caller moves it to the callback queue).
    func load(_ completion: @escaping Completion) {
        guard let requests else {
            return completion(.failure(Self.unavailable("no Engage URL is configured")))
        }
        let (first, generation) = state.withLock { state -> (Bool, Int) in
            state.waiters.append(completion)
            return (state.waiters.count == 1, state.generation)
        }
        guard first else { return }
        registrar.withToken { [self] result in
            switch result {
            case .token(let token, let identity):
                fetch(requests, token: token, identity: identity, mayReregister: true, generation: generation)
            case .noUser: finish(generation, .failure(Self.noUser))
            case .failed(let reason): finish(generation, .failure(Self.unavailable(reason)))
            case .cancelled: finish(generation, .failure(.cancelled))
            }
        }
    }

    /// - Parameter identity: the identity `token` was issued for (not the current one, which may have changed since).
    private func fetch(_ requests: EngageRequests, token: String, identity: String, mayReregister: Bool, generation: Int) {
        transport.send(requests.offerFeed(token: token, privacy: privacy())) { [self] outcome in
            if mayReregister, EngageRequests.refusesToken(outcome) {
                // The token is no longer valid: the identity it was sent for registers again, once, and the load is
                // sent again, once (not the identity current now, which another token may serve).
                registrar.tokenWasRefused(forIdentity: identity)
                registrar.withToken { [self] result in
                    if case .token(let fresh, let freshIdentity) = result {
                        fetch(requests, token: fresh, identity: freshIdentity, mayReregister: false, generation: generation)
                    } else {
                        finish(generation, .failure(Self.unavailable("the feed refused the token and registering again failed", httpStatus: 401)))
                    }
                }
                return
            }
            switch outcome {
            case .failure(.cancelled):
                finish(generation, .failure(.cancelled))
            case .failure(let error):
                fallBack(generation, identity, Self.unavailable("the feed could not be fetched: \(error.message)"))
            case .success(let response) where (500..<600).contains(response.status):
                fallBack(generation, identity, Self.unavailable("the feed answered HTTP \(response.status)", httpStatus: response.status))
            case .success(let response) where !(200..<300).contains(response.status):
                finish(generation, .failure(Self.unavailable("the feed answered HTTP \(response.status)", httpStatus: response.status)))
            case .success(let response):
                decoded(response.body, identity: identity, generation: generation)
            }
        }
    }

    /// A load failed for a network reason, a 5xx or a timeout: the cached feed of the same identity answers
    /// instead when there is one young enough; else the error stands.
    private func fallBack(_ generation: Int, _ identity: String?, _ error: ServiceError) {
        if let cache, let identity, let stored = cache.answer(for: identity),
           case .feed(let feed)? = try? OfferFeedDecoder.decode(stored.body, cacheAgeSeconds: stored.ageSeconds) {
            logger.info("offer feed load failed (\(error.message)); answering with the cached feed, \(stored.ageSeconds) s old")
            if makeNewest(feed, generation: generation) { finish(generation, .success(feed)) }
            return
        }
        finish(generation, .failure(error))
    }

    private func decoded(_ body: [UInt8], identity: String?, generation: Int) {
        do {
            var warnings: [String] = []
            defer { for warning in warnings { logger.warning("offer feed: \(warning)") } }
            switch try OfferFeedDecoder.decode(body, warnings: &warnings) {
            case .feed(let feed):
                if makeNewest(feed, generation: generation), let cache, let identity { cache.store(body, identity: identity) }
                finish(generation, .success(feed))
            case .disabled:
                clearNewestFeed()
                cache?.deleteAll()
                finish(generation, .failure(Self.unavailable("the offer feed is disabled remotely")))
            }
        } catch {
            finish(generation, .failure(Self.unavailable("the feed answer cannot be decoded: \(error.reason)")))
        }
    }

    /// Makes `feed` the newest unless erasure came after its load began; true when it did.
    private func makeNewest(_ feed: OfferFeed, generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            state.newest = feed
            return true
        }
    }

    private func finish(_ generation: Int, _ result: Result<OfferFeed, ServiceError>) {
        if case .failure(let error) = result, error.domain != .cancelled { logger.info("offer feed load failed: \(error.message)") }
        let waiters = state.withLock { state -> [Completion] in
            guard state.generation == generation else { return [] }  // erased meanwhile: already answered
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter(result) }
    }

    static let noUser = ServiceError(.offerFeed, code: 1, message: "no user identity is set")

    static func unavailable(_ message: String, httpStatus: Int = 0) -> ServiceError {
        ServiceError(.offerFeed, code: 2, message: message, httpStatus: httpStatus)
    }
}
