internal import BlinkEngageCore

/// A Moments answer: its offers in order (a collection, so `for offer in response` reads them), its styles
/// and its privacy URL.
public struct BlinkEngageMomentsResponse: Sendable, RandomAccessCollection {
    let core: MomentsResponse

    init(_ core: MomentsResponse) { self.core = core }

    /// The index of the first offer: 0.
    public var startIndex: Int { 0 }
    /// The number of offers.
    public var endIndex: Int { core.offers.count }
    /// The offer at `position`.
    public subscript(position: Int) -> BlinkEngageOffer { BlinkEngageOffer(core.offers[position]) }

    /// The offers, in the answer's order (the collection itself reads them too).
    public var offers: [BlinkEngageOffer] { core.offers.map(BlinkEngageOffer.init) }
    /// The answer's styles, for drawing the unit.
    public var styles: BlinkEngageStyles { BlinkEngageStyles(core.styles) }
    /// The privacy policy to link from the unit; only an absolute http(s) URL.
    public var privacyURL: String? { core.privacyURL }
}

extension BlinkEngageSDK {
    /// Builds the engine's request; every parameter is checked here, before any I/O.
    static func momentsRequest(loyaltyBoost: String?, creative: String?, isDevelopment: Bool, payload: [String: String],
                               campaignId: String?) throws(BlinkEngageMomentsError) -> MomentsRequest {
        var request = MomentsRequest()
        do throws(EngineFailure) {
            try request.setLoyaltyboost(loyaltyBoost)
            try request.setCreative(creative)
            try request.setCampaignID(campaignId)
            request.development = isDevelopment
            // Sorted: one payload makes one body, whatever order the dictionary iterates in.
            for key in payload.keys.sorted() { try request.setPayload(key, payload[key]) }
        } catch {
            throw .invalidParameter(error.message)
        }
        return request
    }

    /// Fetches the offers of a moment (a placement such as checkout) from the Moments API.
    ///
    /// - Parameters:
    ///   - loyaltyBoost: "0", "1" or "2"; nil leaves it to the service.
    ///   - creative: "0" or "1"; nil leaves it to the service.
    ///   - isDevelopment: test offers, no activity recorded (also when the configuration is in development mode).
    ///   - payload: the request's attributes: `placement` (recommended), `ua`, `ip`, `adpx_fp`, `pub_user_id`,
    ///     `country`, `theme_id`, and custom keys.
    ///   - campaignId: one campaign only; nil for any.
    /// - Returns: the answer; an equal request prefetched with ``prefetchOffers(loyaltyBoost:creative:isDevelopment:payload:campaignId:)``
    ///   is answered from the prefetch without a request.
    /// - Throws: ``BlinkEngageMomentsError`` (invalid parameter before any I/O, invalid URL, no offers, decoding,
    ///   network, HTTP status), ``BlinkEngageError`` when the SDK is not running or shuts down first
    ///   (``BlinkEngageError/cancelled``), `CancellationError` when the task is cancelled: the request is then
    ///   abandoned and its answer dropped.
    public func fetchOffers(loyaltyBoost: String? = nil, creative: String? = nil, isDevelopment: Bool = false,
                            payload: [String: String] = [:], campaignId: String? = nil) async throws -> BlinkEngageMomentsResponse {
        let request = try Self.momentsRequest(loyaltyBoost: loyaltyBoost, creative: creative, isDevelopment: isDevelopment,
                                              payload: payload, campaignId: campaignId)
        return try await awaitCompletion { (resume: @escaping @Sendable (Result<BlinkEngageMomentsResponse, any Error>) -> Void) throws(BlinkEngageError) in
            try call { (engine: SDK) throws(EngineFailure) in
                try engine.fetchMomentsOffers(request) { result in
                    resume(result.map(BlinkEngageMomentsResponse.init).mapError(\.momentsError))
                }
            }
        }
    }

    /// ``fetchOffers(loyaltyBoost:creative:isDevelopment:payload:campaignId:)`` with a completion handler, which
    /// runs exactly once, on the SDK's callback thread (or in ``dispatch(maximum:)``), unless this throws.
    public func fetchOffers(loyaltyBoost: String? = nil, creative: String? = nil, isDevelopment: Bool = false,
                            payload: [String: String] = [:], campaignId: String? = nil,
                            completion: @escaping @Sendable (Result<BlinkEngageMomentsResponse, any Error>) -> Void) throws {
        let request = try Self.momentsRequest(loyaltyBoost: loyaltyBoost, creative: creative, isDevelopment: isDevelopment,
                                              payload: payload, campaignId: campaignId)
        try call { (engine: SDK) throws(EngineFailure) in
            try engine.fetchMomentsOffers(request) { result in
                completion(result.map(BlinkEngageMomentsResponse.init).mapError(\.momentsError))
            }
        }
    }

    /// Fetches the answer of a moment ahead of it (when the cart opens, say): the next equal
    /// ``fetchOffers(loyaltyBoost:creative:isDevelopment:payload:campaignId:)`` within the prefetch TTL is answered
    /// from it, once. A failed prefetch is not kept.
    public func prefetchOffers(loyaltyBoost: String? = nil, creative: String? = nil, isDevelopment: Bool = false,
                               payload: [String: String] = [:], campaignId: String? = nil) throws {
        let request = try Self.momentsRequest(loyaltyBoost: loyaltyBoost, creative: creative, isDevelopment: isDevelopment,
                                              payload: payload, campaignId: campaignId)
        try call { (engine: SDK) throws(EngineFailure) in try engine.prefetchMomentsOffers(request) }
    }

    /// The single-offer unit over a Moments answer: the host draws the current offer in the answer's styles;
    /// the screen moves between offers and fires the unit's beacons.
    public func offerScreen(for response: BlinkEngageMomentsResponse) throws(BlinkEngageError) -> BlinkEngageOfferScreen {
        BlinkEngageOfferScreen(try call { (engine: SDK) throws(EngineFailure) in try engine.momentsScreen(for: response.core) })
    }
}
