package import TravelCore

/// A journey declared ahead: where to, which local dates, and what type it is expected to be.
package struct PlanRecord: Sendable, Hashable {
    package var id: Int64
    package var destination: String
    /// First and last local calendar day, both included.
    package var from: LocalDate
    package var through: LocalDate
    package var type: JourneyType
    /// The journey its trips make, once a trip fell inside its dates.
    package var journeyID: Int64?
    /// How many trips joined it.
    package var tripCount: Int

    package init(
        id: Int64,
        destination: String,
        from: LocalDate,
        through: LocalDate,
        type: JourneyType,
        journeyID: Int64? = nil,
        tripCount: Int = 0
    ) {
        self.id = id
        self.destination = destination
        self.from = from
        self.through = through
        self.type = type
        self.journeyID = journeyID
        self.tripCount = tripCount
    }

    /// The instants its trips start within, under the local days of `zone`.
    package func window(zone: LocalTimeZone) -> DeclaredJourney {
        DeclaredJourney(planID: id, from: from, through: through, zone: zone)
    }
}
