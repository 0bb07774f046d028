@testable import BlinkEngageCore
import Testing

/// Numbers that come from a server or from the disk, at their extremes: each is read, refused or treated as
/// absent, never trapped on.
struct RemoteNumberTests {
    @Test(arguments: [
        ("4001", "4001"), ("-0", "0"), ("9223372036854775807", "9223372036854775807"), ("4.001e3", "4001"),
        ("9223372036854775808", nil), ("-9223372036854775809", nil), ("1e400", nil), ("-1e400", nil), ("1e15", "1000000000000000"), ("1e16", nil),
        ("0.5", nil), ("4001.0", "4001"),
    ] as [(String, String?)])
    func offerIDs(number: String, expected: String?) {
        #expect(OfferDecoder.idText(.number(number)) == expected)
        #expect(OfferDecoder.idText(.string(number)) == (Int64(number).map(String.init)))
    }

    static func record(length: String, created: String) -> [UInt8] {
        let payload = Array(#"{"created_ms":\#(created),"kind":"beacon","url":"http://h/p"}"#.utf8)
        return Array("BEOX1 \(String(CRC32.checksum(payload), radix: 16)) \(length)\n".utf8) + payload
    }

    @Test(arguments: ["99999999999999999999999", "-1", "9223372036854775807", "-9223372036854775808", "0x10", ""])
    func recordLengthsThatCannotBe(length: String) {
        #expect(throws: OutboxRecordCodec.Failure.self) { try OutboxRecordCodec.decode(Self.record(length: length, created: "1"), name: "n") }
    }

    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "1e30", "-1"])
    func creationTimesAtTheirExtremes(created: String) throws {
        let payload = #"{"created_ms":\#(created),"kind":"beacon","url":"http://h/p"}"#.utf8.count
        let bytes = Self.record(length: String(payload), created: created)
        if let value = Int64(created) {
            #expect(try OutboxRecordCodec.decode(bytes, name: "n").createdMilliseconds == value)
        } else {
            #expect(throws: OutboxRecordCodec.Failure.self) { try OutboxRecordCodec.decode(bytes, name: "n") }
        }
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
