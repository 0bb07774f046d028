#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An immutable NUL-terminated UTF-8 copy of a string at a stable address, made once when a value is decoded
/// and freed with its owner, so getters can hand out borrowed pointers that live as long as the owning object.
// Safe: the bytes are written once in init, only read afterwards, and freed in deinit when no one holds it.
public final class StableCString: @unchecked Sendable {
    /// The Swift view; read from the C bytes when made from bytes (large texts the engine rarely reads).
    public var string: String { storedString ?? String(cString: pointer) }
    private let storedString: String?
    public let pointer: UnsafePointer<CChar>

    public init(_ string: String) {
        storedString = string
        // String's UTF-8 never contains an interior NUL from our decoders' point of view: a "\u0000" inside
        // a JSON string would truncate the C view, which is what a C host would see anyway.
        pointer = UnsafePointer(strdup(string)!)
    }

    /// A copy of UTF-8 `bytes` (already validated by their parser) in one pass, with no String made.
    public init(bytes: ArraySlice<UInt8>) {
        let storage = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { memcpy(storage, base, buffer.count) }
        }
        storage[bytes.count] = 0
        pointer = UnsafePointer(storage)
        storedString = nil
    }

    /// nil for an empty string: getters answer NULL for absent and empty values alike.
    public static func nonEmpty(_ string: String?) -> StableCString? {
        guard let string, !string.isEmpty else { return nil }
        return StableCString(string)
    }

    deinit { free(UnsafeMutablePointer(mutating: pointer)) }
}
