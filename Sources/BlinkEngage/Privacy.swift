internal import BlinkEngageCore

/// The user's privacy choices, as the consent platform gives them. Each applies to requests made after it.
extension BlinkEngageSDK {
    private func updatePrivacy(_ change: (inout PrivacySignals) throws(EngineFailure) -> Void) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.updatePrivacy(change) }
    }

    /// GDPR: whether it applies (nil: unknown) and the TCF consent string.
    public func setGDPR(applies: Bool?, consent: String?) throws(BlinkEngageError) {
        try updatePrivacy { (signals: inout PrivacySignals) throws(EngineFailure) in
            try signals.setGDPR(applies: applies.map { $0 ? 1 : 0 } ?? -1, consent: consent)
        }
    }

    /// The IAB US Privacy string ("1YNN"); nil clears it.
    public func setUSPrivacy(_ value: String?) throws(BlinkEngageError) {
        try updatePrivacy { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setUSPrivacy(value) }
    }

    /// The IAB GPP string and its section ids ("2_6"); nil clears them.
    public func setGPP(_ value: String?, sectionIDs: String?) throws(BlinkEngageError) {
        try updatePrivacy { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setGPP(value, sections: sectionIDs) }
    }

    /// COPPA: the user is a child (nil: unknown). Identifiers then stay home and advertiser pixels are withheld.
    public func setChildDirected(_ value: Bool?) throws(BlinkEngageError) {
        try updatePrivacy { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setChildDirected(value.map { $0 ? 1 : 0 } ?? -1) }
    }

    /// The platform's limit-ad-tracking choice: identifiers stay home and advertiser pixels are withheld.
    public func setLimitTracking(_ limited: Bool) throws(BlinkEngageError) {
        try updatePrivacy { (signals: inout PrivacySignals) throws(EngineFailure) in try signals.setLimitTracking(limited ? 1 : 0) }
    }

    /// Erases what the SDK holds about the user: identity and token, device id, feed cache, prefetched answers,
    /// cached images, and every queued event and beacon. Loads waiting for the feed end with error 1.
    public func deleteUserData() throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.deleteUserData() }
    }
}
