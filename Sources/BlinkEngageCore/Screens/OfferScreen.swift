/// The single-offer unit without pixels: the SDK owns which offer is current and fires the tracking beacons,
/// the host draws it (C-API.md, SDK screens; docs/PROTOCOL.md section 3).
///
/// Every display is an impression: an offer fires `pixel` (and `adv_pixel_url`) each time it becomes current,
/// Previous included (unless they wait for a viewable impression: `SDKConfiguration.impressionBeaconsAtViewable`). Accept and decline move on, or on the last offer fire `close` and finish; decline fires
/// `no_thanks_click` first. Close fires `close` and finishes. Freeing a screen fires nothing.
public final class OfferScreen: Sendable {
    public enum Owner: Sendable {
        case feed(OfferFeed)
        case moments(MomentsResponse)
    }

    private struct State {
        var index = 0
        var finished = false
    }

    public let offers: [Offer]
    /// Keeps the feed or response alive: everything handed out from the screen lives as long as it.
    public let owner: Owner
    private let sdk: SDK
    private let state = Locked(State())

    /// Opens a screen on `offers` and fires the first offer's impressions.
    init(offers: [Offer], owner: Owner, sdk: SDK) throws(EngineFailure) {
        guard !offers.isEmpty else { throw .invalidArgument("a screen needs at least one offer") }
        self.offers = offers
        self.owner = owner
        self.sdk = sdk
        try fire(sdk.appearanceBeacons(of: offers[0]))
    }

    public var styles: Styles? {
        if case .moments(let response) = owner { return response.styles }
        return nil
    }

    public var currentOffer: Offer? { state.withLock { $0.finished ? nil : offers[$0.index] } }
    public var index: Int { state.withLock { $0.index } }
    public var isFinished: Bool { state.withLock { $0.finished } }
    public var hasNext: Bool { state.withLock { !$0.finished && $0.index + 1 < offers.count } }
    public var hasPrevious: Bool { state.withLock { !$0.finished && $0.index > 0 } }

    public func showNext() throws(EngineFailure) { try move(by: 1) }
    public func showPrevious() throws(EngineFailure) { try move(by: -1) }

    /// The positive CTA: returns the answered offer (the host opens its click URL) and moves on.
    public func accept() throws(EngineFailure) -> Offer { try answer(noThanks: false) }

    /// The negative CTA: fires `no_thanks_click`, then moves on.
    public func decline() throws(EngineFailure) { _ = try answer(noThanks: true) }

    /// Dismisses the unit: fires `close` for the current offer and finishes.
    public func close() throws(EngineFailure) {
        let offer = try transition { state throws(EngineFailure) -> Offer in
            let offer = offers[state.index]
            state.finished = true
            return offer
        }
        try fire([offer.closeBeaconURL].compactMap { $0 })
    }

    // MARK: - Transitions

    /// Applies `change` to a screen that is still showing, under the SDK's host-call guard.
    private func transition<Result>(_ change: (inout State) throws(EngineFailure) -> Result) throws(EngineFailure) -> Result {
        try sdk.hostCall { () throws(EngineFailure) in
            try state.withLock { (state: inout State) throws(EngineFailure) -> Result in
                guard !state.finished else { throw .invalidState("the screen is finished") }
                return try change(&state)
            }
        }
    }

    private func move(by step: Int) throws(EngineFailure) {
        let offer = try transition { state throws(EngineFailure) -> Offer in
            let target = state.index + step
            guard offers.indices.contains(target) else { throw .invalidState(step > 0 ? "no next offer" : "no previous offer") }
            state.index = target
            return offers[target]
        }
        try fire(sdk.appearanceBeacons(of: offer))
    }

    /// Accept or decline: answers the current offer, then shows the next one or closes on the last.
    private func answer(noThanks: Bool) throws(EngineFailure) -> Offer {
        let (answered, next) = try transition { state throws(EngineFailure) -> (Offer, Offer?) in
            let answered = offers[state.index]
            if state.index + 1 < offers.count {
                state.index += 1
                return (answered, offers[state.index])
            }
            state.finished = true
            return (answered, nil)
        }
        var urls: [String] = []
        if noThanks, let url = answered.noThanksBeaconURL { urls.append(url) }
        if let next { urls += sdk.appearanceBeacons(of: next) } else if let close = answered.closeBeaconURL { urls.append(close) }
        try fire(urls)
        return answered
    }

    private func fire(_ urls: [String]) throws(EngineFailure) {
        try sdk.hostCall { () throws(EngineFailure) in sdk.fireBeacons(urls) }
    }
}
