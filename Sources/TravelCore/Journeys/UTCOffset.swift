/// A fixed offset from UTC, as ISO 8601 and EXIF write one (`+01:00`). Local days and times are a
/// `LocalTimeZone`'s, which follows daylight saving time; `LocalTimeZone.fixed` makes a zone of an
/// offset (what the deprecated `[Journeys] UTCOffset` configures).
package struct UTCOffset: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC: `+01:00` is 3600.
    package let seconds: Int

    /// UTC itself.
    package static let utc = UTCOffset(checkedSeconds: 0)

    /// Offsets in use on Earth lie within −12:00 … +14:00; anything else is a mistake.
    package init?(seconds: Int) {
        guard (-12 * 3600...14 * 3600).contains(seconds), seconds % 60 == 0 else { return nil }
        self.seconds = seconds
    }

    private init(checkedSeconds: Int) { seconds = checkedSeconds }

    /// Parses `+01:00`, `-05:30`, `+0100`, `+01` or `Z`, as ISO 8601 writes an offset.
    package init?(parsing text: some StringProtocol) {
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
    package var description: String {
        let minutes = abs(seconds) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(seconds < 0 ? "-" : "+")\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }
}
