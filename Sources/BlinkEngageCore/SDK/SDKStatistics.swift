/// Counters since start: what `be_stats` reports.
public struct SDKStatistics: Sendable {
    public var requestsSent: UInt64
    public var outbox: OutboxStatistics
    public var prefetchHits: UInt64
    public var images: ImageStatistics
    public var viewableImpressions: UInt64
    public var crashLoopMode: Int
    public var storage: StorageStatistics
    /// Feed events the host reported that could not be recorded.
    public var feedEventsRefused: UInt64
}
