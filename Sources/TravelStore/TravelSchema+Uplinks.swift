extension TravelSchema {
    /// Where each uplink stands in the history it sends (docs/uplink.md): one row per uplink and
    /// stream, written by the commits that moved it, never one per point sent. The partial index
    /// lets an uplink find the trips that ended after its cursor without reading every trip.
    static let uplinksSchema = SchemaMigration(
        "2026-11-25 uplink cursors",
        sql: """
            CREATE TABLE uplink_cursors (
                uplink TEXT NOT NULL,
                stream TEXT NOT NULL,
                key_ms INTEGER NOT NULL,
                PRIMARY KEY (uplink, stream)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX trips_by_end ON trips (end_ms) WHERE end_reason IS NOT NULL;
            """
    )
}
