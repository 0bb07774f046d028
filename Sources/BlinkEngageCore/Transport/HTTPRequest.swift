/// One HTTP request as the engine describes it; no libcurl type leaves `Transport/`.
public struct HTTPRequest: Sendable, Equatable {
    /// HEAD only opens a connection ahead of need (`SDK.warmUp`): the built-in transport's, never a host's.
    public enum Method: String, Sendable { case get = "GET", post = "POST", head = "HEAD" }

    public var method: Method { didSet { build = Build() } }
    public var url: String { didSet { build = Build() } }
    /// Header lines in order. Without an `Accept` header none is sent (libcurl's default `*/*` is removed).
    public var headers: [(name: String, value: String)] { didSet { build = Build() } }
    public var body: [UInt8]? { didSet { build = Build() } }
    public var timeoutMilliseconds: UInt32 { didSet { build = Build() } }
    /// Redirects are followed (at most 5, http/https only) unless false; beacons do not follow them.
    public var followRedirects: Bool { didSet { build = Build() } }
    /// A body larger than this after decoding is refused with `TransportError.tooLarge`.
    public var maximumBodyBytes: Int { didSet { build = Build() } }
    /// Whether the answer's header fields are kept in `HTTPResponse.headers`; a caller that reads none (Moments
    /// offers) sets false, and the transport then makes no String of any header line.
    public var keepsResponseHeaders: Bool { didSet { build = Build() } }
    /// Whether the caller keeps the answer's body at a stable address (an image): a transport that copies the
    /// body anyway (the host's) puts it there at once, in `HTTPResponse.stableBody`, instead of copying twice.
    public var wantsStableBody = false { didSet { build = Build() } }
    /// Whether the request may go as TLS 1.3 early data where the transport can send it (GET and HEAD only). Early
    /// data can be replayed by the network: a request whose every arrival counts (a beacon) says false.
    public var allowsEarlyData = true { didSet { build = Build() } }
    /// Whether the answer carries `HTTPResponse.timings` (the flight recorder's requests): read only then, off
    /// every other request's path. Nothing of it goes on the wire, so changing it keeps the build.
    public var recordsTimings = false

    /// Shared by the copies of one request as it was made, and replaced by any change: copies of one build put
    /// the same bytes on the wire, so `isByteIdentical` answers for them without reading them (a repeated fetch
    /// sends the request built for the last one, to a handle configured for it). Not part of the value (`==`).
    private var build = Build()
    private final class Build: Sendable {}

    public static let defaultMaximumBodyBytes = 8 * 1024 * 1024
    public static let maximumRedirects = 5

    public init(
        method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        timeoutMilliseconds: UInt32, followRedirects: Bool = true, maximumBodyBytes: Int = defaultMaximumBodyBytes,
        keepsResponseHeaders: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
        self.followRedirects = followRedirects
        self.maximumBodyBytes = maximumBodyBytes
        self.keepsResponseHeaders = keepsResponseHeaders
    }

    /// The value of the first header named `name`, in any case (ASCII case folding, as HTTP names are tokens).
    public func header(_ name: String) -> String? {
        headers.first(where: { ASCII.equalIgnoringCase($0.name, name) })?.value
    }

    /// Whether `other` would put the same bytes on the wire: `==` compares texts as Unicode does, so a header
    /// value in another normalization form is equal there and not here.
    func isByteIdentical(to other: HTTPRequest) -> Bool {
        if build === other.build { return true }
        return method == other.method && url.hasSameUTF8(as: other.url)
            && headers.elementsEqual(other.headers) { $0.name.hasSameUTF8(as: $1.name) && $0.value.hasSameUTF8(as: $1.value) }
            && body == other.body && timeoutMilliseconds == other.timeoutMilliseconds
            && followRedirects == other.followRedirects && maximumBodyBytes == other.maximumBodyBytes
            && keepsResponseHeaders == other.keepsResponseHeaders && allowsEarlyData == other.allowsEarlyData
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers.elementsEqual(rhs.headers, by: { $0 == $1 })
            && lhs.body == rhs.body && lhs.timeoutMilliseconds == rhs.timeoutMilliseconds
            && lhs.followRedirects == rhs.followRedirects && lhs.maximumBodyBytes == rhs.maximumBodyBytes
            && lhs.keepsResponseHeaders == rhs.keepsResponseHeaders && lhs.wantsStableBody == rhs.wantsStableBody
            && lhs.allowsEarlyData == rhs.allowsEarlyData
    }
}

/// A complete answer: any status, including non-2xx.
/// libcurl's instants of a transfer, in microseconds from its start, each phase's end (0: it had none, as a
/// reused connection has no DNS, connect or TLS).
public struct HTTPTimings: Sendable, Equatable {
    public var dnsMicroseconds: Int64 = 0
    public var connectMicroseconds: Int64 = 0
    public var tlsMicroseconds: Int64 = 0
    public var firstByteMicroseconds: Int64 = 0
    public var totalMicroseconds: Int64 = 0
    public init() {}
}

public struct HTTPResponse: Sendable, Equatable {
    public let status: Int
    /// The body, unless it is in `stableBody` (then empty).
    public let body: [UInt8]
    /// The body at a stable address, when the request asked for it and the transport could put it there.
    public let stableBody: StableBytes?
    /// Response headers of the final answer, names lower-cased.
    public let headers: [String: String]
    /// When each phase of the transfer ended, as the built-in transport measured it; nil from a host's transport.
    public let timings: HTTPTimings?

    public init(status: Int, body: [UInt8], headers: [String: String] = [:], stableBody: StableBytes? = nil,
                timings: HTTPTimings? = nil) {
        self.status = status
        self.body = body
        self.headers = headers
        self.stableBody = stableBody
        self.timings = timings
    }

    /// The body's bytes, wherever they are.
    public var bodyBytes: UnsafeRawBufferPointer? {
        stableBody.map { UnsafeRawBufferPointer(start: $0.pointer, count: $0.count) }
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
            && (lhs.bodyBytes.map(Array.init) ?? []) == (rhs.bodyBytes.map(Array.init) ?? [])
    }

    /// One "Name: value" header line as (lower-cased name, trimmed value); nil for a line without a colon
    /// (a status line, the blank end of the headers). The one reading of header lines, libcurl's or a host's.
    static func headerField(_ line: String) -> (name: String, value: String)? {
        var line = line
        return line.withUTF8 { headerField($0) }
    }

    /// `headerField` of the bytes libcurl hands over, read as bytes: no String is made but the two kept.
    static func headerField(_ line: UnsafeBufferPointer<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, ASCII.isWhitespace(line[lower]) { lower += 1 }
            while upper > lower, ASCII.isWhitespace(line[upper - 1]) { upper -= 1 }
            return lower..<upper
        }
        let name = trimmed(0..<colon), value = trimmed(colon + 1..<line.count)
        let lowerName = String(unsafeUninitializedCapacity: name.count) { output in
            for (offset, byte) in line[name].enumerated() {
                output[offset] = ASCII.lower(byte)
            }
            return name.count
        }
        return (lowerName, String(decoding: UnsafeBufferPointer(rebasing: line[value]), as: UTF8.self))
    }
}

/// Why no complete answer arrived.
public enum TransportError: Error, Equatable, Sendable {
    /// DNS, connect, TLS, reset, refused protocol: the detail says which.
    case network(String)
    case timeout(String)
    /// The body exceeded `maximumBodyBytes`.
    case tooLarge(Int)
    /// The transport shut down (or cancelled everything) before the answer arrived.
    case cancelled
    /// The request was never sent: it breaks `HTTPRequestRules` (a CR/LF in a header, a non-http(s) URL).
    case refused(String)

    public var message: String {
        switch self {
        case .network(let detail): return "network failure: \(detail)"
        case .timeout(let detail): return "timed out: \(detail)"
        case .tooLarge(let limit): return "answer larger than \(limit) bytes"
        case .cancelled: return "cancelled"
        case .refused(let reason): return "request refused before sending: \(reason)"
        }
    }
}

public typealias HTTPCompletion = @Sendable (Result<HTTPResponse, TransportError>) -> Void
