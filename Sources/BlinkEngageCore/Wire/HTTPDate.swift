/// HTTP dates (RFC 9110, section 5.6.7) in the three forms a recipient must read:
///   IMF-fixdate   "Sun, 06 Nov 1994 08:49:37 GMT"   (what servers send)
///   RFC 850       "Sunday, 06-Nov-94 08:49:37 GMT"  (obsolete; a two-digit year)
///   asctime       "Sun Nov  6 08:49:37 1994"        (obsolete; no zone, which is GMT)
/// Case-sensitive as the grammar is; the day name must be one of the grammar's but need not match the date.
/// Every field is range-checked before any arithmetic, so no text can make the conversion overflow.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }
    static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map { Array($0.utf8) }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is none of the three forms or names a year outside
    /// 1970...9999. `now` (seconds since 1970) places an RFC 850 two-digit year: one that would be more than 50
    /// years in the future is the most recent past year with those digits, as RFC 9110 requires.
    static func parse(_ text: String, now: Int64) -> Int64? {
        var text = text
        return text.withUTF8 { parse(bytes: $0, now: now) }
    }

    /// The forms by their fixed layouts, read byte by byte (no String is made).
    static func parse(bytes b: UnsafeBufferPointer<UInt8>, now: Int64) -> Int64? {
        if b.count == 29 {  // "Sun, 06 Nov 1994 08:49:37 GMT"
            guard name(b, 0, days), literal(b, 3, ", "), let day = digits(b, 5, 2), literal(b, 7, " "),
                  let month = month(b, 8), literal(b, 11, " "), let year = digits(b, 12, 4), literal(b, 16, " "),
                  literal(b, 25, " GMT") else { return nil }
            return seconds(year: year, month: month, day: day, clock: b, at: 17)
        }
        if b.count == 24 {  // "Sun Nov  6 08:49:37 1994"
            guard name(b, 0, days), literal(b, 3, " "), let month = month(b, 4), literal(b, 7, " "),
                  let day = b[8] == UInt8(ascii: " ") ? digits(b, 9, 1) : digits(b, 8, 2), literal(b, 10, " "),
                  literal(b, 19, " "), let year = digits(b, 20, 4) else { return nil }
            return seconds(year: year, month: month, day: day, clock: b, at: 11)
        }
        // "Sunday, 06-Nov-94 08:49:37 GMT": the day's name, then 24 bytes of fixed layout.
        let nameLength = b.count - 24
        guard nameLength >= 6, longDays.contains(where: { $0.count == nameLength && name(b, 0, [$0]) }),
              literal(b, nameLength, ", "), let day = digits(b, nameLength + 2, 2), literal(b, nameLength + 4, "-"),
              let month = month(b, nameLength + 5), literal(b, nameLength + 8, "-"), let twoDigits = digits(b, nameLength + 9, 2),
              literal(b, nameLength + 11, " "), literal(b, nameLength + 20, " GMT") else { return nil }
        return seconds(year: fullYear(twoDigits, now: now), month: month, day: day, clock: b, at: nameLength + 12)
    }

    /// Whether one of `names` is at `at` (case-sensitive, as the grammar is).
    private static func name(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ names: [[UInt8]]) -> Bool {
        names.contains { candidate in
            at + candidate.count <= b.count && candidate.indices.allSatisfy { b[at + $0] == candidate[$0] }
        }
    }

    private static func literal(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ text: StaticString) -> Bool {
        guard at + text.utf8CodeUnitCount <= b.count else { return false }
        for offset in 0..<text.utf8CodeUnitCount where b[at + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private static func month(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int64? {
        months.firstIndex { name(b, at, [$0]) }.map { Int64($0 + 1) }
    }

    /// `count` ASCII digits at `at`, as a number.
    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int64? {
        guard at + count <= b.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<count {
            let byte = b[at + offset]
            guard ASCII.isDigit(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// A two-digit year in the century that puts it at most 50 years after `now`'s year.
    static func fullYear(_ twoDigits: Int64, now: Int64) -> Int64 {
        let currentYear = 1970 + max(0, min(now, 253_402_300_799)) / 31_556_952  // mean Gregorian year; the
        let century = currentYear - currentYear % 100                             // window's edges move by a day at most
        var year = century + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    /// The instant of a checked date and the "HH:MM:SS" at `at`.
    private static func seconds(year: Int64, month: Int64, day: Int64, clock b: UnsafeBufferPointer<UInt8>, at: Int) -> Int64? {
        guard let hour = digits(b, at, 2), literal(b, at + 2, ":"), let minute = digits(b, at + 3, 2),
              literal(b, at + 5, ":"), let second = digits(b, at + 6, 2) else { return nil }
        guard (1970...9999).contains(year), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). Callers pass checked
    /// fields (years 0...9999), where no step can overflow.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
