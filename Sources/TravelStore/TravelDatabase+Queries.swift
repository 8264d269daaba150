package import TravelCore

// Read-only queries: what `travelctl --db PATH` runs, with or without a daemon writing.
extension TravelDatabase {
    /// Trips that started in `[since, until)`, oldest first; either bound may be omitted.
    package func trips(since: UTCTime? = nil, until: UTCTime? = nil) throws(StoreError) -> [TripRecord] {
        let query = try connection.prepare(
            "SELECT \(Self.tripColumns) FROM trips WHERE start_ms >= ?1 AND start_ms < ?2 ORDER BY start_ms"
        )
        query.bind(1, since?.milliseconds ?? .min)
        query.bind(2, until?.milliseconds ?? .max)
        var trips: [TripRecord] = []
        let labels = try readLabels()
        try query.forEachRow { () throws(StoreError) in trips.append(try tripRecord(from: query, labels: labels)) }
        return trips
    }

    /// The trip with row id `id`, or `nil` when there is none.
    package func trip(id: Int64) throws(StoreError) -> TripRecord? {
        let query = try connection.prepare("SELECT \(Self.tripColumns) FROM trips WHERE id = ?1")
        query.bind(1, id)
        var trip: TripRecord?
        let labels = try readLabels()
        try query.forEachRow { () throws(StoreError) in trip = try tripRecord(from: query, labels: labels) }
        return trip
    }

    /// The route of trip `tripID`, in time order (empty for an unknown trip).
    package func routePoints(tripID: Int64) throws(StoreError) -> [RoutePoint] {
        guard let window = try routeWindow(tripID: tripID) else { return [] }
        let query = try connection.prepare(
            """
            SELECT t_ms, lat, lon, alt, speed, track, err FROM route_points
            WHERE t_ms BETWEEN ?1 AND ?2 AND trip_id = ?3 ORDER BY t_ms
            """
        )
        query.bind(1, window.from)
        query.bind(2, window.through)
        query.bind(3, tripID)
        return try Self.routePoints(of: query)
    }

    /// Route points stored after `time`, oldest first (a resuming engine catches up on them).
    package func routePoints(after time: UTCTime) throws(StoreError) -> [RoutePoint] {
        let query = try connection.prepare(
            "SELECT t_ms, lat, lon, alt, speed, track, err FROM route_points WHERE t_ms > ?1 ORDER BY t_ms"
        )
        query.bind(1, time.milliseconds)
        return try Self.routePoints(of: query)
    }

    /// The rows of a `SELECT t_ms, lat, lon, alt, speed, track, err FROM route_points …` query.
    private static func routePoints(of query: SQLiteStatement) throws(StoreError) -> [RoutePoint] {
        var points: [RoutePoint] = []
        try query.forEachRow {
            points.append(
                RoutePoint(
                    time: UTCTime(milliseconds: query.int64(at: 0)),
                    coordinate: Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2)),
                    altitude: query.optionalDouble(at: 3),
                    speed: query.optionalDouble(at: 4),
                    track: query.optionalDouble(at: 5),
                    horizontalError: query.optionalDouble(at: 6)
                )
            )
        }
        return points
    }

    /// Stops that overlap `[start, end)`: arrived before `end` and not departed before `start`
    /// (a stop the vehicle has not left yet overlaps everything after its arrival). Oldest first.
    package func stops(between start: UTCTime, and end: UTCTime) throws(StoreError) -> [StopRecord] {
        let query = try connection.prepare(
            """
            SELECT s.id, s.arrival_ms, s.departure_ms, s.lat, s.lon, s.place, s.trip_before, s.trip_after,
                t.start_lat, t.start_lon
            FROM stops AS s LEFT JOIN trips AS t ON t.id = s.trip_after
            WHERE s.arrival_ms < ?2 AND (s.departure_ms IS NULL OR s.departure_ms > ?1) ORDER BY s.arrival_ms
            """
        )
        query.bind(1, start.milliseconds)
        query.bind(2, end.milliseconds)
        var stops: [StopRecord] = []
        let labels = try readLabels()
        try query.forEachRow {
            let coordinate = Coordinate(latitude: query.double(at: 3), longitude: query.double(at: 4))
            stops.append(
                StopRecord(
                    id: query.int64(at: 0),
                    arrival: UTCTime(milliseconds: query.int64(at: 1)),
                    departure: query.optionalInt64(at: 2).map(UTCTime.init(milliseconds:)),
                    coordinate: coordinate,
                    place: labels.label(query.text(at: 5), at: coordinate),
                    tripBefore: query.optionalInt64(at: 6),
                    tripAfter: query.optionalInt64(at: 7),
                    departureCoordinate: query.optionalDouble(at: 8).map {
                        Coordinate(latitude: $0, longitude: query.double(at: 9))
                    }
                )
            )
        }
        return stops
    }

    /// Whether a file with this SHA-256 (lowercase hex) was imported, counting an import recorded
    /// but not yet flushed, so the same file given twice in one run is imported once.
    package func hasImported(sha256: String) throws(StoreError) -> Bool {
        if hasPendingImport(sha256: sha256) { return true }
        let query = try connection.prepare("SELECT 1 FROM imported_files WHERE sha256 = ?1")
        query.bind(1, sha256)
        return try query.firstRow { true } ?? false
    }

    /// Whether a file of this path and size was imported: a cheap hint that it may be the same
    /// file, which the importer then confirms by its SHA-256 before skipping it.
    package func hasImported(path: String, bytes: Int64) throws(StoreError) -> Bool {
        let query = try connection.prepare("SELECT 1 FROM imported_files WHERE path = ?1 AND bytes = ?2")
        query.bind(1, path)
        query.bind(2, bytes)
        return try query.firstRow { true } ?? false
    }

    /// Bytes the database occupies on disk: the file and its write-ahead log.
    package var databaseSizeBytes: Int64 { Platform.fileSize(path) + Platform.fileSize(path + "-wal") }

    private static let tripColumns = """
        id, start_ms, end_ms, start_lat, start_lon, end_lat, end_lon, distance_m, moving_s, max_speed, \
        point_count, end_reason, start_place, end_place, journey_id
        """

    private func tripRecord(from row: SQLiteStatement, labels: ReadLabels) throws(StoreError) -> TripRecord {
        var endReason: TripEndReason?
        if let reason = row.text(at: 11) {
            guard let known = TripEndReason(rawValue: reason) else {
                throw .unexpectedValue(column: "trips.end_reason", value: reason)
            }
            endReason = known
        }
        let summary = TripSummary(
            startTime: UTCTime(milliseconds: row.int64(at: 1)),
            endTime: UTCTime(milliseconds: row.int64(at: 2)),
            start: Coordinate(latitude: row.double(at: 3), longitude: row.double(at: 4)),
            end: Coordinate(latitude: row.double(at: 5), longitude: row.double(at: 6)),
            distance: row.double(at: 7),
            movingTime: row.double(at: 8),
            maximumSpeed: row.double(at: 9),
            pointCount: Int(row.int64(at: 10)),
            endReason: endReason
        )
        return TripRecord(
            id: row.int64(at: 0),
            summary: summary,
            startPlace: labels.label(row.text(at: 12), at: summary.start),
            endPlace: labels.label(row.text(at: 13), at: summary.end),
            journeyID: row.optionalInt64(at: 14)
        )
    }

    /// The times between which trip `tripID`'s points lie: from its start to its end, or while it
    /// is ongoing, to just before the next trip's start. Points are keyed by time, so this range
    /// is how a trip's route is read without an index on `trip_id`.
    private func routeWindow(tripID: Int64) throws(StoreError) -> (from: Int64, through: Int64)? {
        let query = try connection.prepare(
            """
            SELECT start_ms, CASE WHEN end_reason IS NOT NULL THEN end_ms ELSE coalesce(
                    (SELECT min(start_ms) - 1 FROM trips AS next WHERE next.start_ms > trips.start_ms),
                    \(Int64.max)
                ) END
            FROM trips WHERE id = ?1
            """
        )
        query.bind(1, tripID)
        return try query.firstRow { (query.int64(at: 0), query.int64(at: 1)) }
    }
}
