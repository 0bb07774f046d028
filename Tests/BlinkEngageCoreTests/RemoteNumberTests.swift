@testable import BlinkEngageCore
import Testing

/// Numbers that come from a server or from the disk, at their extremes: each is read, refused or treated as
/// absent, never trapped on.
struct RemoteNumberTests {
    @Test(arguments: [
        ("4001", "4001"), ("-0", "0"), ("9223372036854775807", "9223372036854775807"), ("4.001e3", "4001"),
        ("9223372036854775808", nil), ("-9223372036854775809", nil), ("1e400", nil), ("-1e400", nil), ("1e15", "1000000000000000"), ("1e16", nil),
        ("0.5", nil), ("4001.0", "4001"), ("0", "0"), ("123456789012345678", "123456789012345678"),
        ("1234567890123456789", "1234567890123456789"),
    ] as [(String, String?)])
    func offerIDs(number: String, expected: String?) throws {
        let asNumber = try #require(try? JSONTape(parsing: Array(number.utf8)))
        let asString = try #require(try? JSONTape(parsing: Array("\"\(number)\"".utf8)))
        #expect(OfferDecoder.idText(asNumber, 0) == expected)
        #expect(OfferDecoder.idText(asString, 0) == (Int64(number).map(String.init)))
    }

    /// Ids sent as strings: digits only, read as the integer they spell (leading zeros and a plus sign go).
    @Test(arguments: [
        ("007", "7"), ("+5", "5"), ("0", "0"), ("00", "0"), ("12a", nil), ("", nil), ("\u{0661}\u{0662}", nil), ("-3", "-3"),
        ("123456789012345678", "123456789012345678"), ("99999999999999999999", nil),
    ] as [(String, String?)])
    func offerIDsSentAsStrings(text: String, expected: String?) throws {
        let tape = try JSONTape(parsing: Array("\"\(text)\"".utf8))
        #expect(OfferDecoder.idText(tape, 0) == expected)
    }

    /// Stored rows at their extremes: ids, kinds and creation times read back or are refused, never trapped on.
    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func storedRowsAtTheirExtremes(number: Int64) {
        let beacon = SQLiteOutboxStorage.item(id: number, kind: 0, body: "http://h/p", identity: nil, identityIsNull: true, created: number)
        #expect((beacon != nil) == (number > 0))
        #expect(SQLiteOutboxStorage.item(id: 1, kind: number, body: "http://h/p", identity: nil, identityIsNull: true, created: 0)
            .map { _ in true } == (number == 0 ? true : nil))
        let adopted = OutboxQueueTests.queue(adopting: [StoredOutboxRow(
            item: OutboxItem(id: 1, createdMilliseconds: number, payload: .beacon(url: "http://h/p")), attempts: Int(truncatingIfNeeded: number),
            nextAttemptMilliseconds: number)])
        #expect(adopted.count == 1)
    }

    @Test(arguments: [Int.min, -1, 0, 100, 599, 1000, Int.max])
    func anyStatusGetsAVerdict(status: Int) {
        for isEvent in [true, false] {
            _ = RetryPolicy.verdict(.success(HTTPResponse(status: status, body: [])), isEvent: isEvent, attempts: Int.max,
                                    nowEpochSeconds: Int64.max)
        }
        _ = MomentsResponseDecoder.decode(.success(HTTPResponse(status: status, body: [])))
        _ = ZoneAdParser.decode(.success(HTTPResponse(status: status, body: [])), zoneID: "z")
    }
}
