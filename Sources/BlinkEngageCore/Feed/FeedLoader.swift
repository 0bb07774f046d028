/// Loads the client-side offer feed: concurrent loads share one request, a load during registration waits for
/// it, and the newest successful feed is remembered for the screens (PROTOCOL.md section 2).
final class FeedLoader: Sendable {
    typealias Completion = @Sendable (Result<OfferFeed, ServiceError>) -> Void

    private struct State {
        /// Callers of the load in progress; non-empty exactly while one is in progress.
        var waiters: [Completion] = []
        var newest: OfferFeed?
    }

    private let requests: EngageRequests?
    private let transport: Transport
    private let registrar: Registrar
    private let logger: Logger
    private let state = Locked(State())

    init(requests: EngageRequests?, transport: Transport, registrar: Registrar, logger: Logger) {
        self.requests = requests
        self.transport = transport
        self.registrar = registrar
        self.logger = logger
    }

    /// The feed that screens resolve against, nil before the first success or after it was cleared.
    var newestFeed: OfferFeed? { state.withLock { $0.newest } }

    /// Forgets the newest feed (new identity, log-out, feature disabled remotely).
    func clearNewestFeed() { state.withLock { $0.newest = nil } }

    /// Loads the feed, or joins the load in progress. `completion` runs exactly once, on whatever thread
    /// finishes the load (the caller moves it to the callback queue).
    func load(_ completion: @escaping Completion) {
        guard let requests else {
            return completion(.failure(Self.unavailable("no Engage URL is configured")))
        }
        let first = state.withLock { state -> Bool in
            state.waiters.append(completion)
            return state.waiters.count == 1
        }
        guard first else { return }
        registrar.withToken { [self] result in
            switch result {
            case .token(let token): fetch(requests, token: token, mayReregister: true)
            case .noUser: finish(.failure(ServiceError(.offerFeed, code: 1, message: "no user identity is set")))
            case .failed(let reason): finish(.failure(Self.unavailable(reason)))
            case .cancelled: finish(.failure(.cancelled))
            }
        }
    }

    private func fetch(_ requests: EngageRequests, token: String, mayReregister: Bool) {
        transport.send(requests.offerFeed(token: token)) { [self] outcome in
            switch outcome {
            case .failure(.cancelled):
                finish(.failure(.cancelled))
            case .failure(let error):
                finish(.failure(Self.unavailable("the feed could not be fetched: \(error.message)")))
            case .success(let response) where response.status == 401 && mayReregister:
                // The token is no longer valid: register again once and retry once.
                registrar.tokenWasRefused(forIdentity: registrar.currentIdentity)
                registrar.withToken { [self] result in
                    if case .token(let fresh) = result {
                        fetch(requests, token: fresh, mayReregister: false)
                    } else {
                        finish(.failure(Self.unavailable("the feed refused the token and registering again failed", httpStatus: 401)))
                    }
                }
            case .success(let response) where !(200..<300).contains(response.status):
                finish(.failure(Self.unavailable("the feed answered HTTP \(response.status)", httpStatus: response.status)))
            case .success(let response):
                decoded(response.body)
            }
        }
    }

    private func decoded(_ body: [UInt8]) {
        do {
            switch try OfferFeedDecoder.decode(body, log: { logger.warning("offer feed: \($0)") }) {
            case .feed(let feed):
                state.withLock { $0.newest = feed }
                finish(.success(feed))
            case .disabled:
                clearNewestFeed()
                finish(.failure(Self.unavailable("the offer feed is disabled remotely")))
            }
        } catch {
            finish(.failure(Self.unavailable("the feed answer cannot be decoded: \(error.reason)")))
        }
    }

    private func finish(_ result: Result<OfferFeed, ServiceError>) {
        if case .failure(let error) = result, error.domain != .cancelled { logger.info("offer feed load failed: \(error.message)") }
        let waiters = state.withLock { state -> [Completion] in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter(result) }
    }

    static func unavailable(_ message: String, httpStatus: Int = 0) -> ServiceError {
        ServiceError(.offerFeed, code: 2, message: message, httpStatus: httpStatus)
    }
}
