extension TravelSchema {
    /// Plans and journeys started by hand take part in regrouping: a plan has at most one
    /// journey, and a journey's notes and photos are found by their journey. The journey list
    /// sums its trips from a covering index (20 ms on ten years, 32 through the old index);
    /// it starts with `journey_id`, so it replaces `trips_by_journey`. Both are partial: a trip
    /// enters them when it is grouped, so live tracking never writes to them.
    static let historySchema = SchemaMigration(
        "2026-11-22 plans, manual journeys, notes and photos",
        sql: """
            DROP INDEX trips_by_journey;
            CREATE INDEX trips_by_journey_totals ON trips (journey_id, end_ms, distance_m)
                WHERE journey_id IS NOT NULL;
            CREATE UNIQUE INDEX journeys_by_plan ON journeys (plan_id) WHERE plan_id IS NOT NULL;
            CREATE INDEX notes_by_journey ON notes (journey_id) WHERE journey_id IS NOT NULL;
            CREATE INDEX photos_by_journey ON photos (journey_id) WHERE journey_id IS NOT NULL;
            """
    )
}
