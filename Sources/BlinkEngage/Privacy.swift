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

/// Counters since start (``BlinkEngageSDK/stats()``).
public struct BlinkEngageStats: Sendable, Equatable {
    public let requestsSent: UInt64
    public let beaconsQueued, beaconsDelivered, beaconsDropped: UInt64
    public let eventsQueued, eventsDelivered, eventsDropped: UInt64
    /// Why items were dropped: rejected by the server, expired, over the queue's bound, corrupt on disk,
    /// withheld or erased for the user's privacy.
    public let droppedRejected, droppedExpired, droppedOverflow, corruptRecords, droppedPrivacy: UInt64
    /// Beacons and events waiting now.
    public let queueDepth: UInt64
    public let prefetchHits: UInt64
    public let imageRequests, imageMemoryHits, imageDiskHits, imageRevalidations, imagesShared: UInt64

    init(_ statistics: (requestsSent: UInt64, outbox: OutboxStatistics, prefetchHits: UInt64, images: ImageStatistics)) {
        requestsSent = statistics.requestsSent
        let outbox = statistics.outbox
        beaconsQueued = outbox.beaconsQueued
        beaconsDelivered = outbox.beaconsDelivered
        beaconsDropped = outbox.beaconsDropped
        eventsQueued = outbox.eventsQueued
        eventsDelivered = outbox.eventsDelivered
        eventsDropped = outbox.eventsDropped
        droppedRejected = outbox.droppedRejected
        droppedExpired = outbox.droppedExpired
        droppedOverflow = outbox.droppedOverflow
        corruptRecords = outbox.corruptRecords
        droppedPrivacy = outbox.droppedPrivacy
        queueDepth = outbox.queueDepth
        prefetchHits = statistics.prefetchHits
        imageRequests = statistics.images.requests
        imageMemoryHits = statistics.images.memoryHits
        imageDiskHits = statistics.images.diskHits
        imageRevalidations = statistics.images.revalidations
        imagesShared = statistics.images.joined
    }
}

/// What a storage directory holds (``BlinkEngageSDK/inspectStorage(_:apiKey:)``).
public struct BlinkEngageStorageInfo: Sendable, Equatable {
    public let beaconsQueued, eventsQueued: UInt64
    /// Seconds since the oldest queued item was reported; 0 with none.
    public let oldestItemAgeSeconds: UInt64
    public let databaseBytes, imageCacheBytes, imageCacheFiles: UInt64
    public let hasIdentity: Bool

    init(_ info: StorageInfo) {
        beaconsQueued = info.beaconsQueued
        eventsQueued = info.eventsQueued
        oldestItemAgeSeconds = info.oldestItemAgeSeconds
        databaseBytes = info.databaseBytes
        imageCacheBytes = info.imageCacheBytes
        imageCacheFiles = info.imageCacheFiles
        hasIdentity = info.hasIdentity
    }
}
