package import TravelCore

/// A stored journey with what its trips add up to.
package struct JourneyRecord: Sendable, Hashable {
    /// The row id, stable across regroupings while the journey starts with the same trip.
    package var id: Int64
    package var start: UTCTime
    /// The last trip's end (its latest point while it is ongoing).
    package var end: UTCTime
    /// Whether the vehicle had not come back when the history ends.
    package var isOpen: Bool
    /// `nil` for a journey within one local day while home is unknown: neither `local` nor `day`.
    package var type: JourneyType?
    /// The destination's label.
    package var destination: String
    /// Its trips' ids, oldest first.
    package var tripIDs: [Int64]
    /// Sum of its trips' distances, metres.
    package var distance: Double
    /// The trips' place labels, for free-text search.
    package var placeLabels: [String]
    /// Whether it was started (and stopped) by hand.
    package var isManual: Bool
    /// The plan it is, if a plan declared it.
    package var plan: Planned?

    /// What a plan declared: its id, expected type and local dates.
    package struct Planned: Sendable, Hashable {
        package var planID: Int64
        package var type: JourneyType
        package var from: LocalDate
        package var through: LocalDate

        package init(planID: Int64, type: JourneyType, from: LocalDate, through: LocalDate) {
            self.planID = planID
            self.type = type
            self.from = from
            self.through = through
        }
    }

    /// The planned type when what happened differs from it (a planned day out that lasted two days).
    package var typeMismatch: JourneyType? {
        guard let plan, let type, plan.type != type else { return nil }
        return plan.type
    }

    package init(
        id: Int64,
        start: UTCTime,
        end: UTCTime,
        isOpen: Bool,
        type: JourneyType?,
        destination: String,
        tripIDs: [Int64],
        distance: Double,
        placeLabels: [String],
        isManual: Bool = false,
        plan: Planned? = nil
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.isOpen = isOpen
        self.type = type
        self.destination = destination
        self.tripIDs = tripIDs
        self.distance = distance
        self.placeLabels = placeLabels
        self.isManual = isManual
        self.plan = plan
    }

    /// Seconds from leaving to coming back.
    package var duration: Double { end.seconds(since: start) }
}

/// Which journeys `travelctl journeys` lists; every criterion given must hold.
package struct JourneyFilter: Sendable, Hashable {
    /// Journeys starting at or after this instant.
    package var since: UTCTime?
    /// Journeys starting at or before this instant.
    package var until: UTCTime?
    /// A case-insensitive substring of the destination.
    package var destination: String?
    package var type: JourneyType?
    /// Case-insensitive words that must each appear in the destination, the type, the trips'
    /// place labels or the local dates.
    package var search: String?

    package init(
        since: UTCTime? = nil,
        until: UTCTime? = nil,
        destination: String? = nil,
        type: JourneyType? = nil,
        search: String? = nil
    ) {
        self.since = since
        self.until = until
        self.destination = destination
        self.type = type
        self.search = search
    }

    /// Whether nothing narrows the list: an empty answer then means nothing is recorded.
    package var isEmpty: Bool { self == JourneyFilter() }

    /// Whether `journey` passes, with dates read in `zone`'s local days.
    package func matches(_ journey: JourneyRecord, zone: LocalTimeZone) -> Bool {
        if let since, journey.start < since { return false }
        if let until, journey.start > until { return false }
        if let type, journey.type != type { return false }
        if let destination, !journey.destination.lowercased().contains(destination.lowercased()) { return false }
        if let search {
            let haystack =
                ([journey.destination, journey.type?.rawValue ?? ""] + journey.placeLabels + [
                    String(zone.local(journey.start).iso8601.prefix(10)),
                    String(zone.local(journey.end).iso8601.prefix(10)),
                ]).joined(separator: "\n").lowercased()
            for word in search.lowercased().split(separator: " ") where !haystack.contains(word) { return false }
        }
        return true
    }
}
