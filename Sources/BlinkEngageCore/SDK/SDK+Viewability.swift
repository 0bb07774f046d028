extension SDK {
    /// `offer` (of a feed, a Moments answer or a screen) is `fraction` of its pixels visible now: the host calls
    /// this from its frame or scroll loop whenever the fraction changes. The SDK's clock applies the rule
    /// (`SDKConfiguration.viewability`); a view that becomes viewable records one durable `viewable_impression`
    /// event (with an Engage URL) and, when `impressionBeaconsAtViewable`, fires the offer's impression beacons.
    /// - Throws: `.invalidArgument` for a fraction outside 0...1 (NaN included); `.invalidState` after shutdown
    ///   and in a forked child.
    public func reportVisibility(of offer: Offer, fraction: Double) throws(EngineFailure) {
        guard fraction >= 0, fraction <= 1 else { throw .invalidArgument("the visible fraction must be from 0 to 1") }
        try hostCall { () throws(EngineFailure) in views.report(offer, fraction: fraction) }
    }

    /// The impression beacons an offer fires when it appears (a feed's `did_appear`, a screen showing it): none
    /// when they wait for a viewable impression instead.
    func appearanceBeacons(pixel: String?, advertiserPixel: String?) -> [String] {
        configuration.impressionBeaconsAtViewable ? [] : impressionBeacons(pixel: pixel, advertiserPixel: advertiserPixel)
    }

    func appearanceBeacons(of offer: Offer) -> [String] {
        appearanceBeacons(pixel: offer.pixelURL, advertiserPixel: offer.advertiserPixelURL)
    }

    /// A view became viewable (on the reporting thread, or the transport's at the view's deadline).
    func recordViewable(_ impression: ViewTracker.Impression) {
        let nowMonotonic = MonotonicClock.now()
        let ago = Int64(clamping: (nowMonotonic >= impression.instant ? nowMonotonic - impression.instant : 0) / 1_000_000)
        if configuration.engageURL != nil {
            let json = EventJSON.viewableImpression(
                of: impression.offer, rule: views.rule, id: RandomID.make(), occurredAtMilliseconds: WallClock.milliseconds() - ago)
            do throws(EngineFailure) {
                try outbox.enqueueEvent(json: json, identity: registrar.currentIdentity, privacy: privacySignals)
            } catch {
                logger.warning("could not record a viewable impression: \(error.message)")
            }
        }
        guard configuration.impressionBeaconsAtViewable else { return }
        fireBeacons(impressionBeacons(of: impression.offer))
    }

    /// Queues `urls` as beacons, in order; one the outbox refuses (a URL it will not send, a full disk) is logged
    /// and skipped, and the others still go. Every path that fires beacons comes here.
    func fireBeacons(_ urls: [String]) {
        for url in urls {
            do throws(EngineFailure) { try outbox.enqueueBeacon(url: url) } catch {
                logger.warning("skipped a beacon: \(error.message)")
            }
        }
    }
}
