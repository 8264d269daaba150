/// A time zone: which offset from UTC, and which abbreviation, the clocks of a region show at each
/// instant. It decides the local calendar day an instant falls on (journey types, nights at home,
/// monthly statistics, plan dates, reminder times) and the local times `travelctl` prints.
///
/// Built from the system's tz database (a TZif file, read by the I/O edge and parsed here by
/// `init(name:tzif:)`), from a POSIX `TZ` rule (`init(name:posixRule:)`), or as a fixed offset
/// (`fixed(_:)`, what the deprecated `[Journeys] UTCOffset` configures).
///
/// Local times that do not exist or exist twice at a daylight-saving change are resolved the same
/// way everywhere, as `instant(day:secondOfDay:)` documents.
package struct LocalTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name, as a table header shows it: `Europe/Dublin`, `UTC`, `UTC+01:00`.
    package let name: String
    /// Instants (seconds since the epoch) at which the clocks change, ascending.
    let transitions: [Int64]
    /// For each transition, the index in `types` of the local time it begins.
    let transitionTypes: [Int]
    /// The local time types; the first applies before the first transition.
    let types: [LocalTimeType]
    /// The rule for instants after the last transition (a TZif file's footer), if any.
    let rule: POSIXTimeZoneRule?

    init(name: String, transitions: [Int64], transitionTypes: [Int], types: [LocalTimeType], rule: POSIXTimeZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.rule = rule
    }

    /// UTC itself.
    package static let utc = fixed(.utc)

    /// A zone whose clocks never change: named `UTC` for offset zero, else `UTC+01:00`.
    package static func fixed(_ offset: UTCOffset) -> LocalTimeZone {
        let name = offset.seconds == 0 ? "UTC" : "UTC\(offset)"
        let type = LocalTimeType(offset: offset.seconds, isDaylightSaving: false, abbreviation: name)
        return LocalTimeZone(name: name, transitions: [], transitionTypes: [], types: [type], rule: nil)
    }

    /// A zone that follows a POSIX `TZ` rule alone (`IST-1GMT0,M10.5.0,M3.5.0/1`); `nil` when the
    /// rule does not parse.
    package init?(name: String, posixRule text: some StringProtocol) {
        guard let rule = POSIXTimeZoneRule(parsing: text) else { return nil }
        self.init(name: name, transitions: [], transitionTypes: [], types: [rule.standard], rule: rule)
    }

    /// The zone's name.
    package var description: String { name }

    /// The local time type in force at `time`.
    package func type(at time: UTCTime) -> LocalTimeType {
        let seconds = Self.floorSeconds(time)
        guard let first = transitions.first, seconds >= first else {
            return transitions.isEmpty ? (rule?.type(at: seconds) ?? types[0]) : types[0]
        }
        if let rule, let last = transitions.last, seconds >= last { return rule.type(at: seconds) }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypes[low]]
    }

    /// Seconds east of UTC at `time`: 3600 in a Dublin summer, 0 in its winter.
    package func offset(at time: UTCTime) -> Int { type(at: time).offset }

    /// The abbreviation the clocks show at `time`: `IST`, `GMT`, `EDT`, `+1030`.
    package func abbreviation(at time: UTCTime) -> String { type(at: time).abbreviation }

    /// The local calendar day of `time`, counted in days since 1970-01-01.
    package func localDay(of time: UTCTime) -> Int64 { local(time).dayAndTimeOfDay.day }

    /// The local civil date and time of `time`, as a UTC instant shifted by the offset in force.
    package func local(_ time: UTCTime) -> UTCTime {
        UTCTime(milliseconds: time.milliseconds + Int64(offset(at: time)) * 1000)
    }

    /// The UTC instant at which local day `day` (days since 1970-01-01) reaches `secondOfDay`.
    ///
    /// At a change of the clocks a local time may exist twice or not at all. A time that exists
    /// twice (the hour repeated when clocks go back) is its first occurrence. A time that does not
    /// exist (the hour skipped when clocks go forward) is read with the offset in force before the
    /// change, so it lands as far after the change as it was written after the skipped hour's
    /// start: 01:30 on the night Dublin's clocks go from 01:00 to 02:00 is 02:30 summer time. Both
    /// keep instants in the order of the local times asked for, and midnight always exists in the
    /// zones that change at night.
    package func instant(day: Int64, secondOfDay: Int) -> UTCTime {
        let wall = day * 86_400 + Int64(secondOfDay)
        // Clocks change at most once in two days in every real zone: the offsets two days either
        // side are the only candidates.
        let before = Int64(offset(at: UTCTime(milliseconds: (wall - 2 * 86_400) * 1000)))
        let after = Int64(offset(at: UTCTime(milliseconds: (wall + 2 * 86_400) * 1000)))
        let candidates = [wall - before, wall - after].filter {
            $0 + Int64(offset(at: UTCTime(milliseconds: $0 * 1000))) == wall
        }
        return UTCTime(milliseconds: (candidates.min() ?? wall - before) * 1000)
    }

    /// Whole seconds since the epoch, rounded down (instants before 1970 included).
    private static func floorSeconds(_ time: UTCTime) -> Int64 {
        time.milliseconds >= 0 ? time.milliseconds / 1000 : (time.milliseconds - 999) / 1000
    }
}

/// What the clocks show during one period of a zone: the offset, whether it is daylight saving
/// time as the tz database marks it (Dublin's winter time is, its summer time is not), and the
/// abbreviation.
package struct LocalTimeType: Sendable, Hashable {
    /// Seconds east of UTC.
    package var offset: Int
    package var isDaylightSaving: Bool
    /// `IST`, `GMT`, `+1030`.
    package var abbreviation: String

    package init(offset: Int, isDaylightSaving: Bool, abbreviation: String) {
        self.offset = offset
        self.isDaylightSaving = isDaylightSaving
        self.abbreviation = abbreviation
    }
}

extension LocalTimeZone {
    /// The offset of a zone whose clocks never change; `nil` for one that has changed or will.
    package var fixedOffset: UTCOffset? {
        guard Set(types.map(\.offset)).count == 1, rule?.daylight == nil else { return nil }
        return UTCOffset(seconds: rule?.standard.offset ?? types[0].offset)
    }
}
