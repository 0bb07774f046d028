/// HTTP dates (RFC 9110, section 5.6.7) in the three forms a recipient must read:
///   IMF-fixdate   "Sun, 06 Nov 1994 08:49:37 GMT"   (what servers send)
///   RFC 850       "Sunday, 06-Nov-94 08:49:37 GMT"  (obsolete; a two-digit year)
///   asctime       "Sun Nov  6 08:49:37 1994"        (obsolete; no zone, which is GMT)
/// Case-sensitive as the grammar is; the day name must be one of the grammar's but need not match the date.
/// Every field is range-checked before any arithmetic, so no text can make the conversion overflow.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is none of the three forms or names a year outside
    /// 1970...9999. `now` (seconds since 1970) places an RFC 850 two-digit year: one that would be more than 50
    /// years in the future is the most recent past year with those digits, as RFC 9110 requires.
    static func parse(_ text: String, now: Int64) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 64 else { return nil }
        if bytes.count == 24, bytes[3] == UInt8(ascii: " ") { return asctime(text) }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 4 || parts.count == 6, parts[parts.count - 1] == "GMT", parts[0].hasSuffix(",") else { return nil }
        let name = String(parts[0].dropLast())
        if parts.count == 6 {
            guard days.contains(name), let day = number(parts[1], digits: 2), let year = number(parts[3], digits: 4),
                  let month = month(parts[2]) else { return nil }
            return seconds(year: year, month: month, day: day, clock: parts[4])
        }
        let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard longDays.contains(name), date.count == 3, let day = number(date[0], digits: 2), let month = month(date[1]),
              let twoDigits = number(date[2], digits: 2) else { return nil }
        return seconds(year: fullYear(twoDigits, now: now), month: month, day: day, clock: parts[2])
    }

    /// "Sun Nov  6 08:49:37 1994": the day as two digits or a space and one digit.
    private static func asctime(_ text: String) -> Int64? {
        let characters = Array(text)
        func field(_ range: Range<Int>) -> Substring { Substring(String(characters[range])) }
        guard characters.count == 24, characters[3] == " ", characters[7] == " ", characters[10] == " ", characters[19] == " ",
              days.contains(String(field(0..<3))), let month = month(field(4..<7)),
              let year = number(field(20..<24), digits: 4) else { return nil }
        let dayText = field(8..<10)
        let day = dayText.first == " " ? number(dayText.dropFirst(), digits: 1) : number(dayText, digits: 2)
        guard let day else { return nil }
        return seconds(year: year, month: month, day: day, clock: field(11..<19))
    }

    private static func month(_ text: Substring) -> Int64? {
        months.firstIndex(of: String(text)).map { Int64($0 + 1) }
    }

    /// A two-digit year in the century that puts it at most 50 years after `now`'s year.
    static func fullYear(_ twoDigits: Int64, now: Int64) -> Int64 {
        let currentYear = 1970 + max(0, min(now, 253_402_300_799)) / 31_556_952  // mean Gregorian year; the
        let century = currentYear - currentYear % 100                             // window's edges move by a day at most
        var year = century + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    private static func seconds(year: Int64, month: Int64, day: Int64, clock: Substring) -> Int64? {
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = number(fields[0], digits: 2), let minute = number(fields[1], digits: 2),
              let second = number(fields[2], digits: 2) else { return nil }
        guard (1970...9999).contains(year), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Exactly `digits` ASCII digits, as a number.
    private static func number(_ text: Substring, digits: Int) -> Int64? {
        guard text.utf8.count == digits, ASCII.isDigits(text) else { return nil }
        return Int64(text)
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
