/// Little-endian integers in byte arrays, for the engine's own file formats (journal records, image cache files):
/// one way to write them and one bounds-checked way to read them.
enum LittleEndian {
    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for index in 0..<(T.bitWidth / 8) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// The integer at `offset`, or nil when its bytes do not all lie in `offset..<end` (default: the end).
    static func read<T: FixedWidthInteger>(_: T.Type, from bytes: [UInt8], at offset: Int, end: Int? = nil) -> T? {
        let size = T.bitWidth / 8, limit = min(end ?? bytes.count, bytes.count)
        guard offset >= 0, offset <= limit, limit - offset >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }
}
