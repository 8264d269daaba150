package import TravelCore
internal import TravelFormats

// Zones, POIs and their events: what `travelctl zone|poi|events` reads and writes, and what
// the recorder loads to watch them.
extension TravelDatabase {
    /// The id of the stored trip starting at `start`, if any.
    func storedTripID(startingAt start: UTCTime?, _ statements: RecorderStatements) throws(StoreError) -> Int64? {
        guard let start else { return nil }
        return try statements.findTrip(startingAt: start)
    }

    // MARK: Zones

    /// Adds a zone and returns its id, or `nil` when a zone of that name exists. `inside`, when
    /// known (the vehicle's last position), is saved as its state, so a zone drawn around the
    /// parked vehicle starts inside without an enter.
    package func addZone(
        name: String,
        role: String?,
        shape: ZoneShape,
        inside: (Bool, since: UTCTime)? = nil
    ) throws(StoreError) -> Int64? {
        try connection.inTransaction { () throws(StoreError) -> Int64? in
            let existing = try connection.prepare("SELECT id FROM zones WHERE name = ?1")
            existing.bind(1, name)
            if try existing.firstRow({ existing.int64(at: 0) }) != nil { return nil }
            let insert = try connection.prepare(
                "INSERT INTO zones (name, role, kind, geometry, radius_m) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id"
            )
            insert.bind(1, name)
            insert.bind(2, role)
            insert.bind(3, shape.kind)
            insert.bind(4, shape.geoJSON.serializedString())
            if case .circle(_, let radius) = shape { insert.bind(5, radius) } else { insert.bind(5, nil as Double?) }
            guard let id = try insert.firstRow({ insert.int64(at: 0) }) else { return nil }
            if let (isInside, since) = inside {
                let state = try connection.prepare(
                    "INSERT INTO zone_state (zone_id, inside, since_ms) VALUES (?1, ?2, ?3)"
                )
                state.bind(1, id)
                state.bind(2, Int64(isInside ? 1 : 0))
                state.bind(3, since.milliseconds)
                try state.run()
            }
            return id
        }
    }

    /// Every zone with its saved state, by id.
    package func zoneRecords() throws(StoreError) -> [ZoneRecord] {
        let query = try connection.prepare(
            """
            SELECT z.id, z.name, z.role, z.geometry, z.radius_m, s.inside, s.since_ms
            FROM zones z LEFT JOIN zone_state s ON s.zone_id = z.id ORDER BY z.id
            """
        )
        var records: [ZoneRecord] = []
        try query.forEachRow { () throws(StoreError) in
            let text = query.text(at: 3) ?? ""
            guard let geometry = try? JSONValue(parsing: text),
                let shape = ZoneShape(geoJSON: geometry, radius: query.optionalDouble(at: 4))
            else { throw .unexpectedValue(column: "zones.geometry", value: String(text.prefix(40))) }
            let zone = Zone(
                id: query.int64(at: 0),
                name: query.text(at: 1) ?? "",
                role: query.text(at: 2),
                shape: shape
            )
            records.append(
                ZoneRecord(
                    zone: zone,
                    inside: query.optionalInt64(at: 5).map { $0 == 1 },
                    since: query.optionalInt64(at: 6).map(UTCTime.init(milliseconds:))
                )
            )
        }
        return records
    }

    /// Removes the zone named `nameOrID` (a name first, then an id) with its events and state;
    /// returns it, or `nil` when there is none.
    package func removeZone(_ nameOrID: String) throws(StoreError) -> Zone? {
        let records = try zoneRecords()
        guard
            let zone = records.first(where: { $0.zone.name == nameOrID })?.zone
                ?? Int64(nameOrID).flatMap({ id in records.first { $0.zone.id == id }?.zone })
        else { return nil }
        try connection.inTransaction { () throws(StoreError) in
            for sql in [
                "DELETE FROM zone_events WHERE zone_id = ?1", "DELETE FROM zone_state WHERE zone_id = ?1",
                "DELETE FROM zones WHERE id = ?1",
            ] {
                let statement = try connection.prepare(sql)
                statement.bind(1, zone.id)
                try statement.run()
            }
        }
        return zone
    }

    /// The last accepted position the store knows: the latest of the daemon's saved last fix, the
    /// last route point and the last stop.
    package func lastKnownPosition() throws(StoreError) -> (time: UTCTime, coordinate: Coordinate)? {
        var saved: (time: UTCTime, coordinate: Coordinate)?
        if let last = try loadEngineState()?.snapshot["lastAccepted"], let t = last["t"]?.doubleValue,
            let latitude = last["lat"]?.doubleValue, let longitude = last["lon"]?.doubleValue
        {
            saved = (UTCTime(milliseconds: Int64(t)), Coordinate(latitude: latitude, longitude: longitude))
        }
        let stored = try lastStoredPosition()
        guard let saved else { return stored }
        guard let stored else { return saved }
        return stored.time > saved.time ? stored : saved
    }

    private func lastStoredPosition() throws(StoreError) -> (time: UTCTime, coordinate: Coordinate)? {
        let query = try connection.prepare(
            """
            SELECT t, lat, lon FROM (
                SELECT t_ms AS t, lat, lon FROM route_points WHERE t_ms = (SELECT max(t_ms) FROM route_points)
                UNION ALL
                SELECT arrival_ms, lat, lon FROM stops WHERE arrival_ms = (SELECT max(arrival_ms) FROM stops)
            ) ORDER BY t DESC LIMIT 1
            """
        )
        return try query.firstRow {
            (
                UTCTime(milliseconds: query.int64(at: 0)),
                Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2))
            )
        }
    }

    // MARK: POIs

    /// POIs of `category` (all when `nil`), by name; with `near`, only those within `radius`
    /// metres of it, nearest first.
    package func poiRecords(
        category: String? = nil,
        near: Coordinate? = nil,
        radius: Double = 5_000
    ) throws(StoreError) -> [POIRecord] {
        var sql = "SELECT id, name, category, lat, lon, source FROM pois WHERE (?1 IS NULL OR category = ?1)"
        if near != nil { sql += " AND lat BETWEEN ?2 AND ?3 AND lon BETWEEN ?4 AND ?5" }
        let query = try connection.prepare(sql + " ORDER BY name, id")
        query.bind(1, category)
        if let near {
            let frame = PlanarFrame(at: near)
            let dLat = radius / frame.metresPerDegreeLatitude
            let dLon = radius / max(frame.metresPerDegreeLongitude, 1)
            query.bind(2, near.latitude - dLat)
            query.bind(3, near.latitude + dLat)
            query.bind(4, near.longitude - dLon)
            query.bind(5, near.longitude + dLon)
        }
        var records: [POIRecord] = []
        try query.forEachRow {
            let poi = Self.poi(query)
            records.append(
                POIRecord(
                    poi: poi,
                    source: query.text(at: 5),
                    distance: near.map { Geodesy.distance($0, poi.coordinate) }
                )
            )
        }
        guard near != nil else { return records }
        return records.filter { $0.distance! <= radius }.sorted { $0.distance! < $1.distance! }
    }

    /// The POIs inside the box from `southWest` to `northEast`, by id.
    package func pois(from southWest: Coordinate, to northEast: Coordinate) throws(StoreError) -> [POI] {
        let query = try connection.prepare(
            "SELECT id, name, category, lat, lon FROM pois WHERE lat BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?4 ORDER BY id"
        )
        query.bind(1, southWest.latitude)
        query.bind(2, northEast.latitude)
        query.bind(3, southWest.longitude)
        query.bind(4, northEast.longitude)
        var pois: [POI] = []
        try query.forEachRow { pois.append(Self.poi(query)) }
        return pois
    }

    /// The POI of a row whose first columns are `id, name, category, lat, lon`.
    private static func poi(_ row: SQLiteStatement) -> POI {
        POI(
            id: row.int64(at: 0),
            name: row.text(at: 1) ?? "",
            category: row.text(at: 2),
            coordinate: Coordinate(latitude: row.double(at: 3), longitude: row.double(at: 4))
        )
    }

    /// The last nearby alert per POI since `since`, for the cooldowns of a restarted daemon.
    package func lastAlerts(since: UTCTime) throws(StoreError) -> [Int64: UTCTime] {
        let query = try connection.prepare(
            "SELECT poi_id, max(t_ms) FROM alerts WHERE kind = 'nearby' AND poi_id IS NOT NULL AND t_ms >= ?1 GROUP BY poi_id"
        )
        query.bind(1, since.milliseconds)
        var last: [Int64: UTCTime] = [:]
        try query.forEachRow { last[query.int64(at: 0)] = UTCTime(milliseconds: query.int64(at: 1)) }
        return last
    }

    // MARK: Events

    /// Zone events and nearby alerts in `[since, until)`, oldest first; `zone` keeps one zone's
    /// events, `poi` one POI's alerts (by name), `kind` one kind (`enter`, `exit`, `nearby`).
    package func placeEvents(
        since: UTCTime? = nil,
        until: UTCTime? = nil,
        zone: String? = nil,
        poi: String? = nil,
        kind: String? = nil
    ) throws(StoreError) -> [PlaceEventRecord] {
        let query = try connection.prepare(
            """
            SELECT * FROM (
                SELECT e.t_ms, e.kind, e.zone_id, z.name, NULL, e.lat, e.lon, e.trip_id, e.while_off, NULL, t.start_ms
                FROM zone_events e JOIN zones z ON z.id = e.zone_id LEFT JOIN trips t ON t.id = e.trip_id
                WHERE e.t_ms >= ?1 AND e.t_ms < ?2 AND (?3 IS NULL OR z.name = ?3) AND ?5 IS NULL
                UNION ALL
                SELECT a.t_ms, a.kind, a.poi_id, p.name, p.category, a.lat, a.lon, a.trip_id, 0, a.distance_m,
                    t.start_ms
                FROM alerts a LEFT JOIN pois p ON p.id = a.poi_id LEFT JOIN trips t ON t.id = a.trip_id
                WHERE a.t_ms >= ?1 AND a.t_ms < ?2 AND ?3 IS NULL AND (?5 IS NULL OR p.name = ?5)
            ) WHERE ?4 IS NULL OR kind = ?4
            ORDER BY 1, 2
            """
        )
        query.bind(1, since?.milliseconds ?? .min)
        query.bind(2, until?.milliseconds ?? .max)
        query.bind(3, zone)
        query.bind(4, kind)
        query.bind(5, poi)
        var events: [PlaceEventRecord] = []
        try query.forEachRow {
            let time = UTCTime(milliseconds: query.int64(at: 0))
            let coordinate = Coordinate(
                latitude: query.optionalDouble(at: 5) ?? 0,
                longitude: query.optionalDouble(at: 6) ?? 0
            )
            let tripStart = query.optionalInt64(at: 10).map(UTCTime.init(milliseconds:))
            let event: PlaceEventRecord.Event
            if let zoneKind = query.text(at: 1).flatMap(ZoneEvent.Kind.init(rawValue:)) {
                event = .zone(
                    ZoneEvent(
                        time: time,
                        zoneID: query.int64(at: 2),
                        zoneName: query.text(at: 3) ?? "",
                        kind: zoneKind,
                        coordinate: coordinate,
                        tripStart: tripStart,
                        whileOff: query.int64(at: 8) == 1
                    )
                )
            } else {
                event = .nearby(
                    NearbyAlert(
                        time: time,
                        poiID: query.optionalInt64(at: 2) ?? 0,
                        poiName: query.text(at: 3) ?? "",
                        category: query.text(at: 4),
                        coordinate: coordinate,
                        distance: query.optionalDouble(at: 9) ?? 0,
                        tripStart: tripStart
                    )
                )
            }
            events.append(PlaceEventRecord(event: event, tripID: query.optionalInt64(at: 7)))
        }
        return events
    }

    /// Whether a zone or POI (`table`: `zones` or `pois`) is named `name`.
    func hasPlace(named name: String, in table: String) throws(StoreError) -> Bool {
        let query = try connection.prepare("SELECT 1 FROM \(table) WHERE name = ?1 LIMIT 1")
        query.bind(1, name)
        var found = false
        try query.forEachRow { found = true }
        return found
    }
}
