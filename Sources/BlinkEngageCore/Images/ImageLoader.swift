/// Fetches images for hosts without an HTTP stack of their own: concurrent fetches of one URL share one
/// request, fresh answers come from memory or disk without one, stale ones are revalidated (a 304 costs no
/// body), and what the server says about caching is kept (`ImageCachePolicy`).
///
/// Thread. Image transfers have a transport of their own, `be-images`, made on the first fetch, so slow image
/// hosts never hold up a first-party request. Disk reads and writes of the cache run on that thread too,
/// between transfers; the host's thread only ever touches the memory cache.
final class ImageLoader: Sendable {
    typealias Completion = @Sendable (Result<Image, ServiceError>) -> Void

    struct Settings: Sendable {
        var memoryBytes: Int
        /// nil: no disk cache (no storage directory, or a disk limit of 0).
        var diskStorage: StorageDirectory?
        var diskBytes: Int
        var userAgent: String
        var timeoutMilliseconds: UInt32
        var makeTransport: @Sendable () throws(EngineFailure) -> any Transport
    }

    static let maximumImageBytes = 10 * 1024 * 1024

    private struct State {
        var memory: MemoryImageCache
        var inFlight: [String: [Completion]] = [:]
        var transport: (any Transport)?
        var closed = false
        var statistics = ImageStatistics()
        /// Raised by each erasure: an answer to a request sent before it is handed over but not cached.
        var erasures: UInt64 = 0
    }

    private let settings: Settings
    private let disk: ImageDiskCache?
    private let logger: Logger
    private let recorder: FlightRecorder?
    private let state: Locked<State>

    init(settings: Settings, logger: Logger, recorder: FlightRecorder? = nil) {
        self.settings = settings
        self.logger = logger
        self.recorder = recorder
        disk = settings.diskStorage.flatMap {
            ImageDiskCache(storage: $0, limitBytes: settings.diskBytes, maximumBodyBytes: Self.maximumImageBytes)
        }
        if settings.diskStorage != nil && disk == nil { logger.warning("no usable image cache directory; images are cached in memory only") }
        state = Locked(State(memory: MemoryImageCache(limitBytes: settings.memoryBytes)))
    }

    var statistics: ImageStatistics { state.withLock { $0.statistics } }

    /// What every image request carries besides validators: what a stored answer's `Vary` is compared with.
    private var requestHeaders: [(name: String, value: String)] { [("Accept", "image/*"), ("User-Agent", settings.userAgent)] }

    /// Fetches `url`; `completion` runs exactly once, on the `be-images` thread or (for a memory hit, an invalid
    /// URL, or after `close`) on the calling thread.
    func fetch(_ url: String, completion: @escaping Completion) {
        // Fetched and cached as its `href`: what an offer hands out already is one.
        guard let url = ServiceURL.requestableHref(url) else {
            return completion(.failure(.image(.invalidURL, "not an http(s) URL: \(SafeText.clean(url))")))
        }
        enum Next { case hit(ImageEntry), joined, start(any Transport, ImageEntry?), failed(ServiceError) }
        let now = WallClock.seconds()
        let next = state.withLock { state -> Next in
            if state.closed { return .failed(.cancelled) }
            let remembered = state.memory.entry(for: url)
            if let remembered, remembered.isFresh(now: now),
               ImageCachePolicy.matches(variant: remembered.variant, request: requestHeaders) {
                state.statistics.memoryHits += 1
                return .hit(remembered)
            }
            if state.inFlight[url] != nil {
                state.inFlight[url]!.append(completion)
                state.statistics.joined += 1
                return .joined
            }
            if state.transport == nil {
                do throws(EngineFailure) {
                    state.transport = try settings.makeTransport()
                } catch {
                    return .failed(.image(.network, "cannot start the image transport: \(error.message)"))
                }
            }
            state.inFlight[url] = [completion]
            return .start(state.transport!, remembered)
        }
        switch next {
        case .hit(let entry):
            recorder?.decision("image_from_memory_cache", "a fresh image answered from memory, without a request")
            completion(.success(Image(url: url, bytes: entry.bytes, contentType: entry.contentType, isFromCache: true)))
        case .joined: recorder?.decision("image_shared", "an image fetch joined the fetch of the same URL in flight")
        case .failed(let error): completion(.failure(error))
        case .start(let transport, let stale):
            transport.schedule(afterNanoseconds: 0) { [self] in lookUp(url, remembered: stale, transport: transport) }
        }
    }

    /// Forgets every cached image, in memory and on disk (`be_sdk_delete_user_data`).
    func removeAll() {
        state.withLock {
            $0.memory.removeAll()
            $0.erasures += 1
        }
        disk?.removeAll()
    }

    /// Cancels every fetch (their completions run with `.cancelled`) and stops the thread. Later fetches fail.
    func close() {
        let transport = state.withLock { state -> (any Transport)? in
            state.closed = true
            return state.transport
        }
        // Transfers in flight complete with `.cancelled`; lookups not yet run are dropped and answered here.
        transport?.shutdown()
        let owed = state.withLock { state -> [Completion] in
            defer { state.inFlight = [:] }
            return state.inFlight.values.flatMap { $0 }
        }
        for completion in owed { completion(.failure(.cancelled)) }
    }

    /// Six connections per host, as browsers open for HTTP/1.1: a creative host that does not multiplex serves a
    /// screenful of images six at a time. One that does (HTTP/2) carries them all on one connection anyway.
    static let transportOptions = TransportOptions(threadName: "be-images", maximumTotalConnections: 12, maximumConnectionsPerHost: 6)

    // MARK: - On the be-images thread

    private func lookUp(_ url: String, remembered: ImageEntry?, transport: any Transport) {
        var cached = remembered
        var fromDisk = false
        if let disk {
            let (stored, wasDamaged) = disk.entry(for: url)
            if wasDamaged {
                state.withLock { $0.statistics.damagedEntries += 1 }
                logger.warning("a damaged image cache entry was discarded")
            }
            if let stored, cached == nil || stored.storedAt > cached!.storedAt { cached = stored; fromDisk = true }
        }
        // An entry for other request headers than these (its Vary) is no answer, not even to revalidate.
        if let stored = cached, !ImageCachePolicy.matches(variant: stored.variant, request: requestHeaders) { cached = nil }
        if let cached, cached.isFresh(now: WallClock.seconds()) {
            state.withLock {
                $0.memory.insert(cached)
                $0.statistics.diskHits += fromDisk ? 1 : 0
            }
            if fromDisk { recorder?.decision("image_from_disk_cache", "a fresh image answered from the disk cache, without a request") }
            return finish(url, .success(Image(url: url, bytes: cached.bytes, contentType: cached.contentType, isFromCache: true)))
        }
        let revalidating = cached?.canRevalidate == true ? cached : nil
        var request = HTTPRequest(
            method: .get, url: url,
            headers: requestHeaders + ImageCachePolicy.validationHeaders(etag: revalidating?.etag, lastModified: revalidating?.lastModified),
            timeoutMilliseconds: settings.timeoutMilliseconds, maximumBodyBytes: Self.maximumImageBytes)
        request.wantsStableBody = true  // kept as StableBytes by both caches: a host transport's copy goes there at once
        let erasures = state.withLock { state -> UInt64 in
            state.statistics.requests += 1
            return state.erasures
        }
        transport.send(request) { [self] outcome in received(url, outcome, revalidating: revalidating, erasures: erasures) }
    }

    private func received(_ url: String, _ outcome: Result<HTTPResponse, TransportError>, revalidating: ImageEntry?,
                          erasures: UInt64) {
        let response: HTTPResponse
        switch outcome {
        case .success(let answer): response = answer
        case .failure(.cancelled): return finish(url, .failure(.cancelled))
        case .failure(.tooLarge(let limit)): return finish(url, .failure(.image(.tooLarge, "the image is larger than \(limit) bytes")))
        case .failure(.refused(let reason)): return finish(url, .failure(.image(.invalidURL, reason)))
        case .failure(let error): return finish(url, .failure(.image(.network, error.message)))
        }
        let now = WallClock.seconds()
        let policy = ImageCachePolicy(cacheControl: response.headers["cache-control"])
        let entry: ImageEntry
        let isFromCache: Bool
        if response.status == 304, let revalidating {
            entry = revalidating.refreshed(headers: response.headers, now: now)
            isFromCache = true
            state.withLock { $0.statistics.revalidations += 1 }
            recorder?.decision("image_revalidated", "the server answered 304: the cached image is used, refreshed")
        } else {
            guard (200...299).contains(response.status) else {
                return finish(url, .failure(.image(.httpStatus, "the image server answered HTTP \(response.status)", httpStatus: response.status)))
            }
            let contentType = response.headers["content-type"]
            guard ImageCachePolicy.isImage(contentType: contentType) else {
                return finish(url, .failure(.image(.notAnImage, "the answer is \(contentType ?? "untyped"), not an image")))
            }
            entry = ImageEntry(url: url, contentType: contentType!, etag: response.headers["etag"],
                               lastModified: response.headers["last-modified"], storedAt: now,
                               freshUntil: ImageCachePolicy.freshUntil(headers: response.headers, now: now),
                               bytes: response.stableBody ?? StableBytes(response.body),
                               variant: ImageCachePolicy.variant(vary: response.headers["vary"], request: requestHeaders))
            isFromCache = false
        }
        let erasedSince = state.withLock { $0.erasures != erasures }
        if erasedSince {
            // Asked for before an erasure: handed over, kept nowhere.
        } else if policy.noStore || !ImageCachePolicy.isStorable(vary: response.headers["vary"]) {
            state.withLock { $0.memory.remove(url) }
            disk?.remove(url)
        } else {
            state.withLock { $0.memory.insert(entry) }
            do {
                try disk?.store(entry)
            } catch {
                logger.info("image not cached on disk: \(error.message)")
            }
        }
        finish(url, .success(Image(url: url, bytes: entry.bytes, contentType: entry.contentType, isFromCache: isFromCache)))
    }

    private func finish(_ url: String, _ result: Result<Image, ServiceError>) {
        let waiters = state.withLock { $0.inFlight.removeValue(forKey: url) ?? [] }
        for waiter in waiters { waiter(result) }
    }
}

/// Counters of the image cache since start.
public struct ImageStatistics: Sendable, Equatable {
    public var requests: UInt64 = 0
    public var memoryHits: UInt64 = 0
    public var diskHits: UInt64 = 0
    public var revalidations: UInt64 = 0
    /// Fetches that joined one already in flight for the same URL.
    public var joined: UInt64 = 0
    public var damagedEntries: UInt64 = 0
}
