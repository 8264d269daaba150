/// A fixed offset from UTC, which decides the local calendar day an instant falls on (journey
/// types, nights at home, monthly statistics).
///
/// Fixed on purpose: the core carries no time-zone database, and what journeys need is "which day
/// was this", not the wall clock. Daylight saving time is not followed, so during summer time an
/// instant within an hour of local midnight can count for the neighbouring day; configure the
/// offset the vehicle's region uses most of the year.
public struct UTCOffset: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC: `+01:00` is 3600.
    public let seconds: Int

    /// UTC itself.
    public static let utc = UTCOffset(checkedSeconds: 0)

    /// Offsets in use on Earth lie within −12:00 … +14:00; anything else is a mistake.
    public init?(seconds: Int) {
        guard (-12 * 3600...14 * 3600).contains(seconds), seconds % 60 == 0 else { return nil }
        self.seconds = seconds
    }

    private init(checkedSeconds: Int) { seconds = checkedSeconds }

    /// Parses `+01:00`, `-05:30`, `+0100`, `+01` or `Z`, as ISO 8601 writes an offset.
    public init?(parsing text: some StringProtocol) {
        if text == "Z" || text == "z" {
            self = .utc
            return
        }
        let scalars = Array(text.unicodeScalars)
        guard let sign = scalars.first, sign == "+" || sign == "-" else { return nil }
        var digits = Array(scalars.dropFirst())
        if digits.count == 5, digits[2] == ":" { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            return nil
        }
        let values = digits.map { Int($0.value) - 48 }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard minutes < 60 else { return nil }
        self.init(seconds: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }

    /// `+01:00`, `-05:30`, `+00:00`.
    public var description: String {
        let minutes = abs(seconds) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(seconds < 0 ? "-" : "+")\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }

    /// The local calendar day of `time`, counted in days since 1970-01-01.
    public func localDay(of time: UTCTime) -> Int64 { local(time).dayAndTimeOfDay.day }

    /// The local civil date and time of `time`, as a UTC instant shifted by the offset.
    public func local(_ time: UTCTime) -> UTCTime {
        UTCTime(milliseconds: time.milliseconds + Int64(seconds) * 1000)
    }

    /// The UTC instant at which local day `day` (days since 1970-01-01) reaches `secondOfDay`.
    public func instant(day: Int64, secondOfDay: Int) -> UTCTime {
        UTCTime(milliseconds: (day * 86_400 + Int64(secondOfDay - seconds)) * 1000)
    }
}
