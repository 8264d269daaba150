/// A local calendar date (`2026-07-14`), as plans are declared: no time, no offset.
package struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    package var day: Int64

    package init(day: Int64) { self.day = day }

    /// Parses `YYYY-MM-DD`; `nil` for anything else, or a date that does not exist (`2026-02-30`).
    package init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts.map(\.count) == [4, 2, 2],
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            let midnight = UTCTime(year: year, month: month, day: dayOfMonth)
        else { return nil }
        day = midnight.dayAndTimeOfDay.day
    }

    /// The local date `time` falls on in `zone`.
    package init(_ time: UTCTime, zone: LocalTimeZone) { day = zone.localDay(of: time) }

    package static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.day < rhs.day }

    /// `2026-07-14`.
    package var description: String {
        String(UTCTime(milliseconds: day * 86_400_000).iso8601.prefix(10))
    }
}
