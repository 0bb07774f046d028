@testable import BlinkEngageCore
import Testing

/// The image cache without the network: what a server's headers mean (a policy with no I/O, table-tested),
/// the memory cache's LRU by bytes, and the disk format refusing anything but an intact file of its own.
struct ImageCacheTests {
    static let now: Int64 = 1_796_256_000  // Thu, 03 Dec 2026 00:00:00 GMT

    @Test(arguments: [
        // (headers, seconds fresh)
        ([:], Int64(0)),
        (["cache-control": "max-age=3600"], 3600),
        (["cache-control": "public, MAX-AGE=60 , must-revalidate"], 60),
        (["cache-control": "max-age=\"120\""], 120),
        (["cache-control": "max-age=99999999999999999999999999"], ImageCachePolicy.maximumLifetimeSeconds),
        (["cache-control": "max-age=-5"], 0),
        (["cache-control": "max-age=1e3"], 0),
        (["cache-control": "max-age="], 0),
        (["cache-control": "no-cache, max-age=3600"], 0),
        (["expires": "Thu, 03 Dec 2026 01:00:00 GMT"], 3600),
        (["expires": "Thu, 03 Dec 2026 01:00:00 GMT", "date": "Thu, 03 Dec 2026 00:30:00 GMT"], 1800),
        (["expires": "Wed, 02 Dec 2026 00:00:00 GMT"], 0),
        (["expires": "0"], 0),
        (["expires": "Fri, 31 Dec 9999 23:59:59 GMT", "date": "Thu, 03 Dec 2026 00:00:00 GMT"], ImageCachePolicy.maximumLifetimeSeconds),
        (["expires": "Fri, 31 Dec 9999 23:59:59 GMT", "date": "Thu, 01 Jan 1970 00:00:00 GMT"], 0),  // 56 years old
        (["cache-control": "max-age=3600", "age": "600"], 3000),
        (["cache-control": "max-age=3600", "age": "99999999999999999999"], 0),
        (["cache-control": "max-age=3600", "age": "-5"], 3600),
        (["cache-control": "max-age=3600", "date": "Wed, 02 Dec 2026 23:50:00 GMT"], 3000),
        (["cache-control": "max-age=3600", "date": "Thu, 03 Dec 2026 00:10:00 GMT"], 3600),
        (["cache-control": "s-maxage=3600, private"], 0),
        (["expires": "Thursday, 03-Dec-26 01:00:00 GMT"], 3600),
        (["cache-control": "max-age=10", "expires": "Thu, 03 Dec 2026 01:00:00 GMT"], 10),
    ] as [([String: String], Int64)])
    func freshnessFollowsTheHeaders(headers: [String: String], seconds: Int64) {
        #expect(ImageCachePolicy.freshUntil(headers: headers, now: Self.now) == Self.now + seconds)
    }

    @Test func freshnessNeverOverflows() {
        #expect(ImageCachePolicy.freshUntil(headers: ["cache-control": "max-age=31536000"], now: Int64.max - 5) == Int64.max - 5)
    }

    @Test(arguments: [
        (Self.now, Self.now + 10, Self.now + 5, true),
        (Self.now, Self.now + 10, Self.now + 10, false),
        (Self.now, Self.now, Self.now, false),          // stale at once: revalidate on every use
        (Self.now + 100, Self.now + 200, Self.now, false),  // stored "in the future": the clock went back
    ])
    func freshness(storedAt: Int64, freshUntil: Int64, now: Int64, fresh: Bool) {
        #expect(ImageCachePolicy.isFresh(storedAt: storedAt, freshUntil: freshUntil, now: now) == fresh)
    }

    @Test(arguments: [
        ("no-store", true, false), ("private, NO-STORE", true, false), ("no-cache", false, true), ("", false, false),
        ("no-storex", false, false),
    ])
    func directives(header: String, noStore: Bool, noCache: Bool) {
        let policy = ImageCachePolicy(cacheControl: header)
        #expect(policy.noStore == noStore)
        #expect(policy.noCache == noCache)
    }

    @Test(arguments: [
        ("image/png", true), ("IMAGE/JPEG; charset=binary", true), ("image/", false), ("text/html", false),
        ("application/octet-stream", false), ("imagery/png", false), ("", false),
    ])
    func onlyImagesAreImages(type: String, isImage: Bool) {
        #expect(ImageCachePolicy.isImage(contentType: type) == isImage)
    }

    @Test func revalidationPrefersTheETag() {
        #expect(ImageCachePolicy.validationHeaders(etag: "\"a\"", lastModified: "x").map(\.name) == ["If-None-Match"])
        #expect(ImageCachePolicy.validationHeaders(etag: nil, lastModified: "x").map(\.name) == ["If-Modified-Since"])
        #expect(ImageCachePolicy.validationHeaders(etag: nil, lastModified: nil).isEmpty)
    }

    /// A validator that could not go back out in a header is never kept: not from an answer, not from a 304, and
    /// not from a file an older version stored (read back without it, so the image is fetched plainly once stale).
    @Test(arguments: ["\"a\rb\"", "\"a\nb\"", "a\u{0}b", "\"a\u{1}b\"", String(repeating: "x", count: 8193)])
    func aValidatorThatCannotBeSentBackIsNotKept(bad: String) throws {
        let fromAnswer = ImageEntry(url: "u", contentType: "image/png", etag: bad, lastModified: bad, storedAt: 1, freshUntil: 2,
                                    bytes: StableBytes([1]))
        #expect(fromAnswer.etag == nil && fromAnswer.lastModified == nil && !fromAnswer.canRevalidate)
        let kept = Self.entry("u", bytes: 1).refreshed(headers: ["etag": bad], now: Self.now)
        #expect(kept.etag == "\"e\"")
        // A file as an older version wrote it: the same framing, the validator in its metadata (a line feed could
        // not be stored: it separates the fields).
        guard !bad.utf8.contains(10) else { return }
        let metadata = Array(["u", "image/png", bad, "", String(Self.now), String(Self.now + 60)].joined(separator: "\n").utf8)
        var bytes = ImageDiskCache.magic
        LittleEndian.append(UInt32(metadata.count), to: &bytes)
        bytes += metadata
        LittleEndian.append(UInt64(1), to: &bytes)
        bytes.append(9)
        LittleEndian.append(FNV1a.hash(bytes), to: &bytes)
        let stored = try #require(ImageDiskCache.decode(bytes))
        #expect(stored.etag == nil && stored.url == "u")
    }

    static func entry(_ url: String, bytes: Int) -> ImageEntry {
        ImageEntry(url: url, contentType: "image/png", etag: "\"e\"", lastModified: nil, storedAt: now, freshUntil: now + 60,
                   bytes: StableBytes([UInt8](repeating: 7, count: bytes)))
    }

    @Test func theMemoryCacheEvictsTheLeastRecentlyUsedByBytes() {
        var cache = MemoryImageCache(limitBytes: 100)
        cache.insert(Self.entry("a", bytes: 40))
        cache.insert(Self.entry("b", bytes: 40))
        _ = cache.entry(for: "a")                    // a is now the most recent
        cache.insert(Self.entry("c", bytes: 40))     // b goes
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.entry(for: "a") != nil && cache.entry(for: "c") != nil)
        #expect(cache.totalBytes == 80)
        cache.insert(Self.entry("huge", bytes: 101)) // larger than the whole cache: not kept, evicts nothing
        #expect(cache.entry(for: "huge") == nil && cache.count == 2)
        cache.insert(Self.entry("a", bytes: 10))     // a replacement counts its new size only
        #expect(cache.totalBytes == 50)
    }

    @Test func theDiskFormatRoundTripsAndRefusesEveryDamage() throws {
        let original = Self.entry("https://cdn.example.com/a.png", bytes: 300)
        let encoded = ImageDiskCache.encode(original)
        let decoded = try #require(ImageDiskCache.decode(encoded))
        #expect(decoded.url == original.url && decoded.etag == "\"e\"" && decoded.lastModified == nil)
        #expect(decoded.freshUntil == original.freshUntil && decoded.bytes.array == original.bytes.array)
        for index in stride(from: 0, to: encoded.count, by: 7) {   // any flipped byte
            var damaged = encoded
            damaged[index] ^= 0x40
            #expect(ImageDiskCache.decode(damaged) == nil, "byte \(index)")
        }
        for length in [0, 1, 7, 18, encoded.count / 2, encoded.count - 1] {  // any cut
            #expect(ImageDiskCache.decode(Array(encoded.prefix(length))) == nil, "length \(length)")
        }
        #expect(ImageDiskCache.decode(encoded + [0]) == nil)
    }

    @Test func lengthsThatLieAreRefusedEvenWithAGoodChecksum() {
        // A metadata length far beyond the file, re-checksummed so only the length is wrong.
        var bytes = ImageDiskCache.magic + [0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0, count: 16)
        let checksum = FNV1a.hash(bytes)
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index)))) }
        #expect(ImageDiskCache.decode(bytes) == nil)
    }

    @Test(arguments: [("600", UInt32(600)), ("0", 0), ("", 0), ("-1", 0), ("1.5", 0), ("99999999999", 0), ("4294967295", UInt32.max)])
    func creativeSizes(text: String, pixels: UInt32) {
        #expect(Creative.pixels(text) == pixels)
    }
}
