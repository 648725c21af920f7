import Foundation

/// RFC 3339 date-times as the contract reads and writes them.
///
/// Reading accepts exactly `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with `T` and `Z` in either case, years
/// 0001–9999, real calendar days (leap years included) and no leap second; the schemas' `date-time` pattern and
/// the agreement harness's format check accept the same set, so the Swift decoder and the schemas agree.
/// Writing is UTC with milliseconds only when there are any, so dates are kept to the millisecond.
enum InternetDate {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Reads the date-time whose UTF-8 text is `utf8`, as ``parse(_:)`` does, without making a `String` of it.
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = DigitScanner(utf8)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2)
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            guard let digits = scanner.digitRun(), let value = Double("0." + digits) else { return nil }
            fraction = value
        }
        guard let offsetSeconds = scanner.offset(), scanner.isAtEnd,
              (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func format(_ date: Date) -> String {
        var text: [UInt8] = []
        append(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``format(_:)``'s text as ASCII bytes, without building a string (encoding writes many dates).
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (seconds, millisecond) = floorDivision(milliseconds, 1_000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: Int(days))
        let time = Int(secondOfDay)
        appendPadded(year, 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(time / 3_600, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(time / 60 % 60, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(time % 60, 2, to: &bytes)
        if millisecond != 0 {
            bytes.append(UInt8(ascii: "."))
            appendPadded(Int(millisecond), 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil and civil-from-days: exact for the proleptic Gregorian calendar,
    // with no dependence on Calendar or time-zone settings.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// Appends `value` in decimal, after as many zeros as make its text (sign included) `width` long.
    private static func appendPadded(_ value: Int, _ width: Int, to bytes: inout [UInt8]) {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            length += 1
            rest /= 10
        }
        // A plain loop: appending a `repeatElement` of zeros cost more than the date's other work together.
        for _ in length..<max(width, length) { bytes.append(UInt8(ascii: "0")) }
        JSONText.appendInteger(value, to: &bytes)
    }
}

/// Reads the fixed-width ASCII fields of an RFC 3339 date-time.
private struct DigitScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func number(digits count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    mutating func digitRun() -> String? {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) : nil
    }

    /// The offset east of UTC in seconds: `Z`/`z` or `±HH:MM` with HH ≤ 23 and MM ≤ 59.
    mutating func offset() -> Int? {
        if skip("Z") || skip("z") { return 0 }
        let sign: Int
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), skip(":"), let minutes = number(digits: 2),
              hours <= 23, minutes <= 59
        else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}
