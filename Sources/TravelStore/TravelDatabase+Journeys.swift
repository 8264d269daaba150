package import TravelCore

// Places, home and journeys: derived from the trip log, regrouped after each import.
extension TravelDatabase {
    /// Every stop as a stay, oldest first.
    package func stays() throws(StoreError) -> [Stay] {
        let query = try connection.prepare(
            """
            SELECT s.arrival_ms, s.departure_ms, s.lat, s.lon, t.start_lat, t.start_lon
            FROM stops AS s LEFT JOIN trips AS t ON t.id = s.trip_after ORDER BY s.arrival_ms
            """
        )
        var stays: [Stay] = []
        try query.forEachRow {
            stays.append(
                Stay(
                    coordinate: Coordinate(latitude: query.double(at: 2), longitude: query.double(at: 3)),
                    arrival: UTCTime(milliseconds: query.int64(at: 0)),
                    departure: query.optionalInt64(at: 1).map(UTCTime.init(milliseconds:)),
                    departureCoordinate: query.optionalDouble(at: 4).map {
                        Coordinate(latitude: $0, longitude: query.double(at: 5))
                    }
                )
            )
        }
        return stays
    }

    /// The places the vehicle stayed at and its home under `rules` (`nil` while unknown).
    package func placesAndHome(rules: JourneyRules) throws(StoreError) -> (places: PlaceMap, home: Home?) {
        let places = PlaceMap(stays: try stays(), rules: rules)
        return (places, Home(places: places, rules: rules))
    }

    /// Groups every trip into journeys under `rules` and stores them, in one transaction: trips
    /// get their `journey_id`, a journey that starts with the same trip as before keeps its id,
    /// and automatic journeys that no longer exist are removed. Returns the home used.
    @discardableResult
    package func regroupJourneys(rules: JourneyRules) throws(StoreError) -> Home? {
        let (places, home) = try placesAndHome(rules: rules)
        let trips = try trips()
        var grouped: [JourneyTrip] = []
        grouped.reserveCapacity(trips.count)
        for trip in trips {
            let reference = JourneyGrouping.routeReference(for: trip.summary, home: home?.coordinate, rules: rules)
            let farthest = try reference.map { reference throws(StoreError) in
                try farthestRoutePoint(of: trip, from: reference)
            }
            grouped.append(JourneyTrip(id: trip.id, summary: trip.summary, farthestPoint: farthest ?? nil))
        }
        let journeys = JourneyGrouping.group(grouped, home: home?.coordinate, rules: rules)
        let currentJourney = Dictionary(uniqueKeysWithValues: trips.map { ($0.id, $0.journeyID) })
        try connection.inTransaction { () throws(StoreError) in
            let existing = try automaticJourneyIDs()
            let update = try connection.prepare(
                "UPDATE journeys SET end_ms = ?2, type = ?3, destination = ?4 WHERE id = ?1"
            )
            let insert = try connection.prepare(
                "INSERT INTO journeys (start_ms, end_ms, type, destination) VALUES (?1, ?2, ?3, ?4) RETURNING id"
            )
            let assign = try connection.prepare("UPDATE trips SET journey_id = ?1 WHERE id = ?2")
            var kept: Set<Int64> = []
            for journey in journeys {
                let label = Self.label(journey.destination, home: home, places: places, rules: rules)
                let end: Int64? = journey.isOpen ? nil : journey.end.milliseconds
                let id: Int64
                if let known = existing[journey.start.milliseconds] {
                    id = known
                    update.bind(1, id)
                    update.bind(2, end)
                    update.bind(3, journey.type.rawValue)
                    update.bind(4, label)
                    try update.run()
                } else {
                    insert.bind(1, journey.start.milliseconds)
                    insert.bind(2, end)
                    insert.bind(3, journey.type.rawValue)
                    insert.bind(4, label)
                    guard let new = try insert.firstRow({ insert.int64(at: 0) }) else {
                        throw .statementFailed(sql: "INSERT INTO journeys", reason: "no id returned")
                    }
                    id = new
                }
                kept.insert(id)
                for tripID in journey.tripIDs where currentJourney[tripID] != id {
                    assign.bind(1, id)
                    assign.bind(2, tripID)
                    try assign.run()
                }
            }
            let remove = try connection.prepare("DELETE FROM journeys WHERE id = ?1")
            for id in existing.values where !kept.contains(id) {
                remove.bind(1, id)
                try remove.run()
            }
        }
        return home
    }

    /// Journeys passing `filter`, oldest first, with their trips' totals.
    package func journeys(
        _ filter: JourneyFilter = JourneyFilter(),
        offset: UTCOffset
    ) throws(StoreError)
        -> [JourneyRecord]
    {
        try journeyRecords(where: "1").filter { filter.matches($0, offset: offset) }
    }

    /// The journey with row id `id`, or `nil` when there is none.
    package func journey(id: Int64) throws(StoreError) -> JourneyRecord? {
        try journeyRecords(where: "j.id = \(id)").first
    }

    /// The trips of journey `id`, oldest first.
    package func trips(journeyID id: Int64) throws(StoreError) -> [TripRecord] {
        guard let journey = try journey(id: id) else { return [] }
        var trips: [TripRecord] = []
        for tripID in journey.tripIDs {
            if let trip = try trip(id: tripID) { trips.append(trip) }
        }
        return trips
    }

    private func journeyRecords(where condition: String) throws(StoreError) -> [JourneyRecord] {
        let query = try connection.prepare(
            """
            SELECT j.id, j.start_ms, j.end_ms, j.type, j.destination, max(t.end_ms), coalesce(sum(t.distance_m), 0),
                group_concat(t.id), group_concat(t.start_place || char(10) || coalesce(t.end_place, ''), char(10))
            FROM journeys AS j LEFT JOIN trips AS t ON t.journey_id = j.id
            WHERE \(condition) GROUP BY j.id ORDER BY j.start_ms
            """
        )
        var journeys: [JourneyRecord] = []
        try query.forEachRow { () throws(StoreError) in
            let typeText = query.text(at: 3) ?? ""
            guard let type = JourneyType(rawValue: typeText) else {
                throw .unexpectedValue(column: "journeys.type", value: typeText)
            }
            let start = UTCTime(milliseconds: query.int64(at: 1))
            let lastTripEnd = query.optionalInt64(at: 5)
            journeys.append(
                JourneyRecord(
                    id: query.int64(at: 0),
                    start: start,
                    end: UTCTime(milliseconds: query.optionalInt64(at: 2) ?? lastTripEnd ?? start.milliseconds),
                    isOpen: query.optionalInt64(at: 2) == nil,
                    type: type,
                    destination: query.text(at: 4) ?? "",
                    tripIDs: (query.text(at: 7) ?? "").split(separator: ",").compactMap { Int64($0) }.sorted(),
                    distance: query.double(at: 6),
                    placeLabels: (query.text(at: 8) ?? "").split(separator: "\n").map(String.init)
                )
            )
        }
        return journeys
    }

    /// Automatic journeys (neither planned nor started by hand) by start time.
    private func automaticJourneyIDs() throws(StoreError) -> [Int64: Int64] {
        let query = try connection.prepare("SELECT start_ms, id FROM journeys WHERE manual = 0 AND plan_id IS NULL")
        var ids: [Int64: Int64] = [:]
        try query.forEachRow { ids[query.int64(at: 0)] = query.int64(at: 1) }
        return ids
    }

    /// The point of `trip`'s route farthest from `reference`, or `nil` when it has no points.
    private func farthestRoutePoint(of trip: TripRecord, from reference: Coordinate) throws(StoreError) -> Coordinate? {
        let query = try connection.prepare(
            "SELECT lat, lon FROM route_points WHERE t_ms BETWEEN ?1 AND ?2 AND trip_id = ?3"
        )
        query.bind(1, trip.summary.startTime.milliseconds)
        query.bind(2, trip.summary.endTime.milliseconds)
        query.bind(3, trip.id)
        var farthest: (coordinate: Coordinate, distance: Double)?
        try query.forEachRow {
            let point = Coordinate(latitude: query.double(at: 0), longitude: query.double(at: 1))
            let distance = Geodesy.fastDistance(reference, point)
            if distance > farthest?.distance ?? -1 { farthest = (point, distance) }
        }
        return farthest?.coordinate
    }

    /// A destination's label: `home`, or the coordinates of the place it belongs to (zones and
    /// POIs, which come first, are not stored yet).
    private static func label(_ destination: Coordinate, home: Home?, places: PlaceMap, rules: JourneyRules) -> String {
        if let home, Geodesy.fastDistance(home.coordinate, destination) <= rules.placeRadius { return "home" }
        let place = places.place(near: destination).map { places.places[$0].centre }
        return (place ?? destination).coordinateLabel
    }
}
