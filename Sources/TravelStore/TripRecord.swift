package import TravelCore

/// A stored trip: the engine's summary plus what the store adds (its id, place labels, journey).
package struct TripRecord: Sendable, Hashable {
    /// The row id, stable for the life of the database (`travelctl export --trip ID`).
    package var id: Int64
    /// Times, ends, distance (m), moving time (s), maximum speed (m/s), point count and end reason
    /// (`nil` while the trip is ongoing); `duration` and `averageSpeed` derive from them. For an
    /// ongoing trip the end is its latest stored point, and distance and moving time are those the
    /// engine reported when the trip started: the engine gives them in full when the trip ends.
    package var summary: TripSummary
    /// Label of where the trip started, e.g. `"52.51234, 13.40123"` until a zone or POI names it.
    package var startPlace: String?
    /// Label of where the trip ended; `nil` while it is ongoing.
    package var endPlace: String?
    /// The journey this trip belongs to, once journeys are grouped.
    package var journeyID: Int64?

    package init(
        id: Int64,
        summary: TripSummary,
        startPlace: String?,
        endPlace: String?,
        journeyID: Int64?
    ) {
        self.id = id
        self.summary = summary
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.journeyID = journeyID
    }

    /// Whether the trip is still going (no end reason yet).
    package var isOngoing: Bool { summary.endReason == nil }
}
