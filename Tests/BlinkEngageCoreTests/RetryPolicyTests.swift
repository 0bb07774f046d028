@testable import BlinkEngageCore
import Testing

/// The retry policy and HTTP dates without I/O: every server number, however extreme, gives an answer and never
/// a trap (a trap here killed the host on every start while the beacon stayed queued).
struct RetryPolicyTests {
    static let now: Int64 = 1_796_256_000  // Thu, 03 Dec 2026 00:00:00 GMT

    @Test(arguments: [
        ("Thu, 01 Jan 1970 00:00:00 GMT", Int64(0)),
        ("Wed, 02 Dec 2026 16:00:00 GMT", Int64(1_796_256_000 - 8 * 3600)),
        ("Thu, 03 Dec 2026 00:00:00 GMT", Int64(1_796_256_000)),
        ("Tue, 29 Feb 2028 12:30:15 GMT", Int64(1_835_440_215)),
        ("Fri, 31 Dec 9999 23:59:59 GMT", Int64(253_402_300_799)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", Int64(784_111_777)),
    ])
    func parsesIMFFixdates(text: String, expected: Int64) {
        #expect(HTTPDate.parse(text, now: Self.now) == expected)
    }

    @Test(arguments: [
        "Wed, 02 Dec 99999999999999 16:00:00 GMT",   // the probe's date: the year alone overflowed the arithmetic
        "Wed, 02 Dec 9223372036854775807 16:00:00 GMT",
        "Wed, 02 Dec -9223372036854775808 16:00:00 GMT",
        "Wed, 02 Dec 10000 16:00:00 GMT", "Wed, 02 Dec 1969 23:59:59 GMT", "Wed, 02 Dec 0000 16:00:00 GMT",
        "Wed, 32 Dec 2026 16:00:00 GMT", "Wed, 00 Dec 2026 16:00:00 GMT", "Wed, 29 Feb 2027 16:00:00 GMT",
        "Wed, 31 Apr 2026 16:00:00 GMT", "Wed, 02 Dec 2026 24:00:00 GMT", "Wed, 02 Dec 2026 16:60:00 GMT",
        "Wed, 02 Dec 2026 16:00:61 GMT", "Wed, 02 Dec 2026 16:00 GMT", "Wed, 02 Dec 2026 16:00:00:00 GMT",
        "Wed, 02 Dec 2026 -1:00:00 GMT", "Wed, 2 Dec 2026 16:00:00 GMT", "Wed, +2 Dec 2026 16:00:00 GMT",
        "Wed, 02 Dez 2026 16:00:00 GMT", "Wed, 02 Dec 2026 16:00:00 UTC", "Wednesday, 02-Dec-26 16:00:00 UTC",
        "Wed Dec  2 16:00:00 2026 GMT", "", "GMT", "Wed, 02 Dec 2026 16:00:00 GMT extra",
        "Wed, 02 Dec 2026 99999999999999999999:00:00 GMT",
    ])
    func refusesMalformedAndOutOfRangeDates(text: String) {
        #expect(HTTPDate.parse(text, now: Self.now) == nil)
    }

    @Test(arguments: [
        ("120", UInt64?(120)),
        ("3600", UInt64?(3600)),
        ("3601", UInt64?(3600)),                                       // capped at one hour
        ("18446744073709551615", UInt64?(3600)),                       // UInt64.max
        ("184467440737095516150000000000", UInt64?(3600)),             // past UInt64: still the cap
        ("0", UInt64?(0)),
        ("-1", UInt64?.none), ("-9223372036854775808", UInt64?.none), ("1e9", UInt64?.none), ("12.5", UInt64?.none),
        (" 60 ", UInt64?(60)), ("", UInt64?.none), ("soon", UInt64?.none),
        ("Thu, 03 Dec 2026 00:01:00 GMT", UInt64?(60)),
        ("Fri, 31 Dec 9999 23:59:59 GMT", UInt64?(3600)),              // far future: the cap
        ("Thu, 01 Jan 1970 00:00:00 GMT", UInt64?.none),               // in the past: nothing asked
        ("Wed, 02 Dec 99999999999999 16:00:00 GMT", UInt64?.none),
        ("Wed, 02 Dec 1800 16:00:00 GMT", UInt64?.none),
    ])
    func readsRetryAfter(value: String, expected: UInt64?) {
        #expect(RetryPolicy.retryAfterSeconds(value, nowEpochSeconds: Self.now) == expected)
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, Int64.max - 1, Int64.max])
    func survivesAnyClock(now: Int64) {
        for value in ["Fri, 31 Dec 9999 23:59:59 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "60"] {
            _ = RetryPolicy.retryAfterSeconds(value, nowEpochSeconds: now)
        }
    }

    static func answer(_ status: Int, retryAfter: String? = nil) -> Result<HTTPResponse, TransportError> {
        .success(HTTPResponse(status: status, body: [], headers: retryAfter.map { ["retry-after": $0] } ?? [:]))
    }

    @Test(arguments: [
        (answer(200), true, DeliveryVerdict.delivered),
        (answer(204), false, .delivered),
        (answer(302), false, .delivered),                                   // beacons: 3xx counts
        (answer(404), true, .reject(status: 404)),
        (answer(400), false, .reject(status: 400)),
        (answer(401), true, .reauthorize),
        (answer(401), false, .reject(status: 401)),                         // beacons are not ours to authorize
        (answer(503, retryAfter: "120"), true, .retry(afterNanoseconds: 120_000_000_000, serverAsked: true)),
        (answer(429, retryAfter: "99999999999"), false, .retry(afterNanoseconds: 3_600_000_000_000, serverAsked: true)),
        (Result<HTTPResponse, TransportError>.failure(.cancelled), true, .untouched),
        (.failure(.refused("CR in a header")), true, .reject(status: 0)),
        (.failure(.tooLarge(10)), false, .delivered),
    ])
    func verdicts(outcome: Result<HTTPResponse, TransportError>, isEvent: Bool, expected: DeliveryVerdict) {
        #expect(RetryPolicy.verdict(outcome, isEvent: isEvent, attempts: 1, nowEpochSeconds: Self.now) == expected)
    }

    /// Retry-After the policy cannot use (unreadable, past, zero, huge dates) falls back to our own backoff.
    @Test(arguments: ["Wed, 02 Dec 99999999999999 16:00:00 GMT", "-5", "0", "Thu, 01 Jan 1970 00:00:00 GMT", "x"])
    func unusableRetryAfterFallsBackToBackoff(value: String) {
        let verdict = RetryPolicy.verdict(Self.answer(503, retryAfter: value), isEvent: false, attempts: 1, nowEpochSeconds: Self.now)
        guard case .retry(let after, let serverAsked) = verdict else { Issue.record("\(verdict)"); return }
        #expect(!serverAsked)
        #expect(after >= 500_000_000 && after <= 1_000_000_000)
    }

    @Test(arguments: [Int.min, -1, 0, 1, 2, 10, 64, Int.max])
    func backoffStaysWithinItsBounds(attempts: Int) {
        let low = RetryPolicy.backoffNanoseconds(attempts: attempts, random: { $0.lowerBound })
        let high = RetryPolicy.backoffNanoseconds(attempts: attempts, random: { $0.upperBound })
        #expect(low <= high && high <= RetryPolicy.maximumBackoffNanoseconds && low >= 500_000_000)
    }
}
