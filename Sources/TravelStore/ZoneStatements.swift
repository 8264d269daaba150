import TravelCore

/// The recorder's statements for zone events, zone state and nearby alerts, compiled once per
/// connection with the trip log's (`RecorderStatements`).
struct ZoneStatements {
    private let insertZoneEvent: SQLiteStatement
    private let upsertZoneState: SQLiteStatement
    private let insertAlert: SQLiteStatement
    private let linkZoneEvents: SQLiteStatement
    private let linkAlerts: SQLiteStatement

    init(_ connection: SQLiteDatabase) throws(StoreError) {
        func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
            try connection.prepare(sql, persistent: true)
        }
        // A zone removed since the event was buffered has nothing to attach it to.
        insertZoneEvent = try prepare(
            """
            INSERT INTO zone_events (t_ms, zone_id, kind, lat, lon, trip_id, while_off)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM zones WHERE id = ?2)
            ON CONFLICT (zone_id, t_ms, kind) DO NOTHING
            """
        )
        upsertZoneState = try prepare(
            """
            INSERT INTO zone_state (zone_id, inside, since_ms)
            SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM zones WHERE id = ?1)
            ON CONFLICT (zone_id) DO UPDATE SET inside = excluded.inside, since_ms = excluded.since_ms
            """
        )
        insertAlert = try prepare(
            """
            INSERT INTO alerts (t_ms, kind, poi_id, trip_id, message, lat, lon, distance_m)
            SELECT ?1, 'nearby', ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM pois WHERE id = ?2)
            ON CONFLICT DO NOTHING
            """
        )
        // Events of a drive come before the trip is announced (it is confirmed only after some
        // distance); when it is stored, those since its back-dated start join it.
        linkZoneEvents = try prepare(
            "UPDATE zone_events SET trip_id = ?1 WHERE t_ms BETWEEN ?2 AND ?3 AND trip_id IS NULL"
        )
        linkAlerts = try prepare("UPDATE alerts SET trip_id = ?1 WHERE t_ms BETWEEN ?2 AND ?3 AND trip_id IS NULL")
    }

    /// Stores a zone event; the same event stored before is left as it is.
    func record(_ event: ZoneEvent, tripID: Int64?) throws(StoreError) {
        insertZoneEvent.bind(1, event.time.milliseconds)
        insertZoneEvent.bind(2, event.zoneID)
        insertZoneEvent.bind(3, event.kind.rawValue)
        insertZoneEvent.bind(4, event.coordinate.latitude)
        insertZoneEvent.bind(5, event.coordinate.longitude)
        insertZoneEvent.bind(6, tripID)
        insertZoneEvent.bind(7, Int64(event.whileOff ? 1 : 0))
        try insertZoneEvent.run()
    }

    /// Replaces a zone's saved inside/outside state.
    func save(_ presence: ZonePresence) throws(StoreError) {
        upsertZoneState.bind(1, presence.zoneID)
        upsertZoneState.bind(2, Int64(presence.inside ? 1 : 0))
        upsertZoneState.bind(3, presence.since.milliseconds)
        try upsertZoneState.run()
    }

    /// Stores a nearby alert; the same alert stored before is left as it is.
    func record(_ alert: NearbyAlert, tripID: Int64?) throws(StoreError) {
        insertAlert.bind(1, alert.time.milliseconds)
        insertAlert.bind(2, alert.poiID)
        insertAlert.bind(3, tripID)
        insertAlert.bind(4, alert.message)
        insertAlert.bind(5, alert.coordinate.latitude)
        insertAlert.bind(6, alert.coordinate.longitude)
        insertAlert.bind(7, alert.distance)
        try insertAlert.run()
    }

    /// Attaches the zone events and alerts of `[start, through]` that have no trip to trip `id`.
    func link(toTrip id: Int64, from start: UTCTime, through end: UTCTime) throws(StoreError) {
        for statement in [linkZoneEvents, linkAlerts] {
            statement.bind(1, id)
            statement.bind(2, start.milliseconds)
            statement.bind(3, end.milliseconds)
            try statement.run()
        }
    }
}
