internal import BlinkEngageCore

/// Counters since start (``BlinkEngageSDK/stats()``).
public struct BlinkEngageStats: Sendable, Equatable {
    /// Requests made, of every kind: Moments, feed, events, beacons, images.
    public let requestsSent: UInt64
    /// Beacons reported.
    public let beaconsQueued: UInt64
    /// Beacons the pixel hosts accepted.
    public let beaconsDelivered: UInt64
    /// Beacons dropped, for any of the reasons below.
    public let beaconsDropped: UInt64
    /// Feed events and zone ad clicks reported.
    public let eventsQueued: UInt64
    /// Events the Engage backend accepted.
    public let eventsDelivered: UInt64
    /// Events dropped, for any of the reasons below.
    public let eventsDropped: UInt64
    /// Dropped because the server refused them for good (a 4xx other than 408 and 429).
    public let droppedRejected: UInt64
    /// Dropped because they waited longer than the outbox's age limit.
    public let droppedExpired: UInt64
    /// Dropped to make room under the outbox's item limit.
    public let droppedOverflow: UInt64
    /// Stored records that could not be read back and were skipped.
    public let corruptRecords: UInt64
    /// Withheld for the user's privacy choices (advertiser pixels under COPPA or limited tracking) or erased.
    public let droppedPrivacy: UInt64
    /// Beacons and events waiting now.
    public let queueDepth: UInt64
    /// Moments fetches answered from a prefetch.
    public let prefetchHits: UInt64
    /// Image requests made.
    public let imageRequests: UInt64
    /// Images answered from the memory cache.
    public let imageMemoryHits: UInt64
    /// Images answered from the disk cache.
    public let imageDiskHits: UInt64
    /// Images answered after a 304 revalidation.
    public let imageRevalidations: UInt64
    /// Image fetches that joined another fetch of the same URL in flight.
    public let imagesShared: UInt64
    /// Views counted as viewable impressions.
    public let viewableImpressions: UInt64
    /// 0: a normal start; 1: safe mode after repeated crashes at start; 2: inert for this process.
    public let crashLoopMode: Int
    /// Entries refused in the storage directory (a link or FIFO where the SDK expects its own file), moved aside.
    public let storageRefused: UInt64
    /// The newer storage format met at start (a downgrade: left untouched, tracking in memory); 0 otherwise.
    public let storageFormatHeld: UInt64
    /// Queued reports carried from an earlier release's storage, or read back from a damaged database.
    public let reportsMigrated: UInt64
    /// Queued reports of an earlier release's storage or of a damaged database that could not be read.
    public let reportsUnrecoverable: UInt64

    /// Feed events reported that could not be recorded (each is logged too).
    public let feedEventsRefused: UInt64

    init(_ statistics: SDKStatistics) {
        feedEventsRefused = statistics.feedEventsRefused
        storageRefused = statistics.storage.refused
        storageFormatHeld = statistics.storage.heldFormat
        reportsMigrated = statistics.storage.reportsMigrated
        reportsUnrecoverable = statistics.storage.reportsUnrecoverable
        viewableImpressions = statistics.viewableImpressions
        crashLoopMode = statistics.crashLoopMode
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
    /// Beacons waiting for delivery.
    public let beaconsQueued: UInt64
    /// Events waiting for delivery.
    public let eventsQueued: UInt64
    /// Seconds since the oldest queued item was reported; 0 with none.
    public let oldestItemAgeSeconds: UInt64
    /// The database with its write-ahead log, in bytes.
    public let databaseBytes: UInt64
    /// The disk cache of images, in bytes.
    public let imageCacheBytes: UInt64
    /// The disk cache of images, in files.
    public let imageCacheFiles: UInt64
    /// Whether a registered identity is stored.
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
