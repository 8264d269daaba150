/// A POSIX `TZ` rule as a TZif footer or the `TZ` variable writes it (RFC 8536 section 3.3,
/// POSIX.1 section 8.3, with the version 3 extensions): `EST5EDT,M3.2.0,M11.1.0`,
/// `IST-1GMT0,M10.5.0,M3.5.0/1` (Dublin: its "daylight" time is winter's GMT, one hour behind),
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0` (Lord Howe: half an hour), or `<+0530>-5:30` (no change).
struct POSIXTimeZoneRule: Sendable, Hashable {
    /// The time outside daylight saving.
    let standard: LocalTimeType
    /// Daylight saving time and when it begins and ends, if the zone has it.
    let daylight: Daylight?

    /// Daylight saving time, and the changes that begin and end it each year.
    struct Daylight: Sendable, Hashable {
        let type: LocalTimeType
        let start: Change
        let end: Change
    }

    /// A day of the year and the local time on it at which the clocks change.
    struct Change: Sendable, Hashable {
        enum Day: Sendable, Hashable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianWithoutLeapDay(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBasedDay(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight, −167 h … 167 h (version 3); 02:00 when not given.
        let time: Int

        /// Days since 1970-01-01 of this change's day in `year`.
        func day(in year: Int) -> Int64 {
            let januaryFirst = UTCTime.daysFromCivil(year: year, month: 1, day: 1)
            switch day {
            case .julianWithoutLeapDay(let n):
                let isLeap = UTCTime.daysIn(month: 2, year: year) == 29
                return januaryFirst + Int64(n - 1) + (isLeap && n >= 60 ? 1 : 0)
            case .zeroBasedDay(let n):
                return januaryFirst + Int64(n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = UTCTime.daysFromCivil(year: year, month: month, day: 1)
                // 1970-01-01 was a Thursday (4).
                let firstWeekday = Int(((first + 4) % 7 + 7) % 7)
                var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                while dayOfMonth > UTCTime.daysIn(month: month, year: year) { dayOfMonth -= 7 }
                return first + Int64(dayOfMonth - 1)
            }
        }
    }

    /// The type in force at `seconds` since the epoch.
    func type(at seconds: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        // The year as standard time counts it; changes near New Year do not exist in practice.
        let year = UTCTime(milliseconds: (seconds + Int64(standard.offset)) * 1000).components.year
        // A change's time is written in the local time in force before it.
        let start = daylight.start.day(in: year) * 86_400 + Int64(daylight.start.time - standard.offset)
        let end = daylight.end.day(in: year) * 86_400 + Int64(daylight.end.time - daylight.type.offset)
        let isDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return isDaylight ? daylight.type : standard
    }

    /// Parses the rule; `nil` for anything POSIX and RFC 8536 do not allow.
    init?(parsing text: some StringProtocol) {
        var scanner = RuleScanner(Array(text.utf8))
        guard let standardName = scanner.name(), let standardOffset = scanner.offset() else { return nil }
        standard = LocalTimeType(offset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
        if scanner.isAtEnd {
            daylight = nil
            return
        }
        guard let daylightName = scanner.name() else { return nil }
        let daylightOffset = scanner.peek == UInt8(ascii: ",") ? standardOffset + 3600 : scanner.offset()
        guard let daylightOffset, scanner.take(","), let start = scanner.change(), scanner.take(","),
            let end = scanner.change(), scanner.isAtEnd
        else { return nil }
        let type = LocalTimeType(offset: daylightOffset, isDaylightSaving: true, abbreviation: daylightName)
        daylight = Daylight(type: type, start: start, end: end)
    }
}

/// Reads the parts of a POSIX `TZ` rule from its bytes.
private struct RuleScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// `IST`, or `<+1030>` quoted: at least three characters.
    mutating func name() -> String? {
        let start = index
        if take("<") {
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard
                    Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                else { return nil }
                index += 1
            }
            guard index - start - 1 >= 3, take(">") else { return nil }
            return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        }
        while let byte = peek, Self.isLetter(byte) { index += 1 }
        return index - start >= 3 ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A POSIX offset (`5`, `-1`, `-10:30`), returned as seconds east of UTC: POSIX counts west.
    mutating func offset() -> Int? {
        time(maximumHours: 24).map { -$0 }
    }

    /// `[+-]hh[:mm[:ss]]`, as seconds.
    mutating func time(maximumHours: Int) -> Int? {
        let sign = take("-") ? -1 : 1
        if sign == 1 { _ = take("+") }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let extra = number(maximumDigits: 2), extra < 60 else { return nil }
                seconds += extra
            }
        }
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then `/time`.
    mutating func change() -> POSIXTimeZoneRule.Change? {
        let day: POSIXTimeZoneRule.Change.Day
        if take("J") {
            guard let n = number(maximumDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianWithoutLeapDay(n)
        } else if take("M") {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), take("."),
                let week = number(maximumDigits: 1), (1...5).contains(week), take("."),
                let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = number(maximumDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBasedDay(n)
        }
        var time = 2 * 3600
        if take("/") {
            guard let given = self.time(maximumHours: 167) else { return nil }
            time = given
        }
        return POSIXTimeZoneRule.Change(day: day, time: time)
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while let byte = peek, Self.isDigit(byte), digits < maximumDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : value
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
