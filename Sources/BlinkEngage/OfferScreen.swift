internal import BlinkEngageCore

/// A headless SDK screen: the offer to show now, navigation, and the beacons each step fires. The host draws
/// it. From ``BlinkEngageSDK/offerDetailsViewController(for:)``, ``BlinkEngageSDK/offerGroupViewController(for:)``
/// (the feed) or ``BlinkEngageSDK/offerScreen(for:)`` (the single-offer unit of a Moments answer). A screen
/// keeps its feed or answer alive. Calls after the SDK shut down throw ``BlinkEngageError/invalidState(_:)``.
public struct BlinkEngageOfferScreen: Sendable {
    let core: OfferScreen

    init(_ core: OfferScreen) { self.core = core }

    private func step<Value>(_ body: () throws(EngineFailure) -> Value) throws(BlinkEngageError) -> Value {
        do throws(EngineFailure) { return try body() } catch { throw BlinkEngageError(error) }
    }

    /// The offer to show now; nil once the screen finished.
    public var currentOffer: BlinkEngageOffer? { core.currentOffer.map(BlinkEngageOffer.init) }
    /// Every offer of the screen, in order.
    public var offers: [BlinkEngageOffer] { core.offers.map(BlinkEngageOffer.init) }
    /// The index of the current offer.
    public var index: Int { core.index }
    /// Whether there is a next offer to show.
    public var hasNext: Bool { core.hasNext }
    /// Whether there is a previous offer to show.
    public var hasPrevious: Bool { core.hasPrevious }
    /// Closed, or the last offer answered.
    public var isFinished: Bool { core.isFinished }
    /// The answer's styles; nil for feed screens.
    public var styles: BlinkEngageStyles? { core.styles.map(BlinkEngageStyles.init) }

    /// Shows the next offer (its impression beacons fire).
    public func showNext() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.showNext() } }
    /// Shows the previous offer.
    public func showPrevious() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.showPrevious() } }
    /// The positive CTA: returns the answered offer (open its ``BlinkEngageOffer/clickURL``) and moves on; on
    /// the last offer the screen finishes.
    @discardableResult
    public func accept() throws(BlinkEngageError) -> BlinkEngageOffer {
        BlinkEngageOffer(try step { () throws(EngineFailure) in try core.accept() })
    }
    /// The negative CTA: fires `no_thanks_click` and moves on.
    public func decline() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.decline() } }
    /// Dismisses the screen: fires `close` for the current offer and finishes.
    public func close() throws(BlinkEngageError) { try step { () throws(EngineFailure) in try core.close() } }
}
