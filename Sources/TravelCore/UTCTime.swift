/// An instant in UTC with millisecond resolution, counted from the Unix epoch.
///
/// The core never reads a clock: every instant comes from the data (the satellites' time), so a
/// replayed log gives exactly the results of a live run. Leap seconds are not represented, as in
/// POSIX time.
package struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Builds an instant from a proleptic Gregorian UTC date and time; `nil` if out of range.
    package init?(
        year: Int,
        month: Int,
        day: Int,
        hour: Int = 0,
        minute: Int = 0,
        second: Int = 0,
        millisecond: Int = 0
    ) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        milliseconds =
            ((days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)) * 1000) + Int64(millisecond)
    }

    package static func < (lhs: UTCTime, rhs: UTCTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// Seconds elapsed from `earlier` to `self`.
    package func seconds(since earlier: UTCTime) -> Double {
        Double(milliseconds - earlier.milliseconds) / 1000
    }

    /// The instant `seconds` later.
    package func adding(seconds: Double) -> UTCTime {
        UTCTime(milliseconds: milliseconds + Int64((seconds * 1000).rounded()))
    }

    /// Days since 1970-01-01 (floor division) and milliseconds into that day.
    package var dayAndTimeOfDay: (day: Int64, millisecondOfDay: Int64) {
        let day = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        return (day, milliseconds - day * 86_400_000)
    }

    /// The civil (proleptic Gregorian) date and time of this instant.
    package var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let (day, msOfDay) = dayAndTimeOfDay
        let (y, m, d) = Self.civilFromDays(day)
        let ms = Int(msOfDay)
        return (y, m, d, ms / 3_600_000, (ms / 60_000) % 60, (ms / 1000) % 60, ms % 1000)
    }

    /// ISO-8601 with milliseconds, as gpsd prints it: `2007-12-23T19:32:21.000Z`.
    package var description: String { iso8601 }

    package var iso8601: String {
        let c = components
        guard (0...9999).contains(c.year) else { return Self.paddedISO8601(c) }
        // Written as bytes into the string's own storage: listing ten years of journeys formats
        // tens of thousands of times, where appending digit strings was a tenth of the run.
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var index = 0
            func field(_ value: Int, _ digits: Int, then separator: UInt8?) {
                var divisor = 1
                for _ in 1..<digits { divisor &*= 10 }
                while divisor > 0 {
                    bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10)
                    index &+= 1
                    divisor /= 10
                }
                if let separator {
                    bytes[index] = separator
                    index &+= 1
                }
            }
            field(c.year, 4, then: UInt8(ascii: "-"))
            field(c.month, 2, then: UInt8(ascii: "-"))
            field(c.day, 2, then: UInt8(ascii: "T"))
            field(c.hour, 2, then: UInt8(ascii: ":"))
            field(c.minute, 2, then: UInt8(ascii: ":"))
            field(c.second, 2, then: UInt8(ascii: "."))
            field(c.millisecond, 3, then: UInt8(ascii: "Z"))
            return index
        }
    }

    /// `iso8601` for years outside 0…9999, padded as `String(year)` gives it. A five-digit year
    /// used to trap here, its padding range running backwards.
    private static func paddedISO8601(
        _ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int)
    ) -> String {
        var s = ""
        s.reserveCapacity(24)
        func pad(_ v: Int, _ width: Int) {
            let digits = String(v)
            for _ in digits.count..<max(width, digits.count) { s.append("0") }
            s.append(digits)
        }
        pad(c.year, 4)
        s.append("-")
        pad(c.month, 2)
        s.append("-")
        pad(c.day, 2)
        s.append("T")
        pad(c.hour, 2)
        s.append(":")
        pad(c.minute, 2)
        s.append(":")
        pad(c.second, 2)
        s.append(".")
        pad(c.millisecond, 3)
        s.append("Z")
        return s
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (UTC only, any number of fraction digits, truncated
    /// to milliseconds). Returns `nil` for anything else.
    package init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let parsed = bytes.withUnsafeBufferPointer({ Self.parseISO8601($0[...]) }) else { return nil }
        self = parsed
    }

    /// Byte-level ISO-8601 parser shared by the JSON and GPX readers.
    package static func parseISO8601(_ b: Slice<UnsafeBufferPointer<UInt8>>) -> UTCTime? {
        var i = b.startIndex
        func digits(_ n: Int) -> Int? {
            guard b.endIndex - i >= n else { return nil }
            var v = 0
            for _ in 0..<n {
                let c = b[i] &- 48
                guard c < 10 else { return nil }
                v = v * 10 + Int(c)
                i += 1
            }
            return v
        }
        func expect(_ ch: UInt8) -> Bool {
            guard i < b.endIndex, b[i] == ch else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else {
            return nil
        }
        guard i < b.endIndex, b[i] == 84 || b[i] == 116 || b[i] == 32 else { return nil }
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2) else {
            return nil
        }
        var ms = 0
        if i < b.endIndex, b[i] == 46 {
            i += 1
            var scale = 100
            var count = 0
            while i < b.endIndex, b[i] &- 48 < 10 {
                ms += Int(b[i] &- 48) * scale
                scale /= 10
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetMinutes = 0
        if expect(90) || expect(122) {
            // UTC
        } else if i < b.endIndex, b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = expect(58)
            guard let om = digits(2) else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard i == b.endIndex,
            let t = UTCTime(
                year: year,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: min(second, 59),
                millisecond: ms
            )
        else { return nil }
        return UTCTime(milliseconds: t.milliseconds - Int64(offsetMinutes) * 60_000)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}
