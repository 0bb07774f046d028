/// One fetched image: its bytes as served (decoding is the host's), its `Content-Type`, and whether the SDK's
/// cache answered (from memory, from disk, or after a 304 revalidation). Immutable.
public final class Image: Sendable {
    public let url: String
    public let bytes: StableBytes
    public let contentType: StableCString
    public let isFromCache: Bool

    init(url: String, bytes: StableBytes, contentType: String, isFromCache: Bool) {
        self.url = url
        self.bytes = bytes
        self.contentType = StableCString(contentType)
        self.isFromCache = isFromCache
    }
}

/// The image error table (`BE_IMAGE_ERROR_*`).
public enum ImageErrorCode: Int, Sendable {
    case network = 1
    case httpStatus = 2
    case notAnImage = 3
    case tooLarge = 4
    case invalidURL = 5
}

extension ServiceError {
    static func image(_ code: ImageErrorCode, _ message: String, httpStatus: Int = 0) -> ServiceError {
        ServiceError(.image, code: code.rawValue, message: message, httpStatus: httpStatus)
    }
}
