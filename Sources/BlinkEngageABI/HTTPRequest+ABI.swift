public import CBlinkEngage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BlinkEngageCore

/// The live request a host's `be_http_request *` names (its id as a pointer); nil once answered.
private func exchange(_ request: OpaquePointer?) -> HostHTTPExchange? {
    guard let request else { return nil }
    // Inside the fork gate: the registry's lock must not be held by any thread at a fork.
    return ForkGate.inside(orElse: { nil }) { HostHTTPExchange.find(UInt64(UInt(bitPattern: request))) }
}

@c @implementation
public func be_http_request_method(_ request: OpaquePointer?) -> UnsafePointer<CChar>? { exchange(request)?.method.pointer }

@c @implementation
public func be_http_request_url(_ request: OpaquePointer?) -> UnsafePointer<CChar>? { exchange(request)?.url.pointer }

@c @implementation
public func be_http_request_header_count(_ request: OpaquePointer?) -> Int { exchange(request)?.headerNames.count ?? 0 }

@c @implementation
public func be_http_request_header_name(_ request: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    guard let names = exchange(request)?.headerNames, names.indices.contains(index) else { return nil }
    return names[index].pointer
}

@c @implementation
public func be_http_request_header_value(_ request: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    guard let values = exchange(request)?.headerValues, values.indices.contains(index) else { return nil }
    return values[index].pointer
}

@c @implementation
public func be_http_request_body(_ request: OpaquePointer?) -> UnsafeRawPointer? { exchange(request)?.body?.pointer }

@c @implementation
public func be_http_request_body_size(_ request: OpaquePointer?) -> Int { exchange(request)?.body?.count ?? 0 }

@c @implementation
public func be_http_request_timeout_ms(_ request: OpaquePointer?) -> UInt32 { exchange(request)?.timeoutMilliseconds ?? 0 }

@c @implementation
public func be_http_request_complete(
    _ request: OpaquePointer?, _ status: Int32, _ header_lines: UnsafePointer<UnsafePointer<CChar>?>?, _ header_count: Int,
    _ body: UnsafeRawPointer?, _ body_size: Int
) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let request else { throw .invalidArgument("request is NULL") }
        // Every count and size first: a size that cannot be real is refused before a byte is read.
        guard header_count == 0 || header_lines != nil else { throw .invalidArgument("header_lines is NULL") }
        guard body_size == 0 || body != nil else { throw .invalidArgument("body is NULL") }
        // size_t arrives as Int: SIZE_MAX reads as -1, so the counts are compared as the unsigned values they are.
        guard UInt(bitPattern: header_count) <= UInt(BE_HTTP_MAX_HEADER_LINES) else {
            throw .invalidArgument("header_count \(UInt(bitPattern: header_count)) is over BE_HTTP_MAX_HEADER_LINES (\(BE_HTTP_MAX_HEADER_LINES))")
        }
        guard UInt(bitPattern: body_size) <= UInt(BE_HTTP_MAX_BODY_BYTES) else {
            throw .invalidArgument("body_size \(UInt(bitPattern: body_size)) is over BE_HTTP_MAX_BODY_BYTES (\(BE_HTTP_MAX_BODY_BYTES))")
        }
        var lines: [String] = []
        lines.reserveCapacity(header_count)
        for index in 0..<header_count {
            guard let line = header_lines![index] else { throw .invalidArgument("header line \(index) is NULL") }
            guard strnlen(line, Int(BE_HTTP_MAX_HEADER_LINE_BYTES) + 1) <= Int(BE_HTTP_MAX_HEADER_LINE_BYTES) else {
                throw .invalidArgument("header line \(index) is longer than BE_HTTP_MAX_HEADER_LINE_BYTES (\(BE_HTTP_MAX_HEADER_LINE_BYTES))")
            }
            lines.append(String(cString: line))  // invalid UTF-8 is repaired, never trusted
        }
        // The body is copied only once the request is known to take it (HostHTTPExchange.complete checks its cap).
        try HostHTTPExchange.complete(UInt64(UInt(bitPattern: request)), status: Int(status), headerLines: lines,
                                      bodySize: body_size) { destination in
            if body_size > 0 { destination.copyMemory(from: UnsafeRawBufferPointer(start: body, count: body_size)) }
        }
    }
}

@c @implementation
public func be_http_request_fail(_ request: OpaquePointer?, _ message: UnsafePointer<CChar>?) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let request else { throw .invalidArgument("request is NULL") }
        try HostHTTPExchange.fail(UInt64(UInt(bitPattern: request)), message: message.map { String(cString: $0) })
    }
}
