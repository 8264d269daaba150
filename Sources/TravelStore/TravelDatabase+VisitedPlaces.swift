package import TravelCore

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

    /// `places`: the places stopped at, by their labels as read now, the longest time spent
    /// first (`VisitedPlace.summarize` under `rules`).
    package func visitedPlaces(rules: JourneyRules) throws(StoreError) -> [VisitedPlace] {
        VisitedPlace.summarize(try labelledStays(), rules: rules)
    }
}
