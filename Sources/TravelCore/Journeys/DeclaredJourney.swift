/// A journey the user declared rather than one found from the trips: a plan made ahead, or one
/// started (and stopped) by hand. Trips that start inside its window belong to it, whatever
/// automatic grouping would have made of them.
package struct DeclaredJourney: Sendable, Hashable {
    /// Where the declaration comes from, with its stored id.
    package enum Origin: Sendable, Hashable {
        /// `travelctl journey start` / `stop`: the id is the journey's own row.
        case manual(journeyID: Int64)
        /// `travelctl plan add`: the id is the plan's row.
        case plan(planID: Int64)
    }

    package var origin: Origin
    /// The window's first instant.
    package var start: UTCTime
    /// The instant the window ends (exclusive); `nil` while a journey started by hand is still open.
    package var end: UTCTime?

    package init(origin: Origin, start: UTCTime, end: UTCTime?) {
        self.origin = origin
        self.start = start
        self.end = end
    }

    /// A plan's window: from local midnight of its first day to local midnight after its last.
    package init(planID: Int64, from: LocalDate, through: LocalDate, zone: LocalTimeZone) {
        self.init(
            origin: .plan(planID: planID),
            start: zone.instant(day: from.day, secondOfDay: 0),
            end: zone.instant(day: through.day + 1, secondOfDay: 0)
        )
    }

    /// Whether `time` lies inside the window.
    package func contains(_ time: UTCTime) -> Bool {
        time >= start && end.map { time < $0 } ?? true
    }

    /// Whether the two windows share an instant.
    package func overlaps(_ other: DeclaredJourney) -> Bool {
        let endsAfterOtherStarts = end.map { $0 > other.start } ?? true
        let otherEndsAfterStart = other.end.map { $0 > start } ?? true
        return endsAfterOtherStarts && otherEndsAfterStart
    }
}
