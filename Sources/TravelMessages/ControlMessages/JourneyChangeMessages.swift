package import TravelControl
package import TravelCore
package import TravelFormats

/// `StartJourney`: a journey by hand to `destination`, from `at` (the daemon's now when `nil`).
package struct StartJourneyParameters: ControlParameters, Hashable {
    package var destination: String
    package var at: UTCTime?

    package init(destination: String, at: UTCTime?) {
        self.destination = destination
        self.at = at
    }

    package var json: JSONValue { ["destination": .string(destination), "at": at.parameter] }

    /// A blank destination or an `at` that is no instant is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["destination", "at"])
        self.init(destination: try call.text("destination"), at: try call.instant("at"))
    }
}

/// `StopJourney`: the journey started by hand ends at `at` (the daemon's now when `nil`).
package struct StopJourneyParameters: ControlParameters, Hashable {
    package var at: UTCTime?

    package init(at: UTCTime?) { self.at = at }

    package var json: JSONValue { ["at": at.parameter] }

    /// An `at` that is no instant is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["at"])
        self.init(at: try call.instant("at"))
    }
}

/// `StartJourney`'s answer: the journey's `id`, its `start`, and the zone that is shown in.
package struct StartJourneyReply: ControlReply, Hashable {
    package var id: Int64
    package var start: UTCTime
    package var timeZone: String?
    package var utcOffset: String?

    package init(id: Int64, start: UTCTime, timeZone: String?, utcOffset: String?) {
        self.id = id
        self.start = start
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "id": .integer(id), "start": .string(start.iso8601), "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            start: try fields.time("start"),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}

/// `StopJourney`'s answer: the journey's `id`, its `end`, its `trips` and `distance_m` once
/// regrouped, and the zone its end is shown in.
package struct StopJourneyReply: ControlReply, Hashable {
    package var id: Int64
    package var end: UTCTime
    package var trips: Int
    package var distance: Double
    package var timeZone: String?
    package var utcOffset: String?

    package init(id: Int64, end: UTCTime, trips: Int, distance: Double, timeZone: String?, utcOffset: String?) {
        self.id = id
        self.end = end
        self.trips = trips
        self.distance = distance
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "id": .integer(id), "end": .string(end.iso8601), "trips": .integer(Int64(trips)),
            "distance_m": .double(distance), "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            end: try fields.time("end"),
            trips: Int(clamping: try fields.integer("trips")),
            distance: try fields.number("distance_m"),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}
