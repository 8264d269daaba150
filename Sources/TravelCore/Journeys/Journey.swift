/// A journey's type, as docs/domain.md defines it.
package enum JourneyType: String, Sendable, Hashable, CaseIterable {
    /// Never leaves the home area, and the same local calendar day.
    case local
    /// Leaves the home area and is back the same local calendar day.
    case day
    /// Spans more than one local calendar day.
    case multiDay = "multi-day"
}

/// A trip as journey grouping sees it.
package struct JourneyTrip: Sendable, Hashable {
    /// The trip's stored id, carried through to `Journey.tripIDs`.
    package var id: Int64
    package var summary: TripSummary
    /// The point of the route farthest from the reference `JourneyGrouping.routeReference` names,
    /// which shows whether the trip left the home area (never a destination: the car did not stop
    /// there); `nil` when the ends alone tell (then the route is never read).
    package var farthestPoint: Coordinate?

    package init(id: Int64, summary: TripSummary, farthestPoint: Coordinate? = nil) {
        self.id = id
        self.summary = summary
        self.farthestPoint = farthestPoint
    }
}

/// Trips from leaving home to coming back, as `JourneyGrouping` found them.
package struct Journey: Sendable, Hashable {
    /// Its trips, oldest first.
    package var tripIDs: [Int64]
    /// The first trip's start.
    package var start: UTCTime
    /// The last trip's end (its latest point while it is ongoing).
    package var end: UTCTime
    /// Whether the vehicle is still away: the history ends before it came back.
    package var isOpen: Bool
    /// `nil` while home is unknown for a journey within one local day (see `JourneyGrouping`).
    package var type: JourneyType?
    /// The farthest stop from home: the end of a finished trip, where the vehicle parked (home
    /// itself for a loop that never stopped away). `nil` while the only trip is under way.
    package var destination: Coordinate?
    /// Sum of its trips' distances, metres.
    package var distance: Double
    /// The plan or hand-started journey it is, or `nil` for one found from the trips alone.
    package var declared: DeclaredJourney.Origin? = nil

    /// Seconds from leaving to coming back: time away, not time driving.
    package var duration: Double { end.seconds(since: start) }
}
