package import TravelCore

// Reading routes for exports: every point of years of history, as fast as SQLite scans.
extension TravelDatabase {
    /// Calls `body` with each of `trips` (oldest first, as `trips(…)` returns them) and its
    /// route, in order, one trip's route in memory at a time.
    ///
    /// One scan of `route_points` over the trips' time span, with one statement, instead of a
    /// query per trip: rows come in time order, and a trip's points are contiguous there. Only
    /// what exports write is read (time, position, altitude). Points of trips not in `trips` are
    /// skipped; a trip without points gets an empty route.
    package func forEachRoute(
        of trips: [TripRecord],
        _ body: (TripRecord, [RoutePoint]) throws -> Void
    ) throws {
        guard let first = trips.first else { return }
        let position = Dictionary(trips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let through = trips.map(\.summary.endTime.milliseconds).max() ?? first.summary.endTime.milliseconds
        let query = try connection.prepare(
            "SELECT t_ms, lat, lon, alt, trip_id FROM route_points WHERE t_ms BETWEEN ?1 AND ?2 ORDER BY t_ms"
        )
        query.bind(1, first.summary.startTime.milliseconds)
        query.bind(2, through)
        var next = 0  // the first trip not handed to `body` yet
        var route: [RoutePoint] = []
        var routeTrip: Int?  // when set, `next`: the trip whose points `route` holds
        func handOver(upTo end: Int) throws {
            while next < end {
                try body(trips[next], routeTrip == next ? route : [])
                if routeTrip == next {
                    route.removeAll(keepingCapacity: true)
                    routeTrip = nil
                }
                next += 1
            }
        }
        while try query.step() {
            // A point of a trip not selected, or of one already handed over: not in this export.
            guard let index = position[query.int64(at: 4)], index >= next else { continue }
            if routeTrip != index {
                try handOver(upTo: index)
                routeTrip = index
            }
            route.append(
                RoutePoint(
                    time: UTCTime(milliseconds: query.int64(at: 0)),
                    coordinate: Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2)),
                    altitude: query.optionalDouble(at: 3)
                )
            )
        }
        try handOver(upTo: trips.count)
    }
}
