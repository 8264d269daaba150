import TravelCore
import TravelFormats

/// The recorder's statements, compiled once per connection and reused by every flush, each
/// wrapped in a method named for what it does to the trip log.
struct RecorderStatements {
    private let insertTrip: SQLiteStatement
    private let selectTrip: SQLiteStatement
    private let departStop: SQLiteStatement
    private let insertPoint: SQLiteStatement
    private let updateEndedTrip: SQLiteStatement
    private let updateOngoingTrip: SQLiteStatement
    private let deletePointsAfterEnd: SQLiteStatement
    private let insertStop: SQLiteStatement
    private let upsertEngineState: SQLiteStatement
    private let insertImportedFile: SQLiteStatement
    private let linkTripsToImport: SQLiteStatement
    /// The mark an import's trips carry until its record links them (`TravelDatabase.importMark`).
    private let importMark: String?
    /// Zone events, zone state and nearby alerts.
    let zones: ZoneStatements
    /// Names trip ends after the zone or POI they are at; coordinates otherwise.
    private let labeler: PlaceLabeler?

    init(_ connection: SQLiteDatabase, labeler: PlaceLabeler? = nil, importMark: String? = nil) throws(StoreError) {
        self.labeler = labeler
        self.importMark = importMark
        func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
            try connection.prepare(sql, persistent: true)
        }
        insertTrip = try prepare(
            """
            INSERT INTO trips (start_ms, end_ms, start_lat, start_lon, end_lat, end_lon, distance_m, moving_s,
                max_speed, point_count, start_place, import_sha256)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            ON CONFLICT (start_ms) DO NOTHING
            """
        )
        selectTrip = try prepare("SELECT id FROM trips WHERE start_ms = ?1")
        // The latest stop before the trip is the one it leaves, unless a later-starting trip
        // already left it (an older log imported after a newer one).
        departStop = try prepare(
            """
            UPDATE stops SET departure_ms = ?1, trip_after = ?2
            WHERE arrival_ms = (SELECT max(arrival_ms) FROM stops WHERE arrival_ms <= ?1)
                AND (departure_ms IS NULL OR departure_ms >= ?1)
            """
        )
        insertPoint = try prepare(
            """
            INSERT INTO route_points_packed (trip_id, t_ms, lat_e7, lon_e7, alt_cm, speed_cm_s, track_cdeg, err_cm)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT (t_ms) DO NOTHING
            """
        )
        updateEndedTrip = try prepare(
            """
            UPDATE trips SET end_ms = ?2, end_lat = ?3, end_lon = ?4, distance_m = ?5, moving_s = ?6,
                max_speed = ?7, point_count = ?8, end_reason = ?9, end_place = ?10
            WHERE id = ?1
            """
        )
        // Only while the row is still open: an end already stored is never undone by a late update.
        updateOngoingTrip = try prepare(
            """
            UPDATE trips SET end_ms = ?2, end_lat = ?3, end_lon = ?4, distance_m = ?5, moving_s = ?6,
                max_speed = ?7, point_count = ?8
            WHERE id = ?1 AND end_reason IS NULL
            """
        )
        // Bounded by the next trip's start, so ending a trip amid older history (an import) reads
        // only its own tail, not every later point.
        deletePointsAfterEnd = try prepare(
            """
            DELETE FROM route_points_packed
            WHERE t_ms > ?2 AND t_ms < coalesce((SELECT min(start_ms) FROM trips WHERE start_ms > ?2), \(Int64.max))
                AND trip_id = ?1
            """
        )
        // A stop's departure is the next trip's start when that trip is already stored (importing
        // an older log); otherwise `departStop` fills it in when the next trip starts.
        insertStop = try prepare(
            """
            INSERT INTO stops (arrival_ms, lat, lon, place, trip_before, departure_ms, trip_after)
            VALUES (?1, ?2, ?3, ?4, ?5,
                (SELECT min(start_ms) FROM trips WHERE start_ms >= ?1 AND id != ?5),
                (SELECT id FROM trips WHERE start_ms >= ?1 AND id != ?5 ORDER BY start_ms LIMIT 1))
            ON CONFLICT (arrival_ms) DO UPDATE SET lat = excluded.lat, lon = excluded.lon,
                place = excluded.place, trip_before = excluded.trip_before
            """
        )
        upsertEngineState = try prepare(
            """
            INSERT INTO engine_state (id, snapshot, counters, updated_ms) VALUES (1, ?1, ?2, ?3)
            ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, counters = excluded.counters,
                updated_ms = excluded.updated_ms
            """
        )
        insertImportedFile = try prepare(
            """
            INSERT INTO imported_files (sha256, path, bytes, imported_at_ms, fixes, trips)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (sha256) DO NOTHING
            """
        )
        linkTripsToImport = try prepare("UPDATE trips SET import_sha256 = ?1 WHERE import_sha256 = ?2")
        zones = try ZoneStatements(connection)
    }

    /// Stores a trip that started (or finds it, when it was stored before) and marks the stop it
    /// leaves as departed. Returns the trip's id.
    func startTrip(_ trip: TripSummary) throws(StoreError) -> Int64 {
        insertTrip.bind(1, trip.startTime.milliseconds)
        insertTrip.bind(2, trip.endTime.milliseconds)
        insertTrip.bind(3, trip.start.latitude)
        insertTrip.bind(4, trip.start.longitude)
        insertTrip.bind(5, trip.end.latitude)
        insertTrip.bind(6, trip.end.longitude)
        insertTrip.bind(7, trip.distance)
        insertTrip.bind(8, trip.movingTime)
        insertTrip.bind(9, trip.maximumSpeed)
        insertTrip.bind(10, Int64(trip.pointCount))
        insertTrip.bind(11, label(trip.start))
        insertTrip.bind(12, importMark)
        try insertTrip.run()
        guard let id = try findTrip(startingAt: trip.startTime) else {
            throw .statementFailed(sql: "INSERT INTO trips", reason: "the trip starting at \(trip.startTime) vanished")
        }
        departStop.bind(1, trip.startTime.milliseconds)
        departStop.bind(2, id)
        try departStop.run()
        try zones.link(toTrip: id, from: trip.startTime, through: trip.endTime)
        return id
    }

    /// The id of the trip that started at `start`, if stored.
    func findTrip(startingAt start: UTCTime) throws(StoreError) -> Int64? {
        selectTrip.bind(1, start.milliseconds)
        return try selectTrip.firstRow { selectTrip.int64(at: 0) }
    }

    /// Adds a route point, in `RouteUnits`; one already stored for that time is left as it is.
    func addPoint(_ point: RoutePoint, toTrip tripID: Int64) throws(StoreError) {
        insertPoint.bind(1, tripID)
        insertPoint.bind(2, point.time.milliseconds)
        let stored = RouteUnits.Stored(point)
        insertPoint.bind(3, Int64(stored.latitude))
        insertPoint.bind(4, Int64(stored.longitude))
        insertPoint.bind(5, stored.altitude.map(Int64.init))
        insertPoint.bind(6, stored.speed.map(Int64.init))
        insertPoint.bind(7, stored.track.map(Int64.init))
        insertPoint.bind(8, stored.horizontalError.map(Int64.init))
        try insertPoint.run()
    }

    /// Closes a trip with the engine's final summary, removes the points after its back-dated end
    /// (they belong to the stop that follows), and opens that stop.
    func endTrip(_ trip: TripSummary, id: Int64) throws(StoreError) {
        let endPlace = label(trip.end)
        Self.bindTotals(of: trip, id: id, to: updateEndedTrip)
        // NULL means ongoing, so an end the engine gave no reason for is recorded as a manual one.
        updateEndedTrip.bind(9, (trip.endReason ?? .manual).rawValue)
        updateEndedTrip.bind(10, endPlace)
        try updateEndedTrip.run()
        deletePointsAfterEnd.bind(1, id)
        deletePointsAfterEnd.bind(2, trip.endTime.milliseconds)
        try deletePointsAfterEnd.run()
        insertStop.bind(1, trip.endTime.milliseconds)
        insertStop.bind(2, trip.end.latitude)
        insertStop.bind(3, trip.end.longitude)
        insertStop.bind(4, endPlace)
        insertStop.bind(5, id)
        try insertStop.run()
    }

    /// Brings the row of the trip in progress up to the engine's totals; it stays ongoing.
    func updateOngoingTrip(_ trip: TripSummary, id: Int64) throws(StoreError) {
        Self.bindTotals(of: trip, id: id, to: updateOngoingTrip)
        try updateOngoingTrip.run()
    }

    /// Binds `?1` the trip's id and `?2`…`?8` its end and totals, as both trip updates number them.
    private static func bindTotals(of trip: TripSummary, id: Int64, to statement: SQLiteStatement) {
        statement.bind(1, id)
        statement.bind(2, trip.endTime.milliseconds)
        statement.bind(3, trip.end.latitude)
        statement.bind(4, trip.end.longitude)
        statement.bind(5, trip.distance)
        statement.bind(6, trip.movingTime)
        statement.bind(7, trip.maximumSpeed)
        statement.bind(8, Int64(trip.pointCount))
    }

    /// The zone, POI or gazetteer town at `place`, else its coordinates.
    private func label(_ place: Coordinate) -> String {
        labeler?.label(for: place) ?? TravelDatabase.gazetteer?.label(for: place) ?? place.coordinateLabel
    }

    /// Replaces the single engine-state row.
    func saveEngineState(snapshot: JSONValue, counters: [String: Int]) throws(StoreError) {
        // Sorted, so the same counters always serialize to the same text.
        let members = counters.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .integer(Int64($0.value))) }
        upsertEngineState.bind(1, snapshot.serializedString())
        upsertEngineState.bind(2, JSONValue.object(members).serializedString())
        upsertEngineState.bind(3, Platform.wallClockMilliseconds())
        try upsertEngineState.run()
    }

    /// Notes an imported file and links the trips it stored (those marked `mark`) to it; a file
    /// imported before keeps its first record.
    func recordImport(
        sha256: String,
        path: String,
        bytes: Int64,
        fixes: Int,
        trips: Int,
        mark: String
    ) throws(StoreError) {
        insertImportedFile.bind(1, sha256)
        insertImportedFile.bind(2, path)
        insertImportedFile.bind(3, bytes)
        insertImportedFile.bind(4, Platform.wallClockMilliseconds())
        insertImportedFile.bind(5, Int64(fixes))
        insertImportedFile.bind(6, Int64(trips))
        try insertImportedFile.run()
        linkTripsToImport.bind(1, sha256)
        linkTripsToImport.bind(2, mark)
        try linkTripsToImport.run()
    }
}
