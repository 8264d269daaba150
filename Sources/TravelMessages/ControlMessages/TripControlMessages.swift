package import TravelControl
package import TravelCore
package import TravelFormats

/// `ListTrips`: the trips starting within the bounds (both optional, both included).
package struct ListTripsParameters: ControlParameters, Hashable {
    package var since: TimeBound?
    package var until: TimeBound?

    package init(since: TimeBound?, until: TimeBound?) {
        self.since = since
        self.until = until
    }

    package var json: JSONValue { ["since": since.parameter, "until": until.parameter] }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["since", "until"])
        self.init(since: try call.timeBound("since"), until: try call.timeBound("until"))
    }
}

/// `ListTrips`' answer: `trips` (`trips --json`, oldest first) and the `time_zone` the table's
/// local times are in.
package struct ListTripsReply: ControlReply, Hashable {
    package var trips: [TripMessage]
    package var timeZone: String?

    package init(trips: [TripMessage], timeZone: String?) {
        self.trips = trips
        self.timeZone = timeZone
    }

    package var json: JSONValue {
        ["trips": .array(trips.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(trips: try fields.array("trips", TripMessage.init), timeZone: try fields.optionalString("time_zone"))
    }
}

/// The single parameter of `GetTrip`, `GetJourney` and the removals by id: the `id`.
package struct IDParameters: ControlParameters, Hashable {
    package var id: Int64

    package init(id: Int64) { self.id = id }

    package var json: JSONValue { ["id": .integer(id)] }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["id"])
        guard let id = try call.integer("id") else { throw .invalidParameter("id") }
        self.init(id: id)
    }
}

/// `GetTrip`'s answer: `trip` (`trip show --json`) and the `time_zone` of its table.
package struct GetTripReply: ControlReply, Hashable {
    package var trip: TripDetailMessage
    package var timeZone: String?

    package init(trip: TripDetailMessage, timeZone: String?) {
        self.trip = trip
        self.timeZone = timeZone
    }

    package var json: JSONValue { ["trip": trip.json, "time_zone": timeZone.map(JSONValue.string) ?? .null] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            trip: try fields.object("trip", TripDetailMessage.init),
            timeZone: try fields.optionalString("time_zone")
        )
    }
}

/// `Stats`: the year to chart, or `nil` for the latest journey's.
package struct StatsParameters: ControlParameters, Hashable {
    package var year: Int?

    package init(year: Int?) { self.year = year }

    package var json: JSONValue { ["year": year.map { .integer(Int64($0)) } ?? .null] }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["year"])
        self.init(year: try call.integer("year").map { Int(clamping: $0) })
    }
}

/// `Stats`' answer: `stats` (`stats --json`; `nil` without journeys), with the zone its months
/// are local to, by name and, for a fixed zone, as `utc_offset`.
package struct StatsReply: ControlReply, Hashable {
    package var stats: StatsMessage?
    package var timeZone: String?
    package var utcOffset: String?

    package init(stats: StatsMessage?, timeZone: String?, utcOffset: String?) {
        self.stats = stats
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "stats": stats?.json ?? StatsMessage.emptyJSON, "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            stats: try fields.object("stats", StatsMessage.read),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}

/// `ListEvents`: zone events and nearby alerts from `since` through `until`, of one `zone` or
/// `poi` (by name) or one `kind` (`enter`, `exit` or `nearby`).
package struct ListEventsParameters: ControlParameters, Hashable {
    package var since: TimeBound?
    package var until: TimeBound?
    package var zone: String?
    package var poi: String?
    package var kind: String?

    /// What `kind` takes.
    package static let kinds = ["enter", "exit", "nearby"]

    package init(since: TimeBound?, until: TimeBound?, zone: String?, poi: String?, kind: String?) {
        self.since = since
        self.until = until
        self.zone = zone
        self.poi = poi
        self.kind = kind
    }

    package var json: JSONValue {
        [
            "since": since.parameter, "until": until.parameter, "zone": zone.map(JSONValue.string) ?? .null,
            "poi": poi.map(JSONValue.string) ?? .null, "kind": kind.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["since", "until", "zone", "poi", "kind"])
        self.init(
            since: try call.timeBound("since"),
            until: try call.timeBound("until"),
            zone: try call.string("zone"),
            poi: try call.string("poi"),
            kind: try call.string("kind")
        )
        if let kind, !Self.kinds.contains(kind) { throw .invalidParameter("kind") }
    }
}

/// `ListEvents`' answer: `events` (`events --json`, oldest first) and the `time_zone` of the table.
package struct ListEventsReply: ControlReply, Hashable {
    package var events: [PlaceEventMessage]
    package var timeZone: String?

    package init(events: [PlaceEventMessage], timeZone: String?) {
        self.events = events
        self.timeZone = timeZone
    }

    package var json: JSONValue {
        ["events": .array(events.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            events: try fields.array("events", PlaceEventMessage.init),
            timeZone: try fields.optionalString("time_zone")
        )
    }
}

/// `RemoveTrip`'s answer: the `trip` removed, as `trips --json` had it, and the `time_zone` its
/// start is shown in.
package struct RemoveTripReply: ControlReply, Hashable {
    package var trip: TripMessage
    package var timeZone: String?

    package init(trip: TripMessage, timeZone: String?) {
        self.trip = trip
        self.timeZone = timeZone
    }

    package var json: JSONValue { ["trip": trip.json, "time_zone": timeZone.map(JSONValue.string) ?? .null] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(trip: try fields.object("trip", TripMessage.init), timeZone: try fields.optionalString("time_zone"))
    }
}
