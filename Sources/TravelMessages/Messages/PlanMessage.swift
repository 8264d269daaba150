package import TravelCore
package import TravelFormats

/// A plan on the wire: `plan list --json`'s element and `AddPlan`'s answer.
package struct PlanMessage: Sendable, Hashable {
    package var id: Int64
    package var destination: String
    /// The first and the last local day, both included.
    package var from: LocalDate
    package var to: LocalDate
    package var type: JourneyType
    /// The journey its trips make, once one does.
    package var journeyID: Int64?
    /// How many trips start within its days.
    package var trips: Int

    package init(
        id: Int64,
        destination: String,
        from: LocalDate,
        to: LocalDate,
        type: JourneyType,
        journeyID: Int64?,
        trips: Int
    ) {
        self.id = id
        self.destination = destination
        self.from = from
        self.to = to
        self.type = type
        self.journeyID = journeyID
        self.trips = trips
    }

    package var json: JSONValue {
        [
            "id": .integer(id),
            "destination": .string(destination),
            "from": .string(from.description),
            "to": .string(to.description),
            "type": .string(type.rawValue),
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
            "trips": .integer(Int64(trips)),
        ]
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            destination: try fields.string("destination"),
            from: try fields.date("from"),
            to: try fields.date("to"),
            type: try fields.enumeration("type"),
            journeyID: try fields.optionalInteger("journey_id"),
            trips: Int(clamping: try fields.integer("trips"))
        )
    }
}
