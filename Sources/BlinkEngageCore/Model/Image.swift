#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of one image at a stable address, shared by the caches and every `Image` handed out for them, so
/// a memory hit copies nothing.
// Safe: the bytes are written once in init, only read afterwards, and freed in deinit when no one holds them.
public final class ImageBytes: @unchecked Sendable {
    public let pointer: UnsafeRawPointer
    public let count: Int

    init(_ bytes: [UInt8]) {
        // malloc(0) may answer NULL; one spare byte keeps the pointer valid for an empty body too.
        let storage = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { if let base = $0.baseAddress { storage.copyMemory(from: base, byteCount: bytes.count) } }
        pointer = UnsafeRawPointer(storage)
        count = bytes.count
    }

    var array: [UInt8] { Array(UnsafeRawBufferPointer(start: pointer, count: count)) }

    deinit { free(UnsafeMutableRawPointer(mutating: pointer)) }
}

/// One fetched image: its bytes as served (decoding is the host's), its `Content-Type`, and whether the SDK's
/// cache answered (from memory, from disk, or after a 304 revalidation). Immutable.
public final class Image: Sendable {
    public let url: String
    public let bytes: ImageBytes
    public let contentType: StableCString
    public let isFromCache: Bool

    init(url: String, bytes: ImageBytes, contentType: String, isFromCache: Bool) {
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
