// Counters of a running SDK, and what a storage directory holds.
namespace BlinkEngage
{
    /// <summary>Counters since the SDK started (be_stats); see the header for each.</summary>
    public sealed class Stats
    {
        internal Stats(be_stats s)
        {
            RequestsSent = s.requests_sent; BeaconsQueued = s.beacons_queued; BeaconsDelivered = s.beacons_delivered;
            BeaconsDropped = s.beacons_dropped; EventsQueued = s.events_queued; EventsDelivered = s.events_delivered;
            EventsDropped = s.events_dropped; DroppedRejected = s.dropped_rejected; DroppedExpired = s.dropped_expired;
            DroppedOverflow = s.dropped_overflow; CorruptRecords = s.corrupt_records; QueueDepth = s.queue_depth;
            DroppedPrivacy = s.dropped_privacy; PrefetchHits = s.prefetch_hits; ImageRequests = s.image_requests;
            ImageMemoryHits = s.image_memory_hits; ImageDiskHits = s.image_disk_hits;
            ImageRevalidations = s.image_revalidations; ImageShared = s.image_shared;
            ViewableImpressions = s.viewable_impressions;
            CrashLoopMode = s.crash_loop_mode;
            StorageRefused = s.storage_refused; StorageFormatHeld = s.storage_format_held;
            ReportsMigrated = s.reports_migrated; ReportsUnrecoverable = s.reports_unrecoverable;
            FeedEventsRefused = s.feed_events_refused;
        }

        public ulong RequestsSent { get; private set; }
        public ulong BeaconsQueued { get; private set; }
        public ulong BeaconsDelivered { get; private set; }
        public ulong BeaconsDropped { get; private set; }
        public ulong EventsQueued { get; private set; }
        public ulong EventsDelivered { get; private set; }
        public ulong EventsDropped { get; private set; }
        public ulong DroppedRejected { get; private set; }
        public ulong DroppedExpired { get; private set; }
        public ulong DroppedOverflow { get; private set; }
        public ulong CorruptRecords { get; private set; }
        public ulong QueueDepth { get; private set; }
        public ulong DroppedPrivacy { get; private set; }
        public ulong PrefetchHits { get; private set; }
        public ulong ImageRequests { get; private set; }
        public ulong ImageMemoryHits { get; private set; }
        public ulong ImageDiskHits { get; private set; }
        public ulong ImageRevalidations { get; private set; }
        public ulong ImageShared { get; private set; }
        public ulong ViewableImpressions { get; private set; }
        /// <summary>0 normal, 1 safe mode, 2 inert (be_stats.crash_loop_mode).</summary>
        public ulong CrashLoopMode { get; private set; }
        /// <summary>Entries refused in the storage directory, moved aside (be_stats.storage_refused).</summary>
        public ulong StorageRefused { get; private set; }
        /// <summary>A newer storage format met at start, left untouched; 0 otherwise (be_stats.storage_format_held).</summary>
        public ulong StorageFormatHeld { get; private set; }
        /// <summary>Reports carried from an earlier release's storage or a damaged database (be_stats.reports_migrated).</summary>
        public ulong ReportsMigrated { get; private set; }
        /// <summary>Reports of an earlier format or a damaged database that could not be read.</summary>
        public ulong ReportsUnrecoverable { get; private set; }
        /// <summary>Feed events reported that could not be recorded, each logged (be_stats.feed_events_refused).</summary>
        public ulong FeedEventsRefused { get; private set; }
    }

    /// <summary>What a storage directory holds for one API key (be_storage_info).</summary>
    public sealed class StorageInfo
    {
        internal StorageInfo(be_storage_info i)
        {
            BeaconsQueued = i.beacons_queued; EventsQueued = i.events_queued; OldestItemAgeSeconds = i.oldest_item_age_s;
            DatabaseBytes = i.database_bytes; ImageCacheBytes = i.image_cache_bytes; ImageCacheFiles = i.image_cache_files;
            HasIdentity = i.has_identity != 0;
        }

        public ulong BeaconsQueued { get; private set; }
        public ulong EventsQueued { get; private set; }
        public ulong OldestItemAgeSeconds { get; private set; }
        public ulong DatabaseBytes { get; private set; }
        public ulong ImageCacheBytes { get; private set; }
        public ulong ImageCacheFiles { get; private set; }
        public bool HasIdentity { get; private set; }
    }
}
