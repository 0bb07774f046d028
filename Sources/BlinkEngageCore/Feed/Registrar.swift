
/// The user's identity and its registration with the Engage backend (docs/PROTOCOL.md section 2).
///
/// Registration runs in the background: a failed attempt fails the loads waiting on it (error 2) and is retried
/// with backoff, never forgotten. A returning user keeps the stored token and is not registered again. A token
/// the server refuses (401) is replaced by registering again.
final class Registrar: EventAuthorization, Sendable {
    enum TokenResult: Sendable {
        /// The token and the identity it was issued for: the one a refusal of it is about, whichever identity is
        /// current by then.
        case token(String, identity: String)
        /// No identity was set, or it was cleared.
        case noUser
        /// The registration attempt this caller waited for failed.
        case failed(String)
        case cancelled
    }

    typealias Waiter = @Sendable (TokenResult) -> Void

    private struct State {
        var snapshot = IdentityStore.Snapshot()
        /// Identities with an attempt in flight, and the callers waiting for the current identity's token.
        var attemptsInFlight: Set<String> = []
        var waiters: [Waiter] = []
        /// Consecutive failures of the current identity's registration, for the backoff.
        var failures = 0
        var stopped = false
    }

    private let requests: EngageRequests?
    private let transport: any Transport
    private let store: IdentityStore
    private let logger: Logger
    private let state = Locked(State())
    private let firstRetryNanoseconds: UInt64
    private let device: Locked<String>
    /// This storage directory's device id (replaced by erasure).
    var deviceID: String { device.withLock { $0 } }
    private let privacy: @Sendable () -> PrivacySignals

    init(requests: EngageRequests?, transport: any Transport, store: IdentityStore, logger: Logger,
         privacy: @escaping @Sendable () -> PrivacySignals = { PrivacySignals() },
         firstRetryNanoseconds: UInt64 = RetryPolicy.firstRetryNanoseconds) {
        self.requests = requests
        self.transport = transport
        self.store = store
        self.logger = logger
        self.firstRetryNanoseconds = firstRetryNanoseconds
        device = Locked(store.deviceID())
        self.privacy = privacy
        let snapshot = store.load()
        state.withLock { $0.snapshot = snapshot }
        // A registration that a previous run started but did not finish is taken up again.
        if let current = snapshot.current, snapshot.registrations[current] == nil { startAttempt(for: current) }
    }

    var currentIdentity: String? { state.withLock { $0.snapshot.current } }

    /// Whether an identity is set but has no token yet (its registration is in progress or will be retried).
    var isRegistering: Bool {
        state.withLock { state in state.snapshot.current.map { state.snapshot.registrations[$0] == nil } ?? false }
    }

    /// Sets the identity, registering it unless it is already known. Returns false when it was already current.
    ///
    /// Loads that waited for the previous identity's token now wait for this one's (or get it at once when it
    /// is known): an attempt for an identity that is no longer current wakes no one, so leaving them queued
    /// would strand them, and every later load that joins theirs, until shutdown.
    @discardableResult
    func setIdentity(_ identity: String) -> Bool {
        let moved = state.withLock { state -> [Waiter]? in
            guard state.snapshot.current != identity else { return nil }
            state.snapshot.current = identity
            state.failures = 0
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let moved else { return false }
        persist()
        let known = state.withLock { $0.snapshot.registrations[identity] != nil }
        if known {
            logger.debug("identity restored from an earlier registration; not registering again")
        } else if requests == nil {
            logger.info("no Engage URL is configured: the identity is stored and not registered")
        } else {
            startAttempt(for: identity)
        }
        for waiter in moved { withToken(waiter) }
        return true
    }

    /// Forgets the current identity (log-out). Loads waiting for its token get `.noUser`.
    func clearIdentity() {
        let waiters = state.withLock { state -> [Waiter] in
            state.snapshot.current = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        persist()
        for waiter in waiters { waiter(.noUser) }
    }

    /// Erasure: forgets the identity and every registration (tokens included), stores a new device id. Loads
    /// waiting for a token get `.noUser`.
    func erase() {
        let waiters = state.withLock { state -> [Waiter] in
            state.snapshot = IdentityStore.Snapshot()
            state.failures = 0
            defer { state.waiters = [] }
            return state.waiters
        }
        persist()
        device.withLock { $0 = store.replaceDeviceID() }
        for waiter in waiters { waiter(.noUser) }
    }

    /// Calls `completion` with the current identity's token: at once when it is known, else after the
    /// registration in progress (starting an attempt now when the last one failed).
    func withToken(_ completion: @escaping Waiter) {
        enum Next { case now(TokenResult), wait(String) }
        let next = state.withLock { state -> Next in
            guard !state.stopped else { return .now(.cancelled) }
            guard let current = state.snapshot.current else { return .now(.noUser) }
            if let registration = state.snapshot.registrations[current] { return .now(.token(registration.token, identity: current)) }
            guard requests != nil else { return .now(.failed("no Engage URL is configured")) }
            state.waiters.append(completion)
            return .wait(current)
        }
        switch next {
        case .now(let result): completion(result)
        case .wait(let identity): startAttempt(for: identity)
        }
    }

    /// Drops a token the server refused and registers that identity again.
    func tokenWasRefused(forIdentity identity: String?) {
        guard let identity else { return }
        let dropped = state.withLock { $0.snapshot.registrations.removeValue(forKey: identity) != nil }
        if dropped {
            logger.info("the Engage token was refused; registering again")
            persist()
        }
        startAttempt(for: identity)
    }

    func bearerToken(forIdentity identity: String?) -> String? {
        guard let identity else { return nil }
        return state.withLock { $0.snapshot.registrations[identity]?.token }
    }

    /// Fails every waiter with `.cancelled` and stops retrying.
    func stop() {
        let waiters = state.withLock { state -> [Waiter] in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter(.cancelled) }
    }

    // MARK: - Attempts

    private func startAttempt(for identity: String) {
        guard let requests else { return }
        let start = state.withLock { state -> Bool in
            guard !state.stopped, !state.attemptsInFlight.contains(identity) else { return false }
            state.attemptsInFlight.insert(identity)
            return true
        }
        guard start else { return }
        let request = requests.registration(publisherUserID: identity, deviceID: deviceID, privacy: privacy())
        transport.send(request) { [weak self] outcome in self?.finishAttempt(for: identity, outcome) }
    }

    private func finishAttempt(for identity: String, _ outcome: Result<HTTPResponse, TransportError>) {
        var failure: String?
        var registration: IdentityStore.Registration?
        switch outcome {
        case .success(let response) where (200..<300).contains(response.status):
            if let decoded = EngageRequests.decodeRegistration(response.body) {
                registration = .init(userID: decoded.userID, token: decoded.token)
            } else {
                failure = "the registration answer has no user_id and token"
            }
        case .success(let response):
            failure = "registration answered HTTP \(response.status)"
        case .failure(.cancelled):
            failure = nil
        case .failure(let error):
            failure = "registration failed: \(error.message)"
        }
        let cancelled = registration == nil && failure == nil
        let (waiters, retryAfter) = state.withLock { state -> ([Waiter], UInt64?) in
            state.attemptsInFlight.remove(identity)
            let isCurrent = state.snapshot.current == identity
            if let registration { state.snapshot.registrations[identity] = registration }
            guard isCurrent else { return ([], nil) }
            let waiters = state.waiters
            state.waiters = []
            if registration != nil {
                state.failures = 0
                return (waiters, nil)
            }
            if cancelled || state.stopped { return (waiters, nil) }
            state.failures += 1
            return (waiters, RetryPolicy.backoffNanoseconds(attempts: state.failures, first: firstRetryNanoseconds))
        }
        if let registration {
            persist()
            logger.debug("registered as user \(registration.userID)")
            for waiter in waiters { waiter(.token(registration.token, identity: identity)) }
            return
        }
        if cancelled {
            for waiter in waiters { waiter(.cancelled) }
            return
        }
        let reason = failure ?? "registration failed"
        logger.warning("\(reason); retrying in the background")
        for waiter in waiters { waiter(.failed(reason)) }
        if let retryAfter {
            transport.schedule(afterNanoseconds: retryAfter) { [weak self] in
                guard let self, self.currentIdentity == identity, self.isRegistering else { return }
                self.startAttempt(for: identity)
            }
        }
    }

    /// Stores the snapshot under the lock, so two threads' saves cannot land in the wrong order.
    private func persist() {
        state.withLock { store.save($0.snapshot) }
    }
}
