package import TravelCore

// The JSON documents of the history, shared by `travelctl --db … --json` and the daemon's
// control socket, so the offline and the live answer are the same bytes.

extension TripRecord {
    /// The DOMAIN.md JSON shape of a trip (`trips --json`).
    package var json: JSONValue {
        let s = summary
        return [
            "id": .integer(id),
            "start": .string(s.startTime.iso8601),
            "end": isOngoing ? .null : .string(s.endTime.iso8601),
            "distance_m": .double((s.distance * 10).rounded() / 10),
            "duration_s": .double(s.duration),
            "moving_s": .double(s.movingTime),
            "max_speed_mps": .double((s.maximumSpeed * 100).rounded() / 100),
            "avg_speed_mps": .double((s.averageSpeed * 100).rounded() / 100),
            "start_place": startPlace.map(JSONValue.string) ?? .null,
            "end_place": endPlace.map(JSONValue.string) ?? .null,
            "start_lat": .double(s.start.latitude), "start_lon": .double(s.start.longitude),
            "end_lat": .double(s.end.latitude), "end_lon": .double(s.end.longitude),
            "points": .integer(Int64(s.pointCount)),
            "end_reason": s.endReason.map { .string($0.rawValue) } ?? .null,
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
        ]
    }
}

extension StopRecord {
    /// A stop within `trip show --json`.
    package var json: JSONValue {
        [
            "id": .integer(id),
            "arrival": .string(arrival.iso8601),
            "departure": departure.map { .string($0.iso8601) } ?? .null,
            "lat": .double(coordinate.latitude), "lon": .double(coordinate.longitude),
            "place": place.map(JSONValue.string) ?? .null,
        ]
    }
}

extension MonthlyTotals {
    /// The `stats --json` shape: the year, its totals and each month's.
    package var json: JSONValue {
        [
            "year": .integer(Int64(year)),
            "journeys": .integer(Int64(journeys)),
            "distance_m": .double((distance * 10).rounded() / 10),
            "months": .array(
                months.map { month in
                    [
                        "month": .integer(Int64(month.month)),
                        "journeys": .integer(Int64(month.journeys)),
                        "distance_m": .double((month.distance * 10).rounded() / 10),
                    ]
                }
            ),
        ]
    }

    /// `stats --json` when there is no journey to chart.
    package static let emptyJSON: JSONValue = ["year": nil, "journeys": 0, "distance_m": 0.0, "months": []]
}

extension TravelDatabase {
    /// `trips --json`: the trips starting within the bounds, oldest first.
    package func tripsDocument(since: UTCTime?, until: UTCTime?) throws(StoreError) -> JSONValue {
        .array(try trips(since: since, until: until).map(\.json))
    }

    /// `trip show --json`: the trip with its route size, its stops, and its zone events and
    /// nearby alerts (as `events --json` has them); `nil` when there is no such trip.
    package func tripDocument(id: Int64) throws(StoreError) -> JSONValue? {
        guard let trip = try trip(id: id) else { return nil }
        let route = try routePoints(tripID: id)
        let (start, end) = (trip.summary.startTime, trip.summary.endTime)
        let stops = try stops(between: start, and: end)
        let events = try placeEvents(since: start, until: end.adding(seconds: 0.001)).filter { $0.tripID == id }
        guard case .object(var members) = trip.json else { return trip.json }
        members.append(.init("route_points", .integer(Int64(route.count))))
        members.append(.init("stops", .array(stops.map(\.json))))
        members.append(.init("events", .array(events.map(\.json))))
        return .object(members)
    }

    /// `Stats`: `stats` is what `stats --json` prints, with the zone its months are local to.
    package func statsDocument(year: Int?, zone: LocalTimeZone) throws(StoreError) -> JSONValue {
        [
            "stats": try monthlyTotals(year: year, zone: zone)?.json ?? MonthlyTotals.emptyJSON,
            "time_zone": .string(zone.name), "utc_offset": zone.utcOffsetJSON,
        ]
    }

    /// The totals `stats` charts: of `year`, or of the latest journey's year; `nil` without journeys.
    package func monthlyTotals(year: Int?, zone: LocalTimeZone) throws(StoreError) -> MonthlyTotals? {
        let journeys = try journeys(zone: zone)
        guard let year = year ?? journeys.last.map({ zone.local($0.start).components.year }) else { return nil }
        return MonthlyTotals(year: year, journeys: journeys.map { ($0.start, $0.distance) }, zone: zone)
    }
}

extension TripRecord {
    /// Reads back what `json` wrote: `travelctl` draws the daemon's answers with the offline tables.
    package init?(json: JSONValue) {
        guard let id = json["id"]?.intValue, let start = json["start"]?.stringValue.flatMap(UTCTime.init(iso8601:)),
            let startLatitude = json["start_lat"]?.doubleValue, let startLongitude = json["start_lon"]?.doubleValue,
            let endLatitude = json["end_lat"]?.doubleValue, let endLongitude = json["end_lon"]?.doubleValue
        else { return nil }
        let end = json["end"]?.stringValue.flatMap(UTCTime.init(iso8601:))
        let duration = json["duration_s"]?.doubleValue ?? 0
        let summary = TripSummary(
            startTime: start,
            endTime: end ?? UTCTime(milliseconds: start.milliseconds + Int64((duration * 1000).rounded())),
            start: Coordinate(latitude: startLatitude, longitude: startLongitude),
            end: Coordinate(latitude: endLatitude, longitude: endLongitude),
            distance: json["distance_m"]?.doubleValue ?? 0,
            movingTime: json["moving_s"]?.doubleValue ?? 0,
            maximumSpeed: json["max_speed_mps"]?.doubleValue ?? 0,
            pointCount: json["points"]?.intValue ?? 0,
            endReason: json["end_reason"]?.stringValue.flatMap(TripEndReason.init(rawValue:))
        )
        self.init(
            id: Int64(id),
            summary: summary,
            startPlace: json["start_place"]?.stringValue,
            endPlace: json["end_place"]?.stringValue,
            journeyID: json["journey_id"]?.intValue.map(Int64.init)
        )
    }
}

extension StopRecord {
    /// Reads back what `json` wrote.
    package init?(json: JSONValue) {
        guard let id = json["id"]?.intValue, let arrival = json["arrival"]?.stringValue.flatMap(UTCTime.init(iso8601:)),
            let latitude = json["lat"]?.doubleValue, let longitude = json["lon"]?.doubleValue
        else { return nil }
        self.init(
            id: Int64(id),
            arrival: arrival,
            departure: json["departure"]?.stringValue.flatMap(UTCTime.init(iso8601:)),
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            place: json["place"]?.stringValue,
            tripBefore: nil,
            tripAfter: nil
        )
    }
}

extension LocalTimeZone {
    /// A control reply's `utc_offset`: the offset of a fixed zone (`+01:00`), as clients from before
    /// time zones read it; `null` for a zone whose offset changes, whose `time_zone` name says all.
    package var utcOffsetJSON: JSONValue {
        fixedOffset.map { .string($0.description) } ?? .null
    }
}
