/// Privacy signals, erasure and the impressions they govern (docs/PROTOCOL.md section 6).
extension SDK {
    /// The signals in force now.
    var privacySignals: PrivacySignals { privacy.withLock { $0 } }

    /// Changes the signals (all or nothing: a refused value changes nothing). Applies to requests made after.
    public func updatePrivacy(_ change: (inout PrivacySignals) throws(EngineFailure) -> Void) throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            try privacy.withLock { (signals: inout PrivacySignals) throws(EngineFailure) in
                var copy = signals
                try change(&copy)
                signals = copy
            }
        }
    }

    /// The beacons to fire when `offer` becomes visible: `pixel`, and `adv_pixel_url` unless the user's choices
    /// withhold third parties (then counted in `dropped_privacy`).
    func impressionBeacons(of offer: Offer) -> [String] {
        impressionBeacons(pixel: offer.pixelURL, advertiserPixel: offer.advertiserPixelURL)
    }

    func impressionBeacons(pixel: String?, advertiserPixel: String?) -> [String] {
        var urls = pixel.map { [$0] } ?? []
        if let advertiser = advertiserPixel {
            if privacySignals.restrictsIdentifiers {
                outbox.countPrivacyDrop()
                recorder?.decision("identifier_withheld", "an advertiser pixel was not fired: the user's privacy choices restrict identifiers")
            } else {
                urls.append(advertiser)
            }
        }
        return urls
    }

    /// Erasure: forgets the identity and its token (every stored registration), replaces the device id,
    /// deletes the feed cache, prefetched answers and every queued event and beacon (counted in
    /// `dropped_privacy`). Loads waiting for the feed end with error 1.
    public func deleteUserData() throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in
            feedLoader.erase()
            registrar.erase()
            prefetches.removeAll()
            images.removeAll()  // which creatives were shown says something about the user too
            let dropped = outbox.eraseAll()
            database?.scrub()
            logger.info("user data deleted: identity, tokens, device id, feed cache, prefetched answers, cached images, \(dropped) queued items")
        }
    }
}
