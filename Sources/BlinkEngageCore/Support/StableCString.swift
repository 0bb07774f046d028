#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An immutable NUL-terminated UTF-8 copy of a string at a stable address, made once when a value is decoded
/// and freed with its owner, so getters can hand out borrowed pointers that live as long as the owning object.
// Safe: the bytes are written once in init, only read afterwards, and freed in deinit when no one holds it.
public final class StableCString: @unchecked Sendable {
    /// The Swift view.
    public let string: String
    public let pointer: UnsafePointer<CChar>

    public init(_ string: String) {
        self.string = string
        // String's UTF-8 never contains an interior NUL from our decoders' point of view: a "\u0000" inside
        // a JSON string would truncate the C view, which is what a C host would see anyway.
        pointer = UnsafePointer(strdup(string)!)
    }

    /// nil for an empty string: getters answer NULL for absent and empty values alike.
    public static func nonEmpty(_ string: String?) -> StableCString? {
        guard let string, !string.isEmpty else { return nil }
        return StableCString(string)
    }

    deinit { free(UnsafeMutablePointer(mutating: pointer)) }
}
