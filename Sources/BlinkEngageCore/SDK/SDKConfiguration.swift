/// Everything `be_sdk_start` copies from a `be_config`.
public struct SDKConfiguration: Sendable {
    public enum CallbackMode: Int, Sendable { case sdkThread = 0, dispatch = 1 }
    /// Where offer fetches do their network I/O (`be_fetch_io`).
    public enum FetchIO: Int, Sendable { case sdkThread = 0, dispatch = 1 }

    public static let defaultMomentsURL = "https://api.adspostx.com/native/v4"
    public static let defaultTimeoutMilliseconds: UInt32 = 15_000
    public static let defaultOutboxMaximumItems: UInt32 = 10_000
    public static let defaultOutboxMaximumAgeSeconds: UInt32 = 86_400

    public var apiKey: String
    public var momentsURL = defaultMomentsURL
    public var engageURL: String?
    public var zoneAdURLTemplate: String?
    /// An explicitly configured storage root; nil means the default location (see `StorageLocation`).
    public var storageRoot: String?
    /// nil means `UserAgent.standard`.
    public var userAgent: String?
    public var timeoutMilliseconds = defaultTimeoutMilliseconds
    public var development = false
    public var callbackMode = CallbackMode.sdkThread
    public var fetchIO = FetchIO.sdkThread
    /// When a reported view becomes a viewable impression (`SDK.reportVisibility`); the MRC rule by default.
    public var viewability = ViewabilityRule.mrc
    /// Impression beacons fire at a viewable impression instead of at every appearance (a feed's `did_appear`,
    /// a screen showing an offer). Off by default.
    public var impressionBeaconsAtViewable = false
    /// Entries the flight recorder keeps (`FlightRecorder`); nil: 256 in development mode, off otherwise; 0: off.
    public var recorderEntries: Int?
    /// The flight recorder's size as configured, or by the mode.
    public var effectiveRecorderEntries: Int { recorderEntries ?? (development ? 256 : 0) }
    /// The start opens the connections to the Moments and Engage hosts ahead of the first fetch, as
    /// `SDK.warmUp` does (`be_config_set_warm_up_at_start`). On by default.
    public var warmUpAtStart = true
    /// Consecutive starts that die inside a window before the next one runs in safe mode (CrashLoopBreaker);
    /// 0 turns the breaker off. Engine only: a harness that kills its hosts on purpose, at random instants,
    /// tests the outbox, not the breaker, and must not see its safe and inert starts.
    public var crashLoopThreshold = CrashLoopBreaker.defaultThreshold
    public var logHandler: LogHandler?
    public var logMinimumLevel = LogLevel.info
    public var outboxMaximumItems = defaultOutboxMaximumItems
    public var outboxMaximumAgeSeconds = defaultOutboxMaximumAgeSeconds
    /// How old a stored feed may be to stand in for a failed load; 0 turns the feed cache off.
    public var feedCacheMaxAgeSeconds: UInt32 = 0
    /// How long a prefetched Moments answer waits for its fetch.
    public var prefetchTTLSeconds: UInt32 = 1800
    /// Limits of the image caches in bytes; 0 turns one off. The disk cache needs a storage directory.
    public var imageMemoryCacheBytes = 16 * 1024 * 1024
    public var imageDiskCacheBytes = 64 * 1024 * 1024
    /// The host's own HTTP stack; nil uses libcurl.
    public var hostHTTPSend: HostHTTPSend?
    /// Proxy, trusted CAs and pinned keys of the built-in transport.
    public var network = NetworkOptions()

    public init(apiKey: String) { self.apiKey = apiKey }

    public var effectiveUserAgent: String { userAgent ?? UserAgent.standard }

    public mutating func setMomentsURL(_ text: String) throws(EngineFailure) { momentsURL = try ServiceURL.validatedBase(text) }
    public mutating func setEngageURL(_ text: String) throws(EngineFailure) { engageURL = try ServiceURL.validatedBase(text) }

    public mutating func setZoneAdURLTemplate(_ text: String) throws(EngineFailure) {
        guard text.containsText("{zone}") else { throw .invalidArgument("the zone ad URL template must contain \"{zone}\"") }
        // Validate the template with a sample zone; the query (?AdID={zone}) is part of the template here.
        let sample = text.replacingOccurrences(of: "{zone}", with: "1")
        // Requested as written: the browser's reading and libcurl's must both take it.
        guard !ASCII.hasSpaceOrControl(sample), ServiceURL.isAbsoluteHTTP(sample), URLParts.libcurlReadsAsHTTP(sample) else {
            throw .invalidArgument("\"\(SafeText.clean(text))\" is not an http(s) URL template")
        }
        zoneAdURLTemplate = text
    }

    /// The root of the storage directories; not empty.
    public mutating func setStorageRoot(_ path: String) throws(EngineFailure) {
        guard !path.isEmpty else { throw .invalidArgument("the storage directory's path is empty") }
        storageRoot = path
    }

    /// The `User-Agent` of every request: one line; "" or nil for the library's own.
    public mutating func setUserAgent(_ agent: String?) throws(EngineFailure) {
        guard let agent, !agent.isEmpty else { userAgent = nil; return }
        guard !agent.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            throw .invalidArgument("the user agent must be one line")
        }
        userAgent = agent
    }

    /// Entries the flight recorder keeps: 0 (off) to 100,000.
    public mutating func setRecorderEntries(_ entries: Int) throws(EngineFailure) {
        guard (0...100_000).contains(entries) else { throw .invalidArgument("the recorder keeps 0 to 100000 entries") }
        recorderEntries = entries
    }

    /// How long a prefetched answer waits for its fetch: at least 1 s.
    public mutating func setPrefetchTTL(seconds: UInt32) throws(EngineFailure) {
        guard seconds > 0 else { throw .invalidArgument("the prefetch TTL must be at least 1 s") }
        prefetchTTLSeconds = seconds
    }

    /// An `http://`, `https://` or `socks5h://` proxy for every request of the built-in transport; nil: none.
    public mutating func setProxy(_ text: String?) throws(EngineFailure) {
        guard let text else { network.proxy = nil; return }
        guard !ASCII.hasSpaceOrControl(text), let url = URLParts(text), ["http", "https", "socks5h"].contains(url.scheme) else {
            throw .invalidArgument("\"\(text)\" is not an http://, https:// or socks5h:// proxy URL")
        }
        network.proxy = text
    }

    /// A PEM file of CA certificates the built-in transport trusts instead of the system's; nil: the system's.
    public mutating func setCAFile(_ path: String?) throws(EngineFailure) {
        guard let path else { network.caFile = nil; return }
        guard FileIO.isReadableFile(path) else { throw .notFound("\(path) is not a readable file") }
        network.caFile = path
    }

    /// libcurl's pinned public keys: "sha256//BASE64" hashes of SubjectPublicKeyInfo, separated by ";"; nil: none.
    public mutating func setPinnedPublicKey(_ pins: String?) throws(EngineFailure) {
        guard let pins else { network.pinnedPublicKey = nil; return }
        let hashes = pins.split(separator: ";", omittingEmptySubsequences: false)
        for hash in hashes {
            // A SHA-256 in base64 is 43 characters and one "=".
            let digest = hash.dropFirst("sha256//".count)
            guard hash.hasPrefix("sha256//"), digest.count == 44, digest.hasSuffix("="),
                  digest.dropLast().utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) else {
                throw .invalidArgument("\"\(hash)\" is not a sha256//BASE64 public key hash")
            }
        }
        network.pinnedPublicKey = pins
    }

    /// The transport of offer fetches when no host transport is given, driven where their answers are best read:
    /// by the callback thread (callbacks on the SDK thread), by `be_sdk_dispatch` (BE_FETCH_IO_ON_DISPATCH), or by
    /// the first-party transport's thread (dispatched callbacks, fetch I/O on the SDK's threads: the fetch call
    /// sends, and that thread wakes only for the answer). `alsoReadableWith` joins its descriptor, where a thread
    /// that drains the callback queue polls it (the queue's pipe).
    func makeDrivenFetchTransport(_ options: TransportOptions, alsoReadableWith descriptor: Int32) throws(EngineFailure) -> DrivenTransport? {
        guard hostHTTPSend == nil else { return nil }
        if fetchIO == .dispatch, callbackMode != .dispatch {
            throw .invalidArgument("BE_FETCH_IO_ON_DISPATCH needs BE_CALLBACKS_ON_DISPATCH")
        }
        var options = options
        options.network = network
        return try DrivenTransport(options: options, alsoReadableWith: transportThreadDrivesFetches ? -1 : descriptor)
    }

    /// Whether the first-party transport's thread drives the offer fetches: dispatched callbacks with fetch I/O on
    /// the SDK's threads, and no host transport.
    var transportThreadDrivesFetches: Bool { hostHTTPSend == nil && fetchIO == .sdkThread && callbackMode == .dispatch }

    /// A transport for `options`: the host's when it gave one, else libcurl with the network settings
    /// (the pinned keys only where `pinned`: first-party requests; pixel and image hosts are not the service).
    /// `driving`: a transport whose I/O its thread does too (see `transportThreadDrivesFetches`).
    func makeTransport(_ options: TransportOptions, pinned: Bool, driving fetches: DrivenTransport? = nil) throws(EngineFailure) -> any Transport {
        if let hostHTTPSend { return try HostTransport(options: options, send: hostHTTPSend) }
        var options = options
        options.network = network
        if !pinned { options.network.pinnedPublicKey = nil }
        return try CurlTransport(options: options, driving: fetches)
    }

    public mutating func setTimeout(milliseconds: UInt32) throws(EngineFailure) {
        guard milliseconds > 0 else { throw .invalidArgument("the timeout must be at least 1 ms") }
        timeoutMilliseconds = milliseconds
    }

    public mutating func setOutboxLimits(maximumItems: UInt32, maximumAgeSeconds: UInt32) throws(EngineFailure) {
        guard maximumItems > 0, maximumAgeSeconds > 0 else { throw .invalidArgument("outbox limits must be positive") }
        outboxMaximumItems = maximumItems
        outboxMaximumAgeSeconds = maximumAgeSeconds
    }
}
