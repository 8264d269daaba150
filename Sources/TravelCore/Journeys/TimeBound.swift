/// One end of a `--since`/`--until` range: an instant (ISO-8601 with `Z` or an offset), the same
/// everywhere, or a calendar date, which means a local day of the zone the history is shown in
/// (the daemon's `[Journeys] TimeZone`, or `--config`'s with `--db`). A date travels as a date
/// and is resolved where that zone is known, so the socket and `--db` select the same trips.
package enum TimeBound: Sendable, Hashable, CustomStringConvertible {
    case instant(UTCTime)
    case date(LocalDate)

    /// `2026-01-09` (a date) or an ISO-8601 instant; `nil` for anything else.
    package init?(parsing text: some StringProtocol) {
        if let date = LocalDate(parsing: text) {
            self = .date(date)
        } else if let time = UTCTime(iso8601: text) {
            self = .instant(time)
        } else {
            return nil
        }
    }

    /// The first instant a range starting here takes: the instant, or the local midnight that
    /// begins the date in `zone`.
    package func start(in zone: LocalTimeZone) -> UTCTime {
        switch self {
        case .instant(let time): time
        case .date(let date): zone.instant(day: date.day, secondOfDay: 0)
        }
    }

    /// The last instant a range ending here takes: the instant, or the last millisecond of the
    /// date in `zone` (the whole local day).
    package func end(in zone: LocalTimeZone) -> UTCTime {
        switch self {
        case .instant(let time): time
        case .date(let date): UTCTime(milliseconds: zone.instant(day: date.day + 1, secondOfDay: 0).milliseconds - 1)
        }
    }

    /// As a control parameter carries it: `2026-01-09`, or ISO-8601 UTC.
    package var description: String {
        switch self {
        case .instant(let time): time.iso8601
        case .date(let date): date.description
        }
    }
}

extension Optional where Wrapped == TimeBound {
    /// `start(in:)` of a bound that may be absent.
    package func start(in zone: LocalTimeZone) -> UTCTime? { map { $0.start(in: zone) } }
    /// `end(in:)` of a bound that may be absent.
    package func end(in zone: LocalTimeZone) -> UTCTime? { map { $0.end(in: zone) } }
}
