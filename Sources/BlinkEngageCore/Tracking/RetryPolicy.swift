/// What to do with an item after one delivery attempt (PROTOCOL.md section 4).
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
        let exponent = min(max(attempts - 1, 0), 20)
        let ceiling = min(Double(first) * Double(1 << exponent), Double(maximumBackoffNanoseconds))
        return UInt64(ceiling * random(0.5...1.0))
    }

    /// Seconds from a Retry-After value: delta-seconds or an HTTP date; nil when unreadable. Capped at 1 hour.
    static func retryAfterSeconds(_ value: String?, nowEpochSeconds: Int64) -> UInt64? {
        guard let value = value?.trimmed, !value.isEmpty else { return nil }
        if let seconds = UInt64(value) { return min(seconds, maximumRetryAfterSeconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return UInt64(min(max(date - nowEpochSeconds, 0), Int64(maximumRetryAfterSeconds)))
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
        case .failure:
            return .retry(afterNanoseconds: backoff, serverAsked: false)
        case .success(let response):
            let status = response.status
            if (200..<300).contains(status) || (!isEvent && (300..<400).contains(status)) { return .delivered }
            if status == 401 && isEvent { return .reauthorize }
            if status == 408 || status == 429 || (500..<600).contains(status) || (300..<400).contains(status) {
                if let seconds = retryAfterSeconds(response.headers["retry-after"], nowEpochSeconds: nowEpochSeconds) {
                    return .retry(afterNanoseconds: seconds * 1_000_000_000, serverAsked: true)
                }
                return .retry(afterNanoseconds: backoff, serverAsked: false)
            }
            return .reject(status: status)
        }
    }
}

/// The IMF-fixdate form of HTTP dates ("Wed, 02 Dec 2026 16:00:00 GMT"), the one servers send.
enum HTTPDate {
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]), let year = Int64(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let monthIndex = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 3 else { return nil }
        return daysFromCivil(year: year, month: Int64(monthIndex + 1), day: day) * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
