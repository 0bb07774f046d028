public import CBlinkEngage
import BlinkEngageCore

/// The object behind `be_config *`: a configuration under a lock, since any thread may call a setter.
final class ConfigHandle {
    let configuration: Locked<SDKConfiguration>
    init(apiKey: String) { configuration = Locked(SDKConfiguration(apiKey: apiKey)) }
}

/// Applies `change` to the configuration behind `config`.
private func configure(_ config: OpaquePointer?, _ change: (inout SDKConfiguration) throws(EngineFailure) -> Void) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let handle = Handle.object(config, as: ConfigHandle.self) else { throw .invalidArgument("config is NULL") }
        try handle.configuration.withLock { (configuration: inout SDKConfiguration) throws(EngineFailure) in
            var copy = configuration
            try change(&copy)
            configuration = copy  // all or nothing: a refused value changes nothing
        }
    }
}

/// A C enum's value as its Swift case. C enums arrive unchecked: a host can pass any integer.
private func known<Value: RawRepresentable>(_ raw: UInt32, _ what: String) throws(EngineFailure) -> Value
where Value.RawValue == Int {
    guard let value = Value(rawValue: Int(raw)) else { throw .invalidArgument("unknown \(what) \(raw)") }
    return value
}

@c @implementation
public func be_config_new(_ api_key: UnsafePointer<CChar>?) -> OpaquePointer? {
    valueCall { () throws(EngineFailure) in
        Handle.retained(ConfigHandle(apiKey: try hostString(api_key, "api_key")))
    }
}

@c @implementation
public func be_config_free(_ config: OpaquePointer?) {
    Handle.release(config, as: ConfigHandle.self)
}

@c @implementation
public func be_config_set_moments_url(_ config: OpaquePointer?, _ base_url: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setMomentsURL(try hostString(base_url, "base_url"))
    }
}

@c @implementation
public func be_config_set_engage_url(_ config: OpaquePointer?, _ base_url: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setEngageURL(try hostString(base_url, "base_url"))
    }
}

@c @implementation
public func be_config_set_zone_ad_url(_ config: OpaquePointer?, _ url_template: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setZoneAdURLTemplate(try hostString(url_template, "url_template"))
    }
}

@c @implementation
public func be_config_set_storage_dir(_ config: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setStorageRoot(try hostString(path, "path"))
    }
}

@c @implementation
public func be_config_set_user_agent(_ config: OpaquePointer?, _ user_agent: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setUserAgent(try hostString(user_agent, "user_agent"))
    }
}

@c @implementation
public func be_config_set_timeout_ms(_ config: OpaquePointer?, _ timeout_ms: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setTimeout(milliseconds: timeout_ms)
    }
}

@c @implementation
public func be_config_set_development(_ config: OpaquePointer?, _ enabled: Int32) -> be_status {
    configure(config) { configuration in configuration.development = enabled != 0 }
}

@c @implementation
public func be_config_set_callback_mode(_ config: OpaquePointer?, _ mode: be_callback_mode) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        configuration.callbackMode = try known(mode.rawValue, "callback mode")
    }
}

@c @implementation
public func be_config_set_recorder(_ config: OpaquePointer?, _ max_entries: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setRecorderEntries(Int(max_entries))
    }
}

@c @implementation
public func be_config_set_viewability(_ config: OpaquePointer?, _ min_fraction: Double, _ min_ms: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        configuration.viewability = try ViewabilityRule(threshold: min_fraction, milliseconds: min_ms)
    }
}

@c @implementation
public func be_config_set_impression_beacons(_ config: OpaquePointer?, _ when: be_impression_beacons) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        switch when {
        case BE_IMPRESSION_BEACONS_ON_APPEAR: configuration.impressionBeaconsAtViewable = false
        case BE_IMPRESSION_BEACONS_ON_VIEWABLE: configuration.impressionBeaconsAtViewable = true
        default: throw .invalidArgument("unknown impression beacon setting \(when.rawValue)")
        }
    }
}

@c @implementation
public func be_config_set_warm_up_at_start(_ config: OpaquePointer?, _ enabled: Int32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        configuration.warmUpAtStart = enabled != 0
    }
}

@c @implementation
public func be_config_set_fetch_io(_ config: OpaquePointer?, _ io: be_fetch_io) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        configuration.fetchIO = try known(io.rawValue, "fetch I/O")
    }
}

@c @implementation
public func be_config_set_log_handler(
    _ config: OpaquePointer?, _ fn: be_log_fn?, _ min_level: be_log_level, _ user_data: UnsafeMutableRawPointer?
) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        let level: LogLevel = try known(min_level.rawValue, "log level")
        guard let fn else {
            configuration.logHandler = nil
            return
        }
        let userData = HostPointer(raw: user_data)
        configuration.logMinimumLevel = level
        configuration.logHandler = { level, message in
            message.withCString { text in ForkGate.outside { fn(be_log_level(rawValue: UInt32(level.rawValue)), text, userData.raw) } }
        }
    }
}

@c @implementation
public func be_config_set_outbox_limits(_ config: OpaquePointer?, _ max_items: UInt32, _ max_age_s: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setOutboxLimits(maximumItems: max_items, maximumAgeSeconds: max_age_s)
    }
}

@c @implementation
public func be_config_set_feed_cache(_ config: OpaquePointer?, _ max_age_s: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in configuration.feedCacheMaxAgeSeconds = max_age_s }
}

@c @implementation
public func be_config_set_prefetch_ttl_s(_ config: OpaquePointer?, _ ttl_s: UInt32) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setPrefetchTTL(seconds: ttl_s)
    }
}

@c @implementation
public func be_config_set_image_cache(_ config: OpaquePointer?, _ memory_bytes: UInt64, _ disk_bytes: UInt64) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        configuration.imageMemoryCacheBytes = Int(clamping: memory_bytes)
        configuration.imageDiskCacheBytes = Int(clamping: disk_bytes)
    }
}

@c @implementation
public func be_config_set_http_transport(_ config: OpaquePointer?, _ send: be_http_send_fn?, _ user_data: UnsafeMutableRawPointer?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        guard let send else {
            configuration.hostHTTPSend = nil
            return
        }
        let userData = HostPointer(raw: user_data)
        // The host holds the request's id, not its address (see HostHTTPExchange).
        configuration.hostHTTPSend = { exchange in
            ForkGate.outside { send(OpaquePointer(bitPattern: UInt(exchange.id)), userData.raw) }
        }
    }
}

@c @implementation
public func be_config_set_proxy(_ config: OpaquePointer?, _ url: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setProxy(try optionalHostString(url, "url"))
    }
}

@c @implementation
public func be_config_set_ca_file(_ config: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setCAFile(try optionalHostString(path, "path"))
    }
}

@c @implementation
public func be_config_set_pinned_public_key(_ config: OpaquePointer?, _ pins: UnsafePointer<CChar>?) -> be_status {
    configure(config) { (configuration: inout SDKConfiguration) throws(EngineFailure) in
        try configuration.setPinnedPublicKey(try optionalHostString(pins, "pins"))
    }
}
