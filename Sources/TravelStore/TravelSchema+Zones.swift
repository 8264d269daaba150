extension TravelSchema {
    /// Nearby alerts keep where the vehicle was, and are stored once: a restarted daemon that
    /// replays its last route points, or a log imported twice, cannot add an alert twice.
    static let zonesSchema = SchemaMigration(
        "2026-11-22 zone events and nearby alerts",
        sql: """
            ALTER TABLE alerts ADD COLUMN lat REAL;
            ALTER TABLE alerts ADD COLUMN lon REAL;
            ALTER TABLE alerts ADD COLUMN distance_m REAL;
            CREATE UNIQUE INDEX alerts_once ON alerts (kind, poi_id, t_ms) WHERE poi_id IS NOT NULL;
            CREATE INDEX zone_events_by_trip ON zone_events (trip_id) WHERE trip_id IS NOT NULL;
            CREATE INDEX pois_by_category ON pois (category, name);
            """
    )
}
