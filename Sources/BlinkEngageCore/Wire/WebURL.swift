internal import CJSONScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// WHATWG's URL parser (what browsers run) for the absolute http(s) URLs of answers, with its serialisation: a URL
/// an answer carries is handed to the host as the `href` a browser would open, or refused.
///
/// Refused although the standard parses them (SECURITY.md, "URLs", gives the reasons):
/// - a C0 control anywhere (tab, CR and LF among them, which browsers strip silently);
/// - a backslash anywhere (browsers read it as `/` before the query, other parsers as a character of the host
///   or path: a URL carrying one reads as two different URLs);
/// - any scheme but http and https, and relative URLs (an answer has no base);
/// - a host that is not ASCII and that libidn2 refuses although UTS #46 allows it (`IDNA.toASCII`).
/// Everything the standard refuses is refused.
///
/// Only special-scheme parsing with no base and no state override is implemented: the only kind answers need.
enum WebURL {
    /// How a URL reads.
    enum Reading: Equatable {
        /// The URL is its own `href`: hand out the bytes as given.
        case asGiven
        /// The URL parses, and a browser would open this `href`.
        case rewritten(String)
        case refused
    }

    static func read(_ input: UnsafeBufferPointer<UInt8>) -> Reading {
        guard let href = href(input) else { return .refused }
        let same = href.count == input.count && !input.isEmpty && href.withUnsafeBufferPointer { memcmp($0.baseAddress!, input.baseAddress!, input.count) == 0 }
        return same ? .asGiven : .rewritten(String(decoding: href, as: UTF8.self))
    }

    /// The `href` of `input`, nil when it is refused.
    static func href(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // The standard strips leading and trailing C0 controls and spaces, and removes tabs and newlines: here,
        // spaces only; a control refuses the URL.
        guard !input.isEmpty else { return nil }
        var start = 0, end = input.count
        while start < end, input[start] == 0x20 { start += 1 }
        while end > start, input[end - 1] == 0x20 { end -= 1 }
        guard be_url_has_control_or_backslash(input.baseAddress! + start, end - start) == 0 else { return nil }

        // Scheme: exactly http or https, in any case. Anything else before a ':' is another scheme or no scheme
        // (a relative URL, which needs a base answers do not have).
        var at = start
        while at < end, input[at] != UInt8(ascii: ":") { at += 1 }
        guard at < end else { return nil }
        let secure: Bool
        switch at - start {
        case 4 where matches(input, start, "http"): secure = false
        case 5 where matches(input, start, "https"): secure = true
        default: return nil
        }
        at += 1
        var output: [UInt8] = []
        output.reserveCapacity(end - start + 8)
        let prefix: StaticString = secure ? "https://" : "http://"
        output.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))

        // Special authority (ignore) slashes: any number of `/`, including none.
        while at < end, input[at] == UInt8(ascii: "/") { at += 1 }
        var authorityEnd = at
        var lastAt: Int?
        while authorityEnd < end, !isAuthorityEnd(input[authorityEnd]) {
            if input[authorityEnd] == UInt8(ascii: "@") { lastAt = authorityEnd }
            authorityEnd += 1
        }
        var hostStart = at
        if let lastAt {
            // The userinfo: username up to its first ':', password after; earlier '@'s are percent-encoded.
            hostStart = lastAt + 1
            guard hostStart < authorityEnd else { return nil }
            let colon = input[at..<lastAt].firstIndex(of: UInt8(ascii: ":")) ?? lastAt
            let userStart = output.count
            PercentEncodeSet.userinfo.append(input, at..<colon, to: &output)
            if colon + 1 < lastAt {
                output.append(UInt8(ascii: ":"))
                PercentEncodeSet.userinfo.append(input, (colon + 1)..<lastAt, to: &output)
            }
            if output.count > userStart { output.append(UInt8(ascii: "@")) }
        }

        // Host and port: the first ':' outside brackets starts the port.
        var portColon = authorityEnd
        var insideBrackets = false
        for index in hostStart..<authorityEnd {
            switch input[index] {
            case UInt8(ascii: "["): insideBrackets = true
            case UInt8(ascii: "]"): insideBrackets = false
            case UInt8(ascii: ":") where !insideBrackets: portColon = index
            default: continue
            }
            if portColon != authorityEnd { break }
        }
        guard portColon > hostStart,
              WebHost.append(UnsafeBufferPointer(rebasing: input[hostStart..<portColon]), to: &output) else { return nil }
        if portColon < authorityEnd {
            var port = 0
            for byte in input[(portColon + 1)..<authorityEnd] {
                guard ASCII.isDigit(byte) else { return nil }
                port = port * 10 + Int(byte - 0x30)
                guard port <= 65535 else { return nil }
            }
            if portColon + 1 < authorityEnd, port != (secure ? 443 : 80) {
                output.append(UInt8(ascii: ":"))
                appendDecimal(port, to: &output)
            }
        }

        // What follows as the serialiser would write it (nearly always): copied whole.
        at = authorityEnd
        if at < end, input[at] == UInt8(ascii: "/"), be_url_canonical_rest(input.baseAddress!, end, at) != 0 {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[at..<end]))
            return output
        }
        // Path: segments up to '?' or '#', with "." and ".." segments resolved.
        if at < end, input[at] == UInt8(ascii: "/") { at += 1 }
        let pathStart = output.count
        var segmentStart = at
        while true {
            let isEnd = at == end || input[at] == UInt8(ascii: "?") || input[at] == UInt8(ascii: "#")
            guard isEnd || input[at] == UInt8(ascii: "/") else {
                at += 1
                continue
            }
            let segment = UnsafeBufferPointer(rebasing: input[segmentStart..<at])
            if isDoubleDot(segment) {
                // Remove the last segment, if any; at the end, the path ends with a slash.
                if let slash = output[pathStart...].lastIndex(of: UInt8(ascii: "/")) { output.removeSubrange(slash...) }
                if isEnd { output.append(UInt8(ascii: "/")) }
            } else if isSingleDot(segment) {
                if isEnd { output.append(UInt8(ascii: "/")) }
            } else {
                output.append(UInt8(ascii: "/"))
                PercentEncodeSet.path.append(input, segmentStart..<at, to: &output)
            }
            if isEnd { break }
            at += 1
            segmentStart = at
        }

        if at < end, input[at] == UInt8(ascii: "?") {
            let queryStart = at + 1
            at = queryStart
            while at < end, input[at] != UInt8(ascii: "#") { at += 1 }
            output.append(UInt8(ascii: "?"))
            PercentEncodeSet.specialQuery.append(input, queryStart..<at, to: &output)
        }
        if at < end {
            output.append(UInt8(ascii: "#"))
            PercentEncodeSet.fragment.append(input, (at + 1)..<end, to: &output)
        }
        return output
    }

    /// What ends a special URL's authority once backslashes are refused.
    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func matches(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ lower: StaticString) -> Bool {
        for index in 0..<lower.utf8CodeUnitCount where ASCII.lower(input[start + index]) != lower.utf8Start[index] { return false }
        return true
    }

    /// `.` or `%2e`, in any case.
    private static func isSingleDot(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        switch segment.count {
        case 1: return segment[0] == UInt8(ascii: ".")
        case 3: return isEncodedDot(segment, 0)
        default: return false
        }
    }

    /// `..`, `.%2e`, `%2e.` or `%2e%2e`, in any case.
    private static func isDoubleDot(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        let dot = UInt8(ascii: ".")
        switch segment.count {
        case 2: return segment[0] == dot && segment[1] == dot
        case 4: return (segment[0] == dot && isEncodedDot(segment, 1)) || (isEncodedDot(segment, 0) && segment[3] == dot)
        case 6: return isEncodedDot(segment, 0) && isEncodedDot(segment, 3)
        default: return false
        }
    }

    private static func isEncodedDot(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
        bytes[at] == UInt8(ascii: "%") && bytes[at + 1] == UInt8(ascii: "2") && ASCII.lower(bytes[at + 2]) == UInt8(ascii: "e")
    }

    /// `value` (0...65535) in decimal.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var divisor = 10_000
        while divisor > 1, value < divisor { divisor /= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

/// The standard's percent-encode sets the serialiser uses; each holds every C0 control, the space and every byte of
/// 0x7F and above. A byte already written as `%XX` is left as it is: the standard never decodes. The sets are a byte
/// table in C (`be_url_encode_sets`, CJSONScan/url.h), one lookup a byte.
enum PercentEncodeSet: UInt32 {
    /// Fragment: `"`, `<`, `>`, `` ` ``.
    case fragment = 1
    /// Special query: `"`, `#`, `<`, `>`, `'`.
    case specialQuery = 2
    /// Path: `"`, `#`, `<`, `>`, `?`, `` ` ``, `{`, `}`.
    case path = 4
    /// Userinfo: the path set, `/`, `:`, `;`, `=`, `@`, `[`, `\`, `]`, `^`, `|`.
    case userinfo = 8

    func contains(_ byte: UInt8) -> Bool { be_url_encode_sets_of(byte) & rawValue != 0 }

    /// Appends `input[range]`, runs of bytes the set leaves as they are copied whole.
    func append(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]) {
        var run = range.lowerBound
        for index in range where contains(input[index]) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<index]))
            PercentEncoding.appendEscape(input[index], to: &output)
            run = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<range.upperBound]))
    }
}
