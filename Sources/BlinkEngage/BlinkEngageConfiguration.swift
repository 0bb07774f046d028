internal import BlinkEngageCore

/// Everything an SDK starts from: the API key, the services' URLs, storage, threads, limits, the network and
/// the log. A value: ``BlinkEngageSDK`` copies it at start, so changing it afterwards changes nothing there.
///
/// Values are checked when the SDK starts; an invalid one makes the start throw
/// ``BlinkEngageError/invalidArgument(_:)`` naming it.
public struct BlinkEngageConfiguration: Sendable {
    /// Where completion handlers run.
    public enum CallbackMode: Sendable, Equatable {
        /// On the SDK's own callback thread, `be-callbacks` (the default).
        case sdkThread
        /// On whichever thread calls ``BlinkEngageSDK/dispatch(maximum:)``: a game's frame loop, a UI thread.
        case dispatch
    }

    /// Levels of the log handler's messages.
    public enum LogLevel: Int, Sendable, Comparable {
        /// Detail for finding a problem.
        case debug = 0
        /// What the SDK did: a fetch failed, a report was kept for later.
        case info
        /// Something the host should fix: a refused value, an unusable directory.
        case warning
        /// Something that should not happen.
        case error
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The API key every request carries.
    public var apiKey: String
    /// The Moments API's base URL; the production service by default.
    public var momentsURL: String?
    /// The Engage backend's base URL (registration, the offer feed, feed events); the feed is off while nil.
    public var engageURL: String?
    /// The zone ad URL template, with `{zone}` where the zone id goes; zone ads are off while nil.
    public var zoneAdURLTemplate: String?
    /// The directory under which the SDK keeps its journal, database and image cache (one folder per API key);
    /// nil: the platform's default location, or memory only when there is none.
    public var storageDirectory: String?
    /// The `User-Agent` of every request; nil: `blinkengage/<version> (<os>; <arch>)`. One line.
    public var userAgent: String?
    /// Each request's timeout, at least 1 ms.
    public var timeoutMilliseconds: UInt32 = 15_000
    /// Development mode: Moments answers test offers and records no activity.
    public var isDevelopment = false
    /// How the SDK delivers completions: on its own callback thread, or in ``BlinkEngageSDK/dispatch(maximum:)``.
    public var callbackMode = CallbackMode.sdkThread
    /// Where completion handlers then run: ``BlinkEngageCallbackQueue/platformDefault`` (the main queue on Apple
    /// platforms, the SDK's delivery on Linux), a queue of the host's, or the SDK's delivery.
    public var callbackQueue = BlinkEngageCallbackQueue.platformDefault
    /// With ``CallbackMode/dispatch``: Moments fetches do their network I/O inside
    /// ``BlinkEngageSDK/dispatch(maximum:)`` too, with no thread hop. Ignored with a host transport.
    public var fetchIOOnDispatch = false
    /// The share of an offer's pixels that must be visible for a view to count (above 0, at most 1; MRC: 0.5).
    public var viewableFraction = 0.5
    /// How long, in milliseconds, a view must last to become a viewable impression (MRC: 1000).
    public var viewableMilliseconds: UInt32 = 1000
    /// Impression beacons fire once per viewable impression instead of at every appearance.
    public var impressionBeaconsWhenViewable = false
    /// Entries the flight recorder keeps (see ``BlinkEngageSDK/recorderJSONLines()``); nil: 256 in development
    /// mode, off otherwise; 0: off.
    public var recorderEntries: Int?
    /// The start opens the service's connection ahead of the first fetch (a `HEAD` of its root, TLS done, kept),
    /// so a fetch at checkout costs one round trip instead of three. Off, the SDK makes no request until asked
    /// (a host waiting for the user's consent, say); ``BlinkEngageSDK/warmUp()`` opens it when called.
    public var warmUpAtStart = true
    /// At most this many beacons and events wait for delivery; the oldest make room.
    public var outboxMaximumItems: UInt32 = 10_000
    /// How long, in seconds, a beacon or event may wait for delivery before it is dropped.
    public var outboxMaximumAgeSeconds: UInt32 = 86_400
    /// How old a stored feed may be to answer a load that failed for a network reason; 0: no feed cache.
    public var feedCacheMaxAgeSeconds: UInt32 = 0
    /// How long a prefetched Moments answer waits for its fetch, at least 1 s.
    public var prefetchTTLSeconds: UInt32 = 1800
    /// The memory cache of images, in bytes; 0 turns it off.
    public var imageMemoryCacheBytes = 16 * 1024 * 1024
    /// The disk cache of images, in the storage directory; 0 turns it off.
    public var imageDiskCacheBytes = 64 * 1024 * 1024
    /// An `http://`, `https://` or `socks5h://` proxy for every request of the built-in transport.
    public var proxyURL: String?
    /// A PEM file of CA certificates trusted instead of the system's, by the built-in transport.
    public var caFile: String?
    /// Pinned public keys of the services: `sha256//BASE64` hashes separated by `;`.
    public var pinnedPublicKeys: String?
    /// The host's own HTTP stack instead of the built-in one.
    public var httpTransport: (any BlinkEngageHTTPTransport)?
    /// Receives the SDK's log at `logMinimumLevel` and above, synchronously on whichever thread logs, possibly
    /// from several at once; it must not call the SDK.
    public var logHandler: (@Sendable (LogLevel, String) -> Void)?
    /// The lowest level the log handler receives.
    public var logMinimumLevel = LogLevel.info

    /// A configuration with `apiKey` and every other value at its default.
    public init(apiKey: String) { self.apiKey = apiKey }

    /// The engine's configuration, checked value by value.
    func engineConfiguration() throws(EngineFailure) -> SDKConfiguration {
        var configuration = SDKConfiguration(apiKey: apiKey)
        if let momentsURL { try configuration.setMomentsURL(momentsURL) }
        if let engageURL { try configuration.setEngageURL(engageURL) }
        if let zoneAdURLTemplate { try configuration.setZoneAdURLTemplate(zoneAdURLTemplate) }
        if let storageDirectory { try configuration.setStorageRoot(storageDirectory) }
        try configuration.setUserAgent(userAgent)
        try configuration.setTimeout(milliseconds: timeoutMilliseconds)
        configuration.development = isDevelopment
        configuration.callbackMode = callbackMode == .dispatch ? .dispatch : .sdkThread
        configuration.fetchIO = fetchIOOnDispatch ? .dispatch : .sdkThread
        configuration.viewability = try ViewabilityRule(threshold: viewableFraction, milliseconds: viewableMilliseconds)
        configuration.impressionBeaconsAtViewable = impressionBeaconsWhenViewable
        configuration.warmUpAtStart = warmUpAtStart
        if let recorderEntries { try configuration.setRecorderEntries(recorderEntries) }
        try configuration.setOutboxLimits(maximumItems: outboxMaximumItems, maximumAgeSeconds: outboxMaximumAgeSeconds)
        configuration.feedCacheMaxAgeSeconds = feedCacheMaxAgeSeconds
        try configuration.setPrefetchTTL(seconds: prefetchTTLSeconds)
        guard imageMemoryCacheBytes >= 0, imageDiskCacheBytes >= 0 else { throw .invalidArgument("image cache limits must not be negative") }
        configuration.imageMemoryCacheBytes = imageMemoryCacheBytes
        configuration.imageDiskCacheBytes = imageDiskCacheBytes
        try configuration.setProxy(proxyURL)
        try configuration.setCAFile(caFile)
        try configuration.setPinnedPublicKey(pinnedPublicKeys)
        if let httpTransport {
            configuration.hostHTTPSend = { exchange in httpTransport.send(BlinkEngageHTTPRequest(exchange)) }
        }
        if let logHandler {
            configuration.logMinimumLevel = BlinkEngageCore.LogLevel(rawValue: logMinimumLevel.rawValue) ?? .info
            configuration.logHandler = { level, message in logHandler(LogLevel(rawValue: level.rawValue) ?? .error, message) }
        }
        return configuration
    }
}
