internal import BlinkEngageCore

/// The host's own HTTP stack, used instead of the built-in one (``BlinkEngageConfiguration/httpTransport``).
///
/// `send` is called once per request, on an SDK thread, and must return soon: answer the request later, from
/// any thread, with ``BlinkEngageHTTPRequest/complete(status:headerLines:body:)`` or
/// ``BlinkEngageHTTPRequest/fail(_:)``. A request not answered within its timeout fails by itself.
public protocol BlinkEngageHTTPTransport: Sendable {
    /// Starts `request` and returns at once; answer it later with `complete` or `fail`, from any thread.
    func send(_ request: BlinkEngageHTTPRequest)
}

/// One request for the host's transport to make. Only http(s) URLs reach it; headers carry no CR, LF or NUL.
public struct BlinkEngageHTTPRequest: Sendable {
    let exchange: HostHTTPExchange

    init(_ exchange: HostHTTPExchange) { self.exchange = exchange }

    /// The method: `GET` or `POST`.
    public var method: String { exchange.method.string }
    /// The absolute http(s) URL.
    public var url: String { exchange.url.string }
    /// The request headers, in order.
    public var headers: [(name: String, value: String)] {
        zip(exchange.headerNames, exchange.headerValues).map { ($0.string, $1.string) }
    }
    /// The request body; empty for a GET.
    public var body: [UInt8] {
        exchange.body.map { Array(UnsafeRawBufferPointer(start: $0.pointer, count: $0.count)) } ?? []
    }
    /// How long the SDK waits for the answer before the request fails by itself.
    public var timeoutMilliseconds: UInt32 { exchange.timeoutMilliseconds }

    /// Answers the request: the status (100...599), the response's header lines ("Name: value") and its body,
    /// after any content decoding.
    /// - Throws: ``BlinkEngageError/invalidArgument(_:)`` for a status outside 100...599, more than 1,000
    ///   header lines or a body over 10 MiB (the request stays open); ``BlinkEngageError/invalidState(_:)`` when
    ///   it was answered already. A body over what the request accepts ends it as too large.
    public func complete(status: Int, headerLines: [String] = [], body: [UInt8] = []) throws(BlinkEngageError) {
        // The C API's caps (BE_HTTP_MAX_HEADER_LINES, BE_HTTP_MAX_BODY_BYTES): past them the request stays open.
        guard headerLines.count <= 1000 else { throw .invalidArgument("\(headerLines.count) header lines are over the cap of 1000") }
        guard body.count <= 10 * 1024 * 1024 else { throw .invalidArgument("a body of \(body.count) bytes is over the cap of 10 MiB") }
        do throws(EngineFailure) {
            try HostHTTPExchange.complete(exchange.id, status: status, headerLines: headerLines, body: body)
        } catch {
            throw BlinkEngageError(error)
        }
    }

    /// Fails the request as a network error with the host's words.
    public func fail(_ message: String? = nil) throws(BlinkEngageError) {
        do throws(EngineFailure) { try HostHTTPExchange.fail(exchange.id, message: message) } catch { throw BlinkEngageError(error) }
    }
}
