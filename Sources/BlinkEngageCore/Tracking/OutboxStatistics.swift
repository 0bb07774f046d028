/// What the outbox has done since the SDK started (mirrors the tracking part of `be_stats`).
public struct OutboxStatistics: Sendable, Equatable {
    public var beaconsQueued: UInt64 = 0
    public var beaconsDelivered: UInt64 = 0
    public var beaconsDropped: UInt64 = 0
    public var eventsQueued: UInt64 = 0
    public var eventsDelivered: UInt64 = 0
    public var eventsDropped: UInt64 = 0
    public var droppedRejected: UInt64 = 0
    public var droppedExpired: UInt64 = 0
    public var droppedOverflow: UInt64 = 0
    public var corruptRecords: UInt64 = 0
    public var queueDepth: UInt64 = 0
    /// Withheld for the user's privacy choices (advertiser pixels under COPPA or limited tracking) or erased.
    public var droppedPrivacy: UInt64 = 0

    public init() {}

    enum DropReason { case rejected, expired, overflow }

    mutating func countDrop(of item: OutboxItem, _ reason: DropReason) {
        if item.isEvent { eventsDropped += 1 } else { beaconsDropped += 1 }
        switch reason {
        case .rejected: droppedRejected += 1
        case .expired: droppedExpired += 1
        case .overflow: droppedOverflow += 1
        }
    }
}
