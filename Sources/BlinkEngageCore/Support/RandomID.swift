#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random identifiers (event ids, the device id) in the UUID version 4 text form, from the system's generator
/// (`Platform.randomBytes`: one call, no file to open on Linux).
enum RandomID {
    static func make() -> String {
        var (high, low) = randomBits()
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000    // variant 10
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, value) in [high, low].enumerated() {
            for nibble in stride(from: 60, through: 0, by: -4) {
                let position = index * 16 + (60 - nibble) / 4
                if position == 8 || position == 12 || position == 16 || position == 20 { text.append(UInt8(ascii: "-")) }
                text.append(hex[Int((value >> UInt64(nibble)) & 0xF)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// 128 random bits in one call (the standard library's generator makes one call per 64 bits).
    private static func randomBits() -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        if withUnsafeMutableBytes(of: &words, { Platform.randomBytes($0) }) { return words }
        var generator = SystemRandomNumberGenerator()  // interrupted or unavailable: never fails
        return (generator.next(), generator.next())
    }
}
