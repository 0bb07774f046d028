
/// Legacy zone ads (docs/PROTOCOL.md section 5).
extension SDK {
    /// Fetches the ad of one zone. `completion` runs exactly once on the callback queue.
    public func fetchZoneAd(
        zoneID: String, completion: @escaping @Sendable (Result<ZoneAd, ServiceError>) -> Void
    ) throws(EngineFailure) {
        try fetchCall { () throws(EngineFailure) in
            guard !zoneID.isEmpty else { throw .invalidArgument("zone_id is empty") }
            guard let template = configuration.zoneAdURLTemplate else { throw .invalidState("no zone ad URL is configured") }
            let url = template.replacingOccurrences(of: "{zone}", with: PercentEncoding.encode(zoneID))
            let request = HTTPRequest(
                method: .get, url: url, headers: [("Accept", "text/plain, */*"), ("User-Agent", configuration.effectiveUserAgent)],
                timeoutMilliseconds: configuration.timeoutMilliseconds, maximumBodyBytes: 64 * 1024)
            transport.send(request) { [callbacks, logger] outcome in
                let result = ZoneAdParser.decode(outcome, zoneID: zoneID)
                if case .failure(let error) = result, error.domain != .cancelled { logger.info("zone ad \(zoneID): \(error.message)") }
                callbacks.enqueue { completion(result) }
            }
        }
    }

    /// Records a click on a zone ad as a `zone_ad_click` event, before the host opens the link. Without an
    /// Engage backend nothing is recorded (logged at info level).
    public func reportZoneAdClick(_ ad: ZoneAd) throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            guard configuration.engageURL != nil else {
                logger.info("zone ad click not recorded: no Engage URL is configured")
                return
            }
            let json = EventJSON.zoneAdClick(zoneID: ad.zoneID, linkURL: ad.linkURL?.string, id: RandomID.make(),
                                             occurredAtMilliseconds: WallClock.milliseconds())
            try outbox.enqueueEvent(json: json, identity: registrar.currentIdentity, privacy: privacySignals)
        }
    }
}
