/// Whether an http(s) URL from an answer may be handed to a host to open: a URL that WHATWG's URL standard (what
/// browsers run) parses as http or https, within the limits below, which refuse only what is unsafe to hand out or
/// could be read differently by another parser than a browser's. The URL is handed out exactly as received.
///
/// Refused although the standard parses them (SECURITY.md lists them with the reasons):
/// - any C0 control or DEL (tab, CR, LF and NUL among them, which browsers strip silently), a space (hosts split
///   command lines and logs at it), a leading or trailing space;
/// - anything but exactly `//` after the scheme (`http:/x`, `http:x`, `http:\\x`, `http:///x`), which other parsers
///   read as a path or an empty host;
/// - more than one `@` in the authority, or a `\` ending it: parsers disagree on which part is the host;
/// - a percent-encoded host, a host in Unicode form (its `xn--` form is accepted), a punycode label with a code
///   point outside the blocks `isValidDecodedLabel` allows.
/// Everything the standard refuses is refused: forbidden host code points, bad ports, IPv4 numbers out of range
/// or in more than four parts, malformed IPv6 literals, malformed punycode.
enum WebURL {
    static func isOpenableHTTP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 7, bytes[0] != 0x20, bytes[count - 1] != 0x20 else { return false }
        for byte in bytes where ASCII.isSpaceOrControl(byte) { return false }
        guard ASCII.lower(bytes[0]) == UInt8(ascii: "h"), ASCII.lower(bytes[1]) == UInt8(ascii: "t"),
              ASCII.lower(bytes[2]) == UInt8(ascii: "t"), ASCII.lower(bytes[3]) == UInt8(ascii: "p") else { return false }
        var at = ASCII.lower(bytes[4]) == UInt8(ascii: "s") ? 5 : 4
        guard count > at + 3, bytes[at] == UInt8(ascii: ":"), bytes[at + 1] == UInt8(ascii: "/"),
              bytes[at + 2] == UInt8(ascii: "/") else { return false }
        at += 3
        var end = at
        while end < count, !isAuthorityEnd(bytes[end]) { end += 1 }
        // The standard reads `\` as `/`; other parsers (libcurl among them) read it as part of the authority.
        guard end > at, end == count || bytes[end] != UInt8(ascii: "\\") else { return false }
        var hostStart = at
        var atSigns = 0
        for index in at..<end where bytes[index] == UInt8(ascii: "@") {
            atSigns += 1
            hostStart = index + 1
        }
        guard atSigns <= 1 else { return false }
        return isHostAndPort(UnsafeBufferPointer(rebasing: bytes[hostStart..<end]))
    }

    /// What ends a special URL's authority: `/`, `\` (which the standard reads as `/`), `?` and `#`.
    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func isHostAndPort(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        let hostEnd: Int
        var portStart: Int?
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            guard isIPv6(UnsafeBufferPointer(rebasing: bytes[1..<close])) else { return false }
            hostEnd = close + 1
            if hostEnd < bytes.count {
                guard bytes[hostEnd] == UInt8(ascii: ":") else { return false }
                portStart = hostEnd + 1
            }
        } else {
            hostEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            if hostEnd < bytes.count { portStart = hostEnd + 1 }
            guard hostEnd > 0, isDomainOrIPv4(UnsafeBufferPointer(rebasing: bytes[0..<hostEnd])) else { return false }
        }
        guard let portStart else { return true }
        // Digits only, possibly none; leading zeros are allowed; at most 65535.
        var port = 0
        for byte in bytes[portStart...] {
            guard ASCII.isDigit(byte) else { return false }
            port = port * 10 + Int(byte - 0x30)
            if port > 65535 { return false }
        }
        return true
    }

    // MARK: Domains

    /// An ASCII host: WHATWG's host parser for special schemes with the domain already ASCII, so UTS #46 only
    /// lower-cases it and checks its `xn--` labels. A host that ends in a number is an IPv4 address.
    private static func isDomainOrIPv4(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in host {
            guard byte < 0x80, !isForbiddenDomainByte(byte) else { return false }
        }
        var labelStart = 0
        for index in 0...host.count where index == host.count || host[index] == UInt8(ascii: ".") {
            let label = UnsafeBufferPointer(rebasing: host[labelStart..<index])
            if label.count >= 4, ASCII.lower(label[0]) == UInt8(ascii: "x"), ASCII.lower(label[1]) == UInt8(ascii: "n"),
               label[2] == UInt8(ascii: "-"), label[3] == UInt8(ascii: "-") {
                guard let decoded = Punycode.decode(UnsafeBufferPointer(rebasing: label[4...])),
                      isValidDecodedLabel(decoded) else { return false }
            }
            labelStart = index + 1
        }
        if endsInANumber(host) { return isIPv4(host) }
        return true
    }

    /// Forbidden domain code points of the standard that remain once controls and the space are refused.
    private static func isForbiddenDomainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
             UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    /// A punycode label's code points, held to UTS #46's validity by an allowlist instead of its tables: a label
    /// that decodes to ASCII only is invalid, and every code point must be a lower-case ASCII letter, a digit or
    /// `-`, or lie in a block of letters UTS #46 leaves as they are (lower-case Latin-1 letters, lower-case Greek
    /// and Cyrillic, hiragana, katakana, CJK ideographs, Hangul syllables). Anything else (compatibility forms,
    /// upper case, combining marks, joiners, right-to-left scripts whose bidi rule is not checked here) is refused:
    /// a refusal, never a wrong acceptance. The library carries no Unicode tables for this.
    private static func isValidDecodedLabel(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.contains(where: { !$0.isASCII }) else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39, 0x2D: return true                         // a-z 0-9 -
            case 0xDF...0xF6, 0xF8...0xFF: return true                                // ß à...ö ø...ÿ
            case 0x3AC...0x3CE: return true                                           // lower-case Greek
            case 0x430...0x44F, 0x451...0x45F: return true                            // lower-case Cyrillic
            case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC: return true                // hiragana, katakana, ー
            case 0x4E00...0x9FFF: return true                                         // CJK ideographs
            case 0xAC00...0xD7A3: return true                                         // Hangul syllables
            default: return false
            }
        }
    }

    // MARK: IPv4

    /// The standard's "ends in a number": the last label (after one trailing empty label) is all digits, or
    /// parses as an IPv4 number (`0x` and hex digits).
    private static func endsInANumber(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
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
        return ipv4Number(last) != nil
    }

    /// The standard's IPv4 parser, without its address: at most four parts, each decimal, octal (leading 0) or
    /// hex (`0x`), all but the last at most 255, the last within what the others leave.
    private static func isIPv4(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = host.count
        if host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        var parts: [UInt64] = []
        var start = 0
        for index in 0...end where index == end || host[index] == UInt8(ascii: ".") {
            guard parts.count < 4, let value = ipv4Number(UnsafeBufferPointer(rebasing: host[start..<index])) else { return false }
            parts.append(value)
            start = index + 1
        }
        for value in parts.dropLast() where value > 255 { return false }
        return parts[parts.count - 1] < (1 as UInt64) << (8 * (5 - parts.count))
    }

    /// One IPv4 part; nil when it is not a number. An empty part is not one; `0x` alone is 0. Values that
    /// cannot fit an address are capped at 2^32 (still too large) instead of overflowing.
    private static func ipv4Number(_ part: UnsafeBufferPointer<UInt8>) -> UInt64? {
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
            let digit: UInt64
            switch ASCII.lower(byte) {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66: digit = UInt64(ASCII.lower(byte) - 0x61 + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            value = min(value * radix + digit, 1 << 32)
        }
        return value
    }

    // MARK: IPv6

    /// The standard's IPv6 parser, without its address: eight pieces of up to four hex digits, one `::`
    /// compression, an IPv4 tail only in the last two pieces.
    private static func isIPv6(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        let count = text.count
        func at(_ index: Int) -> UInt8? { index < count ? text[index] : nil }
        if at(0) == UInt8(ascii: ":") {
            guard at(1) == UInt8(ascii: ":") else { return false }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        while let byte = at(pointer) {
            guard pieceIndex < 8 else { return false }
            if byte == UInt8(ascii: ":") {
                guard compress == nil else { return false }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var length = 0
            while length < 4, let digit = at(pointer), isHex(digit) {
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0 else { return false }
                pointer -= length
                guard pieceIndex <= 6, isIPv6TailIPv4(UnsafeBufferPointer(rebasing: text[pointer...])) else { return false }
                pieceIndex += 2
                pointer = count
                break
            } else if at(pointer) == UInt8(ascii: ":") {
                pointer += 1
                guard at(pointer) != nil else { return false }
            } else if at(pointer) != nil {
                return false
            }
            pieceIndex += 1
        }
        if compress != nil { return pieceIndex <= 8 }
        return pieceIndex == 8
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || (ASCII.lower(byte) >= UInt8(ascii: "a") && ASCII.lower(byte) <= UInt8(ascii: "f"))
    }

    /// The dotted IPv4 tail of an IPv6 literal: exactly four decimal parts of 0...255 without leading zeros.
    private static func isIPv6TailIPv4(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0
        var value = -1
        var digits = 0
        for byte in text {
            if byte == UInt8(ascii: ".") {
                guard value >= 0, parts < 3 else { return false }
                parts += 1
                value = -1
                digits = 0
                continue
            }
            guard ASCII.isDigit(byte) else { return false }
            if value == 0 { return false }  // a leading zero
            value = (value < 0 ? 0 : value) * 10 + Int(byte - 0x30)
            digits += 1
            guard value <= 255 else { return false }
        }
        return parts == 3 && value >= 0
    }
}

/// RFC 3492's decoder, for the `xn--` labels of hosts.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The code points of `label` (without its `xn--`); nil when it is not valid punycode.
    static func decode(_ label: UnsafeBufferPointer<UInt8>) -> [Unicode.Scalar]? {
        guard !label.isEmpty else { return nil }
        var output: [Unicode.Scalar] = []
        let delimiter = label.lastIndex(of: UInt8(ascii: "-"))
        var index = 0
        if let delimiter {
            for byte in label[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(Unicode.Scalar(byte))
            }
            index = delimiter + 1
        }
        var n = initialN, i = 0, bias = initialBias
        while index < label.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < label.count, let digit = digitValue(label[index]) else { return nil }
                index += 1
                let (product, overflow1) = digit.multipliedReportingOverflow(by: w)
                let (sum, overflow2) = i.addingReportingOverflow(product)
                guard !overflow1, !overflow2, sum <= 0x10FFFF * 64 else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextW, overflow3) = w.multipliedReportingOverflow(by: base - t)
                guard !overflow3 else { return nil }
                w = nextW
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(n)), n >= 0x80 else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte) - 0x30 + 26
        case 0x41...0x5A: return Int(byte) - 0x41
        case 0x61...0x7A: return Int(byte) - 0x61
        default: return nil
        }
    }

    private static func adapt(_ delta: Int, _ points: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
