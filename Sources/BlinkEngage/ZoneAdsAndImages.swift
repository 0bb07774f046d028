internal import BlinkEngageCore

/// A legacy zone ad: enabled or not, an image and a link.
public struct BlinkEngageZoneAd: Sendable, Equatable {
    let core: ZoneAd

    init(_ core: ZoneAd) { self.core = core }

    /// The zone the ad is for.
    public var zoneID: String { core.zoneID }
    /// Whether the zone shows an ad now; when false, show nothing.
    public var isEnabled: Bool { core.isEnabled }
    /// Only absolute http(s) URLs.
    public var imageURL: String? { core.imageURL?.string }
    /// Where a click leads.
    public var linkURL: String? { core.linkURL?.string }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
}

/// A fetched image: its bytes as served (decoding is the host's), its `Content-Type`, and whether the SDK's
/// cache answered it (memory, disk, or a 304 revalidation).
public struct BlinkEngageImage: Sendable {
    let core: Image

    init(_ core: Image) { self.core = core }

    /// The URL the image was fetched from.
    public var url: String { core.url }
    /// The `Content-Type` it was served with.
    public var contentType: String { core.contentType.string }
    /// Whether the SDK's cache answered (memory, disk, or a 304 revalidation).
    public var isFromCache: Bool { core.isFromCache }
    /// The bytes, copied out.
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: core.bytes.pointer, count: core.bytes.count)) }
    /// The number of bytes.
    public var count: Int { core.bytes.count }
    /// Lends the bytes without a copy for the duration of `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: core.bytes.pointer, count: core.bytes.count))
    }
}

extension BlinkEngageSDK {
    /// Fetches the ad of one zone. `completion` runs exactly once, on the SDK's callback thread (or in
    /// ``dispatch(maximum:)``), unless this throws.
    /// - Throws: ``BlinkEngageError/invalidArgument(_:)`` for an empty zone, ``BlinkEngageError/invalidState(_:)``
    ///   without a zone ad URL.
    public func fetchZoneAd(_ zoneID: String, completion: @escaping @Sendable (Result<BlinkEngageZoneAd, any Error>) -> Void) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in
            try engine.fetchZoneAd(zoneID: zoneID) { result in
                completion(result.map(BlinkEngageZoneAd.init).mapError(\.serviceError))
            }
        }
    }

    /// Fetches the ad of one zone; errors are ``BlinkEngageServiceError`` in domain `BlinkEngageZoneAd`.
    public func fetchZoneAd(_ zoneID: String) async throws -> BlinkEngageZoneAd {
        try await awaitCompletion { (resume: @escaping @Sendable (Result<BlinkEngageZoneAd, any Error>) -> Void) throws(BlinkEngageError) in
            try fetchZoneAd(zoneID, completion: resume)
        }
    }

    /// Records a click on a zone ad, before the host opens its link.
    public func reportZoneAdClick(_ ad: BlinkEngageZoneAd) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in try engine.reportZoneAdClick(ad.core) }
    }

    /// Fetches an image (a creative, a zone ad's image) through the SDK's caches; concurrent fetches of one URL
    /// share one request. `completion` runs exactly once, on the SDK's callback thread (or in
    /// ``dispatch(maximum:)``), also for an invalid URL (domain `BlinkEngageImage`, code 5).
    public func fetchImage(_ url: String, completion: @escaping @Sendable (Result<BlinkEngageImage, any Error>) -> Void) throws(BlinkEngageError) {
        try call { (engine: SDK) throws(EngineFailure) in
            try engine.fetchImage(url: url) { result in completion(result.map(BlinkEngageImage.init).mapError(\.serviceError)) }
        }
    }

    /// Fetches an image; errors are ``BlinkEngageServiceError`` in domain `BlinkEngageImage`.
    public func fetchImage(_ url: String) async throws -> BlinkEngageImage {
        try await awaitCompletion { (resume: @escaping @Sendable (Result<BlinkEngageImage, any Error>) -> Void) throws(BlinkEngageError) in
            try fetchImage(url, completion: resume)
        }
    }
}
