extension TravelSchema {
    /// Route points in integer units (`RouteUnits`): half the bytes a row of REALs takes, so half
    /// the WAL and checkpoint pages per commit. The view `route_points` keeps the columns every
    /// query and a user's own SQL read, in degrees, metres and m/s. Every stored route is
    /// converted once, in this migration's transaction, rounded and clamped as `RouteUnits.Stored`
    /// rounds and clamps a new point (NULL stays NULL).
    static let packedRouteSchema = SchemaMigration(
        "2026-11-26 packed route points",
        sql: """
            CREATE TABLE route_points_packed (
                t_ms INTEGER PRIMARY KEY,
                trip_id INTEGER NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                lat_e7 INTEGER NOT NULL,
                lon_e7 INTEGER NOT NULL,
                alt_cm INTEGER,
                speed_cm_s INTEGER,
                track_cdeg INTEGER,
                err_cm INTEGER
            ) STRICT;
            INSERT INTO route_points_packed
                SELECT t_ms, trip_id,
                    CAST(max(min(round(lat * 1e7), 2147483647), -2147483647) AS INTEGER),
                    CAST(max(min(round(lon * 1e7), 2147483647), -2147483647) AS INTEGER),
                    CAST(max(min(round(alt * 100), 2147483647), -2147483647) AS INTEGER),
                    CAST(max(min(round(speed * 100), 65535), 0) AS INTEGER),
                    CAST(max(min(round(track * 100), 65535), 0) AS INTEGER),
                    CAST(max(min(round(err * 100), 2147483647), -2147483647) AS INTEGER)
                FROM route_points ORDER BY t_ms;
            DROP TABLE route_points;
            CREATE VIEW route_points (t_ms, trip_id, lat, lon, alt, speed, track, err) AS
                SELECT t_ms, trip_id, lat_e7 / 1e7, lon_e7 / 1e7, alt_cm / 100.0, speed_cm_s / 100.0,
                    track_cdeg / 100.0, err_cm / 100.0
                FROM route_points_packed;
            """
    )
}
