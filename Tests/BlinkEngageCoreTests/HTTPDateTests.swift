import Foundation
import Testing
@testable import BlinkEngageCore

/// HTTP dates held to Python's `email.utils.parsedate_to_datetime` on the same inputs: the expected column is
/// computed by Python when the test runs. Where the input is one of RFC 9110's three forms both must give the same
/// instant; elsewhere we read nothing (Python is more lenient: numeric zones, missing names, other spacing), and
/// the rows say what Python reads, so a difference is deliberate and visible.
struct HTTPDateTests {
    static let now: Int64 = 1_796_256_000  // Thu, 03 Dec 2026 00:00:00 GMT

    /// (input, whether it is one of RFC 9110's forms)
    static let table: [(String, Bool)] = [
        ("Sun, 06 Nov 1994 08:49:37 GMT", true), ("Sunday, 06-Nov-94 08:49:37 GMT", true), ("Sun Nov  6 08:49:37 1994", true),
        ("Thu, 01 Jan 1970 00:00:00 GMT", true), ("Fri, 31 Dec 9999 23:59:59 GMT", true), ("Tue, 29 Feb 2028 12:30:15 GMT", true),
        ("Wed Dec 31 23:59:59 2025", true), ("Thu Dec 03 00:00:00 2026", true), ("Monday, 01-Jan-01 00:00:00 GMT", true),
        ("Friday, 31-Dec-99 23:59:59 GMT", true), ("Saturday, 29-Feb-20 12:00:00 GMT", true),
        // Not one of the forms (or out of range): nothing is read.
        ("Sun, 06 Nov 1994 08:49:37 +0000", false), ("Sun, 06 Nov 1994 08:49:37 UTC", false), ("06 Nov 1994 08:49:37 GMT", false),
        ("Sun, 6 Nov 1994 08:49:37 GMT", false), ("Sun,  06 Nov 1994 08:49:37 GMT", false), ("sun, 06 nov 1994 08:49:37 gmt", false),
        ("Sun, 06 Nov 94 08:49:37 GMT", false), ("Sun Nov 6 08:49:37 1994", false), ("Sunday, 06-Nov-1994 08:49:37 GMT", false),
        ("Sun, 31 Nov 1994 08:49:37 GMT", false), ("Sun, 06 Nov 1969 08:49:37 GMT", false), ("Sun, 06 Nov 1994 25:00:00 GMT", false),
        ("Sun, 06 Nov 1994 08:49 GMT", false), ("Xyz, 06 Nov 1994 08:49:37 GMT", false), ("", false), ("garbage", false),
    ]

    /// Python's reading of each input: seconds since 1970, or nil when it raises.
    static func python(_ inputs: [String]) throws -> [Int64?] {
        let script = """
            import calendar, json, sys
            from email.utils import parsedate_to_datetime
            out = []
            for text in json.load(sys.stdin):
                try:
                    d = parsedate_to_datetime(text)
                    out.append(calendar.timegm(d.utctimetuple()) if d.tzinfo else calendar.timegm(d.timetuple()))
                except Exception:
                    out.append(None)
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: inputs))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let values = try JSONSerialization.jsonObject(with: data) as? [Any] ?? []
        return values.map { ($0 as? NSNumber)?.int64Value }
    }

    @Test func theThreeFormsAgreeWithPython() throws {
        let expected = try Self.python(Self.table.map(\.0))
        #expect(expected.count == Self.table.count)
        for ((text, isRFCForm), pythons) in zip(Self.table, expected) {
            let ours = HTTPDate.parse(text, now: Self.now)
            if isRFCForm {
                #expect(ours != nil && ours == pythons, "\(text): ours \(String(describing: ours)), Python's \(String(describing: pythons))")
            } else {
                #expect(ours == nil, "\(text): read as \(String(describing: ours)) (Python: \(String(describing: pythons)))")
            }
        }
    }

    /// RFC 850's two-digit years: more than 50 years ahead of now is the previous century (RFC 9110); Python uses
    /// a fixed pivot (69...99 are 19xx) and disagrees in the years between, as the second row shows.
    @Test func twoDigitYearsFollowRFC9110() throws {
        #expect(HTTPDate.fullYear(94, now: Self.now) == 1994)
        #expect(HTTPDate.fullYear(76, now: Self.now) == 2076)  // 50 years after 2026: still ahead
        #expect(HTTPDate.fullYear(77, now: Self.now) == 1977)
        #expect(HTTPDate.fullYear(26, now: Self.now) == 2026)
        #expect(HTTPDate.fullYear(0, now: Self.now) == 2000)
        let python = try Self.python(["Tuesday, 01-Jan-75 00:00:00 GMT"])
        #expect(python == [157_766_400])  // Python: 1975
        #expect(HTTPDate.parse("Tuesday, 01-Jan-75 00:00:00 GMT", now: Self.now) == 3_313_526_400)  // 2075
    }

    /// Retry-After's delta-seconds beside its dates.
    @Test(arguments: [("0", UInt64?(0)), ("120", 120), ("  120  ", 120), ("99999999999999999999999", 3600), ("-1", nil),
                      ("1.5", nil), ("12a", nil), ("Thu, 03 Dec 2026 00:02:00 GMT", 120), ("Thursday, 03-Dec-26 00:02:00 GMT", 120),
                      ("Thu Dec  3 00:02:00 2026", 120), ("Wed, 02 Dec 2026 00:00:00 GMT", nil)])
    func retryAfterReadsSecondsAndEveryDateForm(text: String, expected: UInt64?) {
        #expect(RetryPolicy.retryAfterSeconds(text, nowEpochSeconds: Self.now) == expected)
    }
}
