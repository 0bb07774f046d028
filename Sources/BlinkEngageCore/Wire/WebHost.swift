internal import CIDN2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// WHATWG's host parser for special schemes, with the host serialiser: a domain (percent-decoded, mapped to
/// ASCII, checked for forbidden code points), an IPv4 address when the domain ends in a number, or a bracketed
/// IPv6 address.
enum WebHost {
    /// Appends the serialised host of `input` to `output`; false when the standard refuses it.
    static func append(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        guard !input.isEmpty else { return false }
        if input[0] == UInt8(ascii: "[") {
            guard input.count >= 2, input[input.count - 1] == UInt8(ascii: "]"),
                  let address = IPv6.parse(UnsafeBufferPointer(rebasing: input[1..<(input.count - 1)])) else { return false }
            output.append(UInt8(ascii: "["))
            IPv6.serialize(address, to: &output)
            output.append(UInt8(ascii: "]"))
            return true
        }
        let hostStart = output.count
        // Percent-decoded into the output, then made ASCII there: most hosts are lower-case ASCII already.
        var isASCII = true
        var index = 0
        while index < input.count {
            var byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
               let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) {
                byte = high << 4 | low
                index += 2
            }
            if byte >= 0x80 { isASCII = false }
            output.append(isASCII ? ASCII.lower(byte) : byte)
            index += 1
        }
        if !isASCII {
            guard let ascii = IDNA.toASCII(Array(output[hostStart...])) else { return false }
            output.replaceSubrange(hostStart..., with: ascii)
        }
        let domain = hostStart..<output.count
        guard !domain.isEmpty else { return false }
        for byte in output[domain] where isForbiddenInDomain(byte) { return false }
        guard output.withUnsafeBufferPointer({ IPv4.endsInANumber(UnsafeBufferPointer(rebasing: $0[domain])) }) else { return true }
        guard let address = output.withUnsafeBufferPointer({ IPv4.parse(UnsafeBufferPointer(rebasing: $0[domain])) }) else { return false }
        output.removeSubrange(domain)
        IPv4.serialize(address, to: &output)
        return true
    }

    /// The standard's forbidden domain code points, of an ASCII domain.
    private static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        if byte <= 0x20 || byte == 0x7F { return true }
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
             UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// UTS #46 ToASCII of a domain that is not ASCII, by libidn2 (non-transitional, NFC). WHATWG asks for
/// CheckHyphens and VerifyDnsLength off; libidn2 applies IDNA2008's rules on top, so a Unicode domain with a label
/// of over 63 bytes, a hyphen at its start, end or third and fourth places, or a symbol IDNA2008 disallows
/// (U+2603 ☃) is refused although browsers open it. ASCII domains never come here: the standard lower-cases them.
enum IDNA {
    static func toASCII(_ utf8: [UInt8]) -> [UInt8]? {
        // libidn2 takes a NUL-terminated string; a NUL decoded from %00 is a forbidden code point anyway. The
        // standard decodes with replacement, and UTS #46 refuses a replacement character: invalid UTF-8 is refused.
        guard !utf8.contains(0), String(validating: utf8, as: UTF8.self) != nil else { return nil }
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let status = (utf8 + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { idn2_to_ascii_8z($0.baseAddress, &output, flags) }
        }
        guard status == IDN2_OK.rawValue, let output else { return nil }
        defer { idn2_free(output) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(output).assumingMemoryBound(to: UInt8.self), count: strlen(output)))
    }
}

/// The standard's IPv4 parser and serialiser.
enum IPv4 {
    /// The last label (after one trailing empty label) is all digits or an IPv4 number (`0x` and hex digits).
    static func endsInANumber(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = host.count
        if end > 0, host[end - 1] == UInt8(ascii: ".") {
            end -= 1
            if end == 0 { return false }
        }
        var start = end
        while start > 0, host[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let last = UnsafeBufferPointer(rebasing: host[start..<end])
        guard !last.isEmpty else { return false }
        if last.allSatisfy(ASCII.isDigit) { return true }
        return number(last) != nil
    }

    /// At most four parts, each decimal, octal (leading 0) or hex (`0x`), all but the last at most 255, the last
    /// within what the others leave.
    static func parse(_ host: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var end = host.count
        if end > 0, host[end - 1] == UInt8(ascii: "."), end > 1 { end -= 1 }
        var parts: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        var start = 0
        for index in 0...end where index == end || host[index] == UInt8(ascii: ".") {
            guard count < 4, let value = number(UnsafeBufferPointer(rebasing: host[start..<index])) else { return nil }
            switch count {
            case 0: parts.0 = value
            case 1: parts.1 = value
            case 2: parts.2 = value
            default: parts.3 = value
            }
            count += 1
            start = index + 1
        }
        let values = [parts.0, parts.1, parts.2, parts.3][..<count]
        for value in values.dropLast() where value > 255 { return nil }
        let last = values[values.endIndex - 1]
        guard last < (1 as UInt64) << (8 * (5 - count)) else { return nil }
        var address = last
        for (counter, value) in values.dropLast().enumerated() { address += value << (8 * (3 - counter)) }
        return UInt32(address)
    }

    /// One IPv4 part; nil when it is not a number. An empty part is not one; `0x` alone is 0. Values that
    /// cannot fit an address are capped at 2^32 (still too large) instead of overflowing.
    static func number(_ part: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = UnsafeBufferPointer(rebasing: part[...])
        var radix: UInt64 = 10
        if part.count >= 2, part[0] == UInt8(ascii: "0"), ASCII.lower(part[1]) == UInt8(ascii: "x") {
            digits = UnsafeBufferPointer(rebasing: part[2...])
            radix = 16
        } else if part.count >= 2, part[0] == UInt8(ascii: "0") {
            digits = UnsafeBufferPointer(rebasing: part[1...])
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = WebHost.hexValue(byte).map(UInt64.init), digit < radix else { return nil }
            value = min(value * radix + digit, 1 << 32)
        }
        return value
    }

    static func serialize(_ address: UInt32, to output: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) {
            WebURL.appendDecimal(Int(address >> UInt32(shift) & 0xFF), to: &output)
            if shift > 0 { output.append(UInt8(ascii: ".")) }
        }
    }
}

/// The standard's IPv6 parser and serialiser.
enum IPv6 {
    /// The eight pieces, in a value that needs no allocation.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> SIMD8<UInt16>? {
        var address = SIMD8<UInt16>()
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        let count = text.count
        func at(_ index: Int) -> UInt8? { index < count ? text[index] : nil }
        if at(0) == UInt8(ascii: ":") {
            guard at(1) == UInt8(ascii: ":") else { return nil }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        while at(pointer) != nil {
            guard pieceIndex < 8 else { return nil }
            if at(pointer) == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let byte = at(pointer), let digit = WebHost.hexValue(byte) {
                value = value << 4 | UInt16(digit)
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                var numbersSeen = 0
                while at(pointer) != nil {
                    if numbersSeen > 0 {
                        guard at(pointer) == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard let first = at(pointer), ASCII.isDigit(first) else { return nil }
                    var piece: Int?
                    while let byte = at(pointer), ASCII.isDigit(byte) {
                        let digit = Int(byte - UInt8(ascii: "0"))
                        if let current = piece {
                            guard current != 0 else { return nil }  // a leading zero
                            piece = current * 10 + digit
                        } else {
                            piece = digit
                        }
                        guard piece! <= 255 else { return nil }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] << 8 | UInt16(piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if at(pointer) == UInt8(ascii: ":") {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                (address[pieceIndex], address[compress + swaps - 1]) = (address[compress + swaps - 1], address[pieceIndex])
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// Lower-case hex pieces without leading zeros; the first longest run of two or more zero pieces as `::`.
    static func serialize(_ address: SIMD8<UInt16>, to output: inout [UInt8]) {
        var compress: Int?, bestLength = 1
        var index = 0
        while index < 8 {
            var length = 0
            while index + length < 8, address[index + length] == 0 { length += 1 }
            if length > bestLength { compress = index; bestLength = length }
            index += max(length, 1)
        }
        // At most 39 bytes, written into a buffer of the stack and appended once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { text in
            let hex: StaticString = "0123456789abcdef"
            var count = 0
            var ignoreZero = false
            for pieceIndex in 0..<8 {
                let piece = address[pieceIndex]
                if ignoreZero, piece == 0 { continue }
                ignoreZero = false
                if compress == pieceIndex {
                    if pieceIndex == 0 { text[count] = UInt8(ascii: ":"); count += 1 }
                    text[count] = UInt8(ascii: ":")
                    count += 1
                    ignoreZero = true
                    continue
                }
                var shift = 12
                while shift > 0, piece >> UInt16(shift) == 0 { shift -= 4 }
                while shift >= 0 {
                    text[count] = hex.utf8Start[Int(piece >> UInt16(shift) & 0xF)]
                    count += 1
                    shift -= 4
                }
                if pieceIndex != 7 { text[count] = UInt8(ascii: ":"); count += 1 }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }
}
