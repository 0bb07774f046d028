extension SDK {
    /// Fetches Moments API offers. `completion` runs exactly once on the callback queue. An equal request
    /// prefetched within the TTL is answered from the prefetch, without a request.
    public func fetchMomentsOffers(
        _ request: MomentsRequest, completion: @escaping @Sendable (Result<MomentsResponse, ServiceError>) -> Void
    ) throws(EngineFailure) {
        try fetchCall { () throws(EngineFailure) in
            let signals = privacySignals
            let callbacks = self.callbacks
            switch prefetches.claim(PrefetchCache.Key(request: request, privacy: signals), waiter: { result in
                callbacks.enqueue { completion(result) }
            }) {
            case .ready(let response):
                logger.debug("Moments fetch answered from a prefetch")
                recorder?.decision("answered_from_prefetch", "a Moments fetch got the answer prefetched for an equal request")
                deliver(.success(response), to: completion)
            case .joined:
                logger.debug("Moments fetch joined the prefetch in flight")
                recorder?.decision("joined_prefetch", "a Moments fetch waits for the prefetch of an equal request in flight")
            case .miss:
                sendMoments(request, privacy: signals) { result in callbacks.enqueue { completion(result) } }
            }
        }
    }

    /// Fetches Moments API offers now for a later `fetchMomentsOffers` of an equal request. A failure is not kept.
    public func prefetchMomentsOffers(_ request: MomentsRequest) throws(EngineFailure) {
        try fetchCall { () throws(EngineFailure) in
            let signals = privacySignals
            guard let token = prefetches.begin(PrefetchCache.Key(request: request, privacy: signals)) else {
                logger.debug("a prefetch of this request is already there")
                return
            }
            sendMoments(request, privacy: signals) { [prefetches] result in
                prefetches.finish(token, result)?(result)
            }
        }
    }

    /// Builds, sends and decodes one Moments request; `completion` runs once on the transport thread (or here,
    /// through the callback queue's rules, when the request cannot be built).
    func sendMoments(
        _ request: MomentsRequest, privacy: PrivacySignals, completion: @escaping @Sendable (Result<MomentsResponse, ServiceError>) -> Void
    ) {
        let completion = crashGuard.watchingFirstAnswer(completion)
        for warning in request.limitWarnings { logger.warning("Moments request: \(warning) (sent anyway)") }
        let httpRequest: HTTPRequest
        if let built = lastMomentsRequest.withLock({ last in
            // Privacy signals are checked ASCII, so `==` is byte equality there.
            last.flatMap { $0.request.isByteIdentical(to: request) && $0.privacy == privacy ? $0.built : nil }
        }) {
            httpRequest = built
        } else {
            let builder = MomentsRequestBuilder(
                baseURL: configuration.momentsURL, apiKey: configuration.apiKey,
                userAgent: configuration.effectiveUserAgent, development: configuration.development,
                timeoutMilliseconds: configuration.timeoutMilliseconds)
            switch Result(catching: { () throws(ServiceError) in try builder.build(request, privacy: privacy) }) {
            case .success(let built): httpRequest = built
            case .failure(let error):
                logger.warning("Moments request refused: \(error.message)")
                return completion(.failure(error))
            }
            lastMomentsRequest.withLock { $0 = (request, privacy, httpRequest) }
        }
        fetchTransport.send(httpRequest) { [logger, recorder] outcome in
            var warnings: [String] = []
            let result = MomentsResponseDecoder.decode(outcome, warnings: &warnings)
            for warning in warnings { logger.warning("Moments answer: \(warning)") }
            if let recorder, case .success(let response) = result {
                for warning in warnings { recorder.decision("answer_warning", warning) }
                for offer in response.offers where !offer.refusedURLKeys.isEmpty {
                    recorder.decision("offer_field_refused", "offer \(offer.id): \(offer.refusedURLKeys.joined(separator: ", ")) not an absolute http(s) URL")
                }
            }
            if case .failure(let error) = result, error.domain != .cancelled {
                logger.info("Moments fetch failed: \(error.message)")
            }
            completion(result)
        }
    }
}
