package import TravelCore
package import TravelFormats

// `travelctl places`: where history stood, by the names places have today.
extension TravelDatabase {
    /// Every stop as a stay, with its label as read now: the zone or named place it lies in, else
    /// the label stored when it was recorded (a town of the gazetteer where that is coordinates).
    package func labelledStays() throws(StoreError) -> [(label: String, stay: Stay)] {
        let query = try connection.prepare(
            """
            SELECT s.arrival_ms, s.departure_ms, s.lat, s.lon, s.place, t.start_lat, t.start_lon
            FROM stops AS s LEFT JOIN trips AS t ON t.id = s.trip_after ORDER BY s.arrival_ms
            """
        )
        let labels = try readLabels()
        var stays: [(label: String, stay: Stay)] = []
        try query.forEachRow {
            let coordinate = Coordinate(latitude: query.double(at: 2), longitude: query.double(at: 3))
            let stored = query.text(at: 4) ?? coordinate.coordinateLabel
            let stay = Stay(
                coordinate: coordinate,
                arrival: UTCTime(milliseconds: query.int64(at: 0)),
                departure: query.optionalInt64(at: 1).map(UTCTime.init(milliseconds:)),
                departureCoordinate: query.optionalDouble(at: 5).map {
                    Coordinate(latitude: $0, longitude: query.double(at: 6))
                }
            )
            stays.append((labels.label(stored, at: coordinate) ?? stored, stay))
        }
        return stays
    }

    /// `ListPlaces`: `places` is what `places --json` prints (`VisitedPlace.summarize` under
    /// `rules`), with the zone its table shows the last arrivals in.
    package func visitedPlacesDocument(rules: JourneyRules) throws(StoreError) -> JSONValue {
        let places = VisitedPlace.summarize(try labelledStays(), rules: rules)
        return [
            "places": .array(places.map(\.json)),
            "time_zone": .string(rules.timeZone.name),
        ]
    }
}

extension VisitedPlace {
    /// One place of `places --json`.
    var json: JSONValue {
        .object([
            .init("place", .string(label)),
            .init("visits", .integer(Int64(visits))),
            .init("nights", .integer(Int64(nights))),
            .init("time_s", .double(seconds.rounded())),
            .init("last_arrival", .string(lastArrival.iso8601)),
        ])
    }
}
