/// One request handed to the host's own HTTP stack (`be_http_request`), from `send` until the host completes or
/// fails it, exactly once.
///
/// The host holds an id, not an address: `be_http_request *` is the id as a pointer, looked up in `registry`. A
/// request stays there, its strings and body valid, until the host's first completion, whatever the SDK did
/// meanwhile (timed it out, shut down), so a slow host never reads freed memory; a second completion finds
/// nothing and is refused instead of touching freed memory.
public final class HostHTTPExchange: Sendable {
    public let id: UInt64
    public let method: StableCString
    public let url: StableCString
    public let headerNames: [StableCString]
    public let headerValues: [StableCString]
    public let body: StableBytes?
    public let timeoutMilliseconds: UInt32
    let maximumBodyBytes: Int
    private let wantsStableBody: Bool
    /// Hands the outcome (with the exchange's id) to the transport that sent the request (which ignores it after a timeout or shutdown).
    private let deliver: @Sendable (UInt64, Result<HTTPResponse, TransportError>) -> Void

    private static let registry = Locked<(next: UInt64, live: [UInt64: HostHTTPExchange])>((1, [:]))

    /// Makes and registers an exchange for `request`.
    static func register(_ request: HTTPRequest, deliver: @escaping @Sendable (UInt64, Result<HTTPResponse, TransportError>) -> Void) -> HostHTTPExchange {
        registry.withLock { registry in
            let exchange = HostHTTPExchange(id: registry.next, request: request, deliver: deliver)
            registry.next += 1
            registry.live[exchange.id] = exchange
            return exchange
        }
    }

    private init(id: UInt64, request: HTTPRequest, deliver: @escaping @Sendable (UInt64, Result<HTTPResponse, TransportError>) -> Void) {
        self.id = id
        method = StableCString(request.method.rawValue)
        url = StableCString(request.url)
        headerNames = request.headers.map { StableCString($0.name) }
        headerValues = request.headers.map { StableCString($0.value) }
        body = request.body.map { StableBytes($0) }
        timeoutMilliseconds = request.timeoutMilliseconds
        maximumBodyBytes = request.maximumBodyBytes
        wantsStableBody = request.wantsStableBody
        self.deliver = deliver
    }

    /// The live exchange of `id`; nil once completed (or never issued).
    public static func find(_ id: UInt64) -> HostHTTPExchange? { registry.withLock { $0.live[id] } }

    /// The host's answer: any status 100...599, header lines "Name: value", the body as received (decoded).
    public static func complete(_ id: UInt64, status: Int, headerLines: [String], body: [UInt8]) throws(EngineFailure) {
        try complete(id, status: status, headerLines: headerLines, bodySize: body.count) { destination in
            body.withUnsafeBytes { destination.copyMemory(from: $0) }
        }
    }

    /// `complete` with the body copied, by `fill` into the place it is given, only when the request takes one of
    /// `bodySize` bytes: a body over its cap is never copied, an accepted one once (at a stable address when the
    /// request wants it there).
    public static func complete(_ id: UInt64, status: Int, headerLines: [String], bodySize: Int,
                                fill: (UnsafeMutableRawBufferPointer) -> Void) throws(EngineFailure) {
        guard (100...599).contains(status) else { throw .invalidArgument("\(status) is not an HTTP status (100...599)") }
        for (index, line) in headerLines.enumerated() {
            if let problem = HTTPRequestRules.problem(ofResponseHeaderLine: line) {
                throw .invalidArgument("header line \(index) \(problem): \"\(SafeText.clean(line))\"")
            }
        }
        let exchange = try take(id)
        guard bodySize <= exchange.maximumBodyBytes else { return exchange.deliver(id, .failure(.tooLarge(exchange.maximumBodyBytes))) }
        var headers: [String: String] = [:]
        for field in headerLines.compactMap(HTTPResponse.headerField) { headers[field.name] = field.value }
        let response: HTTPResponse
        if exchange.wantsStableBody {
            response = HTTPResponse(status: status, body: [], headers: headers, stableBody: StableBytes(count: bodySize, filling: fill))
        } else {
            let body = [UInt8](unsafeUninitializedCapacity: bodySize) { buffer, count in
                fill(UnsafeMutableRawBufferPointer(buffer))
                count = bodySize
            }
            response = HTTPResponse(status: status, body: body, headers: headers)
        }
        exchange.deliver(id, .success(response))
    }

    /// The host could not get an answer: a network error with the host's words.
    public static func fail(_ id: UInt64, message: String?) throws(EngineFailure) {
        let exchange = try take(id)
        exchange.deliver(id, .failure(.network("the host's transport failed: \(message ?? "no reason given")")))
    }

    private static func take(_ id: UInt64) throws(EngineFailure) -> HostHTTPExchange {
        guard let exchange = registry.withLock({ $0.live.removeValue(forKey: id) }) else {
            throw .invalidState("this request was already completed or failed")
        }
        return exchange
    }
}
