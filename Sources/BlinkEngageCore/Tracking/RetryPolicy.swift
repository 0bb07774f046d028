/// What to do with an item after one delivery attempt (docs/PROTOCOL.md section 4).
enum DeliveryVerdict: Equatable {
    case delivered
    /// Try again no sooner than `after` nanoseconds from now; `serverAsked` when it came from Retry-After.
    case retry(afterNanoseconds: UInt64, serverAsked: Bool)
    /// The token was refused: register again, then retry.
    case reauthorize
    /// Refused for good (4xx other than 401, 408, 429).
    case reject(status: Int)
    /// The send was cancelled (shutdown): nothing is learnt, the item stays as it was.
    case untouched
}

public enum RetryPolicy {
    public static let firstRetryNanoseconds: UInt64 = 1_000_000_000
    static let maximumBackoffNanoseconds: UInt64 = 300 * 1_000_000_000
    static let maximumRetryAfterSeconds: UInt64 = 3600

    /// Exponential backoff with jitter: attempt 1 waits 0.5–1 s, doubling up to a 5-minute cap.
    static func backoffNanoseconds(
        attempts: Int, first: UInt64 = firstRetryNanoseconds, random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> UInt64 {
        let exponent = attempts <= 1 ? 0 : min(attempts - 1, 20)  // no arithmetic on an extreme count
        let ceiling = min(Double(first) * Double(1 << exponent), Double(maximumBackoffNanoseconds))
        return UInt64(ceiling * random(0.5...1.0))
    }

    /// Seconds from a Retry-After value: delta-seconds or an HTTP date; nil when absent, unreadable or out of
    /// range (negative, past dates, years outside 1970...9999). Capped at 1 hour. Never traps, whatever the text.
    static func retryAfterSeconds(_ value: String?, nowEpochSeconds: Int64) -> UInt64? {
        guard let value = value?.trimmed, !value.isEmpty, value.utf8.count <= 64 else { return nil }
        if ASCII.isDigits(value) {
            // Any run of digits, however long: past the cap it is the cap. "0" asks for nothing (our backoff).
            guard let seconds = UInt64(value) else { return maximumRetryAfterSeconds }
            return min(seconds, maximumRetryAfterSeconds)
        }
        guard let date = HTTPDate.parse(value, now: nowEpochSeconds) else { return nil }
        let (delta, overflow) = date.subtractingReportingOverflow(nowEpochSeconds)
        guard !overflow, delta > 0 else { return nil }  // a date in the past asks for nothing: our backoff applies
        return UInt64(min(delta, Int64(maximumRetryAfterSeconds)))
    }

    /// The verdict on one attempt. Beacons succeed on 2xx and 3xx (redirects are not followed); events on 2xx.
    static func verdict(
        _ outcome: Result<HTTPResponse, TransportError>, isEvent: Bool, attempts: Int, nowEpochSeconds: Int64,
        firstRetry: UInt64 = firstRetryNanoseconds
    ) -> DeliveryVerdict {
        let backoff = backoffNanoseconds(attempts: attempts, first: firstRetry)
        switch outcome {
        case .failure(.cancelled):
            return .untouched
        case .failure(.tooLarge):
            return isEvent ? .retry(afterNanoseconds: backoff, serverAsked: false) : .delivered
        case .failure(.refused):
            return .reject(status: 0)  // it can never be sent as it is: retrying would change nothing
        case .failure:
            return .retry(afterNanoseconds: backoff, serverAsked: false)
        case .success(let response):
            let status = response.status
            if (200..<300).contains(status) || (!isEvent && (300..<400).contains(status)) { return .delivered }
            if isEvent && EngageRequests.refusesToken(outcome) { return .reauthorize }
            if status == 408 || status == 429 || (500..<600).contains(status) || (300..<400).contains(status) {
                if let seconds = retryAfterSeconds(response.headers["retry-after"], nowEpochSeconds: nowEpochSeconds), seconds > 0 {
                    return .retry(afterNanoseconds: seconds * 1_000_000_000, serverAsked: true)
                }
                return .retry(afterNanoseconds: backoff, serverAsked: false)
            }
            return .reject(status: status)
        }
    }
}
