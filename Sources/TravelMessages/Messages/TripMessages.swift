package import TravelCore
package import TravelFormats

// A trip, its stops and its place events as the control socket, `--json` and the report carry
// them (docs/control.md): values as they travel, rounding included, so a table drawn
// from a message the store built and from one a daemon sent is the same table.

/// A trip on the wire: `trips --json` and each trip of `trip show`, `journey show` and the report.
package struct TripMessage: Sendable, Hashable {
    package var id: Int64
    package var start: UTCTime
    /// `nil` while the trip is ongoing.
    package var end: UTCTime?
    /// Metres, to 0.1 m.
    package var distance: Double
    /// Seconds from start to end (to the latest point while ongoing).
    package var duration: Double
    /// Seconds.
    package var movingTime: Double
    /// m/s, to 0.01.
    package var maximumSpeed: Double
    /// m/s, to 0.01.
    package var averageSpeed: Double
    package var startPlace: String?
    package var endPlace: String?
    package var startCoordinate: Coordinate
    package var endCoordinate: Coordinate
    package var points: Int64
    /// `nil` while the trip is ongoing.
    package var endReason: TripEndReason?
    package var journeyID: Int64?

    package init(
        id: Int64,
        start: UTCTime,
        end: UTCTime?,
        distance: Double,
        duration: Double,
        movingTime: Double,
        maximumSpeed: Double,
        averageSpeed: Double,
        startPlace: String?,
        endPlace: String?,
        startCoordinate: Coordinate,
        endCoordinate: Coordinate,
        points: Int64,
        endReason: TripEndReason?,
        journeyID: Int64?
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.distance = distance
        self.duration = duration
        self.movingTime = movingTime
        self.maximumSpeed = maximumSpeed
        self.averageSpeed = averageSpeed
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.startCoordinate = startCoordinate
        self.endCoordinate = endCoordinate
        self.points = points
        self.endReason = endReason
        self.journeyID = journeyID
    }

    /// The wire's trip from the engine's summary: distance to 0.1 m, speeds to 0.01 m/s.
    package init(id: Int64, summary s: TripSummary, startPlace: String?, endPlace: String?, journeyID: Int64?) {
        self.init(
            id: id,
            start: s.startTime,
            end: s.endReason == nil ? nil : s.endTime,
            distance: (s.distance * 10).rounded() / 10,
            duration: s.duration,
            movingTime: s.movingTime,
            maximumSpeed: (s.maximumSpeed * 100).rounded() / 100,
            averageSpeed: (s.averageSpeed * 100).rounded() / 100,
            startPlace: startPlace,
            endPlace: endPlace,
            startCoordinate: s.start,
            endCoordinate: s.end,
            points: Int64(s.pointCount),
            endReason: s.endReason,
            journeyID: journeyID
        )
    }

    /// Whether the trip is still going (no end reason yet).
    package var isOngoing: Bool { endReason == nil }

    /// The summary the tables are drawn from: the end of an ongoing trip is its start plus its
    /// duration, the average speed the rounded distance over that duration.
    package var summary: TripSummary {
        TripSummary(
            startTime: start,
            endTime: end ?? UTCTime(milliseconds: start.milliseconds + Int64((duration * 1000).rounded())),
            start: startCoordinate,
            end: endCoordinate,
            distance: distance,
            movingTime: movingTime,
            maximumSpeed: maximumSpeed,
            pointCount: Int(clamping: points),
            endReason: endReason
        )
    }

    /// The members, in the order docs/control.md lists them.
    package var members: [JSONValue.Member] {
        [
            .init("id", .integer(id)),
            .init("start", .string(start.iso8601)),
            .init("end", end.map { .string($0.iso8601) } ?? .null),
            .init("distance_m", .double(distance)),
            .init("duration_s", .double(duration)),
            .init("moving_s", .double(movingTime)),
            .init("max_speed_mps", .double(maximumSpeed)),
            .init("avg_speed_mps", .double(averageSpeed)),
            .init("start_place", startPlace.map(JSONValue.string) ?? .null),
            .init("end_place", endPlace.map(JSONValue.string) ?? .null),
            .init("start_lat", .double(startCoordinate.latitude)),
            .init("start_lon", .double(startCoordinate.longitude)),
            .init("end_lat", .double(endCoordinate.latitude)),
            .init("end_lon", .double(endCoordinate.longitude)),
            .init("points", .integer(points)),
            .init("end_reason", endReason.map { .string($0.rawValue) } ?? .null),
            .init("journey_id", journeyID.map(JSONValue.integer) ?? .null),
        ]
    }

    /// `trips --json`'s element.
    package var json: JSONValue { .object(members) }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            start: try fields.time("start"),
            end: try fields.optionalTime("end"),
            distance: try fields.number("distance_m"),
            duration: try fields.number("duration_s"),
            movingTime: try fields.number("moving_s"),
            maximumSpeed: try fields.number("max_speed_mps"),
            averageSpeed: try fields.number("avg_speed_mps"),
            startPlace: try fields.optionalString("start_place"),
            endPlace: try fields.optionalString("end_place"),
            startCoordinate: try fields.coordinate(latitude: "start_lat", longitude: "start_lon"),
            endCoordinate: try fields.coordinate(latitude: "end_lat", longitude: "end_lon"),
            points: try fields.integer("points"),
            endReason: try fields.optionalEnumeration("end_reason"),
            journeyID: try fields.optionalInteger("journey_id")
        )
    }
}

/// A stop within `trip show`: where the car stood between two trips.
package struct StopMessage: Sendable, Hashable {
    package var id: Int64
    package var arrival: UTCTime
    /// `nil` while the car still stands there.
    package var departure: UTCTime?
    package var coordinate: Coordinate
    package var place: String?

    package init(id: Int64, arrival: UTCTime, departure: UTCTime?, coordinate: Coordinate, place: String?) {
        self.id = id
        self.arrival = arrival
        self.departure = departure
        self.coordinate = coordinate
        self.place = place
    }

    package var json: JSONValue {
        [
            "id": .integer(id),
            "arrival": .string(arrival.iso8601),
            "departure": departure.map { .string($0.iso8601) } ?? .null,
            "lat": .double(coordinate.latitude), "lon": .double(coordinate.longitude),
            "place": place.map(JSONValue.string) ?? .null,
        ]
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            arrival: try fields.time("arrival"),
            departure: try fields.optionalTime("departure"),
            coordinate: try fields.coordinate(),
            place: try fields.optionalString("place")
        )
    }
}

/// A zone event or a nearby alert, as `events --json` lists them: `event` (the kind as hooks
/// name it), `kind` (what `--kind` takes), the event kind's own fields, and `trip_id`. The
/// object is kept whole, as the event's fields vary with its kind; what the tables show is typed.
package struct PlaceEventMessage: Sendable, Hashable {
    /// The whole object, as it is written.
    package private(set) var json: JSONValue
    /// `zone-entered`, `zone-exited` or `poi-nearby`.
    package private(set) var event: String
    /// `enter`, `exit` or `nearby`.
    package private(set) var kind: String
    package private(set) var time: UTCTime
    package private(set) var tripID: Int64?
    /// A zone event's zone.
    package private(set) var zoneName: String?
    /// A nearby alert's POI, its category and how far it was, in metres.
    package private(set) var poiName: String?
    package private(set) var poiCategory: String?
    package private(set) var distance: Double?
    /// A zone event noticed while the daemon was off (at its next start).
    package private(set) var whileOff: Bool

    /// Reads an event object; a missing or mistyped member the tables show throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        json = fields.object
        event = try fields.string("event")
        kind = try fields.string("kind")
        time = try fields.time("time")
        tripID = try fields.optionalInteger("trip_id")
        zoneName = try fields.optionalString("zone_name")
        poiName = try fields.optionalString("poi_name")
        poiCategory = try fields.optionalString("poi_category")
        distance = try fields.optionalNumber("distance_m")
        whileOff = try fields.optionalBool("while_off") ?? false
    }
}

/// `trip show`: a trip with the size of its route, its stops, and its zone events and nearby alerts.
package struct TripDetailMessage: Sendable, Hashable {
    package var trip: TripMessage
    package var routePoints: Int64
    package var stops: [StopMessage]
    package var events: [PlaceEventMessage]

    package init(trip: TripMessage, routePoints: Int64, stops: [StopMessage], events: [PlaceEventMessage]) {
        self.trip = trip
        self.routePoints = routePoints
        self.stops = stops
        self.events = events
    }

    /// The trip's members, then `route_points`, `stops` and `events`.
    package var json: JSONValue {
        .object(
            trip.members + [
                .init("route_points", .integer(routePoints)),
                .init("stops", .array(stops.map(\.json))),
                .init("events", .array(events.map(\.json))),
            ]
        )
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            trip: try TripMessage(fields),
            routePoints: try fields.integer("route_points"),
            stops: try fields.array("stops", StopMessage.init),
            events: try fields.array("events", PlaceEventMessage.init)
        )
    }
}
