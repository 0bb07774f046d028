public import CBlinkEngage
import BlinkEngageCore

@c @implementation
public func be_sdk_start(_ config: OpaquePointer?, _ out_sdk: UnsafeMutablePointer<OpaquePointer?>?) -> be_status {
    out_sdk?.pointee = nil
    return statusCall { () throws(EngineFailure) in
        guard let out_sdk else { throw .invalidArgument("out_sdk is NULL") }
        guard let handle = Handle.object(config, as: ConfigHandle.self) else { throw .invalidArgument("config is NULL") }
        let sdk = try SDK(configuration: handle.configuration.withLock { $0 })
        out_sdk.pointee = Handle.retained(sdk)
    }
}

@c @implementation
public func be_sdk_dispatch(_ sdk: OpaquePointer?, _ max_callbacks: Int32) -> Int32 {
    guard let sdk = Handle.object(sdk, as: SDK.self) else { return 0 }
    return ForkGate.inside(orElse: { 0 }) { Int32(clamping: sdk.dispatch(maximum: Int(max_callbacks))) }
}

@c @implementation
public func be_sdk_dispatch_fd(_ sdk: OpaquePointer?) -> Int32 {
    Handle.object(sdk, as: SDK.self)?.dispatchDescriptor ?? -1
}

@c @implementation
public func be_sdk_shutdown(_ sdk: OpaquePointer?, _ timeout_ms: UInt32) {
    guard let engine = Handle.object(sdk, as: SDK.self) else { return }
    // From inside its own callback the SDK refuses (and logs); the host's reference then stays valid.
    guard ForkGate.inside(orElse: { false }, { engine.shutdown(timeoutMilliseconds: timeout_ms) }) else { return }
    Handle.release(sdk, as: SDK.self)
}

@c @implementation
public func be_sdk_flush(_ sdk: OpaquePointer?, _ timeout_ms: UInt32) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.flush(timeoutMilliseconds: timeout_ms)
    }
}

@c @implementation
public func be_sdk_get_stats(_ sdk: OpaquePointer?, _ out_stats: UnsafeMutablePointer<be_stats>?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let out_stats else { throw .invalidArgument("out_stats is NULL") }
        let size = Int(out_stats.pointee.struct_size)
        guard size >= MemoryLayout<UInt32>.size else { throw .invalidArgument("out_stats->struct_size is not set") }
        let statistics = try engine.statistics()
        var filled = be_stats()
        filled.struct_size = UInt32(min(size, MemoryLayout<be_stats>.size))
        filled.requests_sent = statistics.requestsSent
        filled.beacons_queued = statistics.outbox.beaconsQueued
        filled.beacons_delivered = statistics.outbox.beaconsDelivered
        filled.beacons_dropped = statistics.outbox.beaconsDropped
        filled.events_queued = statistics.outbox.eventsQueued
        filled.events_delivered = statistics.outbox.eventsDelivered
        filled.events_dropped = statistics.outbox.eventsDropped
        filled.dropped_rejected = statistics.outbox.droppedRejected
        filled.dropped_expired = statistics.outbox.droppedExpired
        filled.dropped_overflow = statistics.outbox.droppedOverflow
        filled.corrupt_records = statistics.outbox.corruptRecords
        filled.queue_depth = statistics.outbox.queueDepth
        filled.dropped_privacy = statistics.outbox.droppedPrivacy
        filled.prefetch_hits = statistics.prefetchHits
        filled.image_requests = statistics.images.requests
        filled.image_memory_hits = statistics.images.memoryHits
        filled.image_disk_hits = statistics.images.diskHits
        filled.image_revalidations = statistics.images.revalidations
        filled.image_shared = statistics.images.joined
        filled.viewable_impressions = statistics.viewableImpressions
        filled.crash_loop_mode = UInt64(statistics.crashLoopMode)
        filled.storage_refused = statistics.storage.refused
        filled.storage_format_held = statistics.storage.heldFormat
        filled.reports_migrated = statistics.storage.reportsMigrated
        filled.reports_unrecoverable = statistics.storage.reportsUnrecoverable
        filled.feed_events_refused = statistics.feedEventsRefused
        // Copy only as many bytes as the caller's (possibly older, smaller) struct holds.
        let byteCount = Int(filled.struct_size)
        withUnsafeBytes(of: &filled) { source in
            UnsafeMutableRawPointer(out_stats).copyMemory(from: source.baseAddress!, byteCount: byteCount)
        }
    }
}

@c @implementation
public func be_storage_inspect(
    _ storage_dir: UnsafePointer<CChar>?, _ api_key: UnsafePointer<CChar>?, _ out_info: UnsafeMutablePointer<be_storage_info>?
) -> be_status {
    statusCall { () throws(EngineFailure) in
        let root = try hostString(storage_dir, "storage_dir"), key = try hostString(api_key, "api_key")
        guard let out_info else { throw .invalidArgument("out_info is NULL") }
        let size = Int(out_info.pointee.struct_size)
        guard size >= MemoryLayout<UInt32>.size else { throw .invalidArgument("out_info->struct_size is not set") }
        let info = try StorageInspection.inspect(root: root, apiKey: key)
        var filled = be_storage_info()
        filled.struct_size = UInt32(min(size, MemoryLayout<be_storage_info>.size))
        filled.beacons_queued = info.beaconsQueued
        filled.events_queued = info.eventsQueued
        filled.oldest_item_age_s = info.oldestItemAgeSeconds
        filled.database_bytes = info.databaseBytes
        filled.image_cache_bytes = info.imageCacheBytes
        filled.image_cache_files = info.imageCacheFiles
        filled.has_identity = info.hasIdentity ? 1 : 0
        // Copy only as many bytes as the caller's (possibly older, smaller) struct holds.
        let byteCount = Int(filled.struct_size)
        withUnsafeBytes(of: &filled) { source in
            UnsafeMutableRawPointer(out_info).copyMemory(from: source.baseAddress!, byteCount: byteCount)
        }
    }
}

@c @implementation
public func be_sdk_warm_up(_ sdk: OpaquePointer?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        try engine.warmUp()
    }
}
