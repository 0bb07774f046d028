// HTTP dates and Retry-After: any text, any clock; never a trap, never past the one-hour cap.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var now: Int64 = 1_796_256_000
    if size >= 8 { now = Int64(bitPattern: UnsafeRawPointer(data).loadUnaligned(as: UInt64.self)) }
    // 253_402_300_800 is 9999-12-31T23:59:60, a leap second.
    if let date = HTTPDate.parse(text, now: now) { precondition(date >= 0 && date <= 253_402_300_800) }
    if let seconds = RetryPolicy.retryAfterSeconds(text, nowEpochSeconds: now) { precondition(seconds <= 3600) }
    for status in [408, 429, 503] {
        let outcome: Result<HTTPResponse, TransportError> = .success(HTTPResponse(status: status, body: [], headers: ["retry-after": text]))
        _ = RetryPolicy.verdict(outcome, isEvent: true, attempts: Int(truncatingIfNeeded: now), nowEpochSeconds: now)
    }
    return 0
}
