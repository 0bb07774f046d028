#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Immutable bytes at a stable address, for getters that lend a host a pointer: an image's bytes (shared by the
/// caches and every `Image` handed out for them, so a memory hit copies nothing), a request body.
// Safe: the bytes are written once in init, only read afterwards, and freed in deinit when no one holds them.
public final class StableBytes: @unchecked Sendable {
    public let pointer: UnsafeRawPointer
    public let count: Int

    init(_ bytes: [UInt8]) {
        // malloc(0) may answer NULL; one spare byte keeps the pointer valid for an empty body too.
        let storage = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { if let base = $0.baseAddress { storage.copyMemory(from: base, byteCount: bytes.count) } }
        pointer = UnsafeRawPointer(storage)
        count = bytes.count
    }

    /// `count` bytes written by `fill`, straight into their stable place (no intermediate copy).
    init(count: Int, filling fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let storage = malloc(max(count, 1))!
        fill(UnsafeMutableRawBufferPointer(start: storage, count: count))
        pointer = UnsafeRawPointer(storage)
        self.count = count
    }

    var array: [UInt8] { Array(UnsafeRawBufferPointer(start: pointer, count: count)) }

    deinit { free(UnsafeMutableRawPointer(mutating: pointer)) }
}
