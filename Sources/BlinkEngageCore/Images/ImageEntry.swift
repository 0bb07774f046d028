/// One cached image answer: the bytes and what revalidating them needs. Times are wall-clock seconds.
struct ImageEntry: Sendable {
    let url: String
    let contentType: String
    let etag: String?
    let lastModified: String?
    let storedAt: Int64
    let freshUntil: Int64
    let bytes: StableBytes
    /// The request headers the answer's `Vary` named, and their values then (`ImageCachePolicy.variant`).
    var variant: String? = nil

    /// A validator that could not be sent back in a request header (`ImageCachePolicy.sendableValidator`) is not
    /// kept, from an answer or from a stored entry (an older version's, or tampered with): such an image is
    /// fetched plainly once stale, never refused.
    init(url: String, contentType: String, etag: String?, lastModified: String?, storedAt: Int64, freshUntil: Int64,
         bytes: StableBytes, variant: String? = nil) {
        self.url = url
        self.contentType = contentType
        self.etag = ImageCachePolicy.sendableValidator(etag)
        self.lastModified = ImageCachePolicy.sendableValidator(lastModified)
        self.storedAt = storedAt
        self.freshUntil = freshUntil
        self.bytes = bytes
        self.variant = variant
    }

    func isFresh(now: Int64) -> Bool { ImageCachePolicy.isFresh(storedAt: storedAt, freshUntil: freshUntil, now: now) }

    var canRevalidate: Bool { !ImageCachePolicy.validationHeaders(etag: etag, lastModified: lastModified).isEmpty }

    /// The same bytes, fresh again as a 304 with `headers` says: its own `Cache-Control` or `Expires` replace the
    /// stored ones; without them the stored lifetime stays. Its `Date` and `Age` count as a new answer's.
    func refreshed(headers: [String: String], now: Int64) -> ImageEntry {
        let lifetime = ImageCachePolicy.lifetime(headers: headers, now: now) ?? max(0, freshUntil - storedAt)
        return ImageEntry(url: url, contentType: contentType, etag: ImageCachePolicy.sendableValidator(headers["etag"]) ?? etag,
                          lastModified: ImageCachePolicy.sendableValidator(headers["last-modified"]) ?? lastModified, storedAt: now,
                          freshUntil: ImageCachePolicy.freshUntil(lifetime: lifetime, headers: headers, now: now),
                          bytes: bytes, variant: variant)
    }
}

/// The in-memory cache: least recently used first out, bounded by the bytes of its images. No I/O, no lock of
/// its own (its owner's lock guards it).
struct MemoryImageCache {
    let limitBytes: Int
    private(set) var totalBytes = 0
    private var entries: [String: (entry: ImageEntry, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(limitBytes: Int) { self.limitBytes = limitBytes }

    var count: Int { entries.count }

    /// The entry of `url`, counted as a use.
    mutating func entry(for url: String) -> ImageEntry? {
        guard let found = entries[url] else { return nil }
        clock += 1
        entries[url] = (found.entry, clock)
        return found.entry
    }

    /// Keeps `entry`, evicting the least recently used until the total fits. An image larger than the whole
    /// cache is not kept (and evicts nothing).
    mutating func insert(_ entry: ImageEntry) {
        remove(entry.url)
        guard entry.bytes.count <= limitBytes else { return }
        while totalBytes + entry.bytes.count > limitBytes,
              let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            remove(oldest)
        }
        clock += 1
        entries[entry.url] = (entry, clock)
        totalBytes += entry.bytes.count
    }

    mutating func remove(_ url: String) {
        if let removed = entries.removeValue(forKey: url) { totalBytes -= removed.entry.bytes.count }
    }

    mutating func removeAll() {
        entries = [:]
        totalBytes = 0
    }
}
