/// 64-bit FNV-1a: a fast, stable, non-cryptographic hash for names and checksums that must not change between
/// versions (storage directory names, image cache file names and checksums).
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of `bytes`; with `continuing`, of the bytes hashed before them followed by these.
    static func hash(_ bytes: some Sequence<UInt8>, continuing hash: UInt64 = offsetBasis) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
