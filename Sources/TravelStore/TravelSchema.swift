/// The database schema as the list of every migration ever shipped. Append; never edit or reorder
/// (docs/schema.md describes each table and column).
///
/// Conventions: times are integer milliseconds since the Unix epoch, UTC (`_ms`); distances are
/// metres (`_m`); durations seconds (`_s`); speeds m/s; coordinates WGS84 degrees; booleans 0/1.
/// Tables are STRICT, so SQLite rejects a value of the wrong type instead of storing it.
///
/// `route_points` is keyed by time alone (one vehicle is never in two places at once): its rowid
/// is `t_ms`, so live tracking appends to the right edge of one B-tree, which SQLite does by
/// adding a page rather than rebalancing, and a trip's route is one contiguous range read. No
/// index on `trip_id`: each index would add pages to every flush (docs/schema.md has the figures).
package enum TravelSchema {
    /// The migrator for this version of the program.
    package static let migrator = SchemaMigrator([
        initialSchema, historySchema, zonesSchema, remindersSchema, importLinkSchema, namedPlacesSchema, uplinksSchema,
        packedRouteSchema,
    ])

    static let initialSchema = SchemaMigration(
        "2026-11-21 initial schema",
        sql: """
            CREATE TABLE plans (
                id INTEGER PRIMARY KEY,
                destination TEXT NOT NULL,
                from_date TEXT NOT NULL,
                to_date TEXT NOT NULL,
                type TEXT,
                CHECK (from_date <= to_date)
            ) STRICT;

            CREATE TABLE journeys (
                id INTEGER PRIMARY KEY,
                start_ms INTEGER NOT NULL,
                end_ms INTEGER,
                type TEXT,
                destination TEXT,
                plan_id INTEGER REFERENCES plans (id) ON DELETE SET NULL,
                manual INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1)),
                notes TEXT
            ) STRICT;
            CREATE INDEX journeys_by_start ON journeys (start_ms);

            CREATE TABLE trips (
                id INTEGER PRIMARY KEY,
                start_ms INTEGER NOT NULL UNIQUE,
                end_ms INTEGER NOT NULL,
                start_lat REAL NOT NULL,
                start_lon REAL NOT NULL,
                end_lat REAL NOT NULL,
                end_lon REAL NOT NULL,
                distance_m REAL NOT NULL DEFAULT 0,
                moving_s REAL NOT NULL DEFAULT 0,
                max_speed REAL NOT NULL DEFAULT 0,
                point_count INTEGER NOT NULL DEFAULT 0,
                end_reason TEXT,
                start_place TEXT,
                end_place TEXT,
                journey_id INTEGER REFERENCES journeys (id) ON DELETE SET NULL
            ) STRICT;
            CREATE INDEX trips_by_journey ON trips (journey_id) WHERE journey_id IS NOT NULL;

            CREATE TABLE route_points (
                t_ms INTEGER PRIMARY KEY,
                trip_id INTEGER NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                alt REAL,
                speed REAL,
                track REAL,
                err REAL
            ) STRICT;

            CREATE TABLE stops (
                id INTEGER PRIMARY KEY,
                arrival_ms INTEGER NOT NULL UNIQUE,
                departure_ms INTEGER,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                place TEXT,
                trip_before INTEGER REFERENCES trips (id) ON DELETE SET NULL,
                trip_after INTEGER REFERENCES trips (id) ON DELETE SET NULL
            ) STRICT;

            CREATE TABLE places (
                id INTEGER PRIMARY KEY,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                label TEXT,
                visits INTEGER NOT NULL DEFAULT 0
            ) STRICT;
            CREATE INDEX places_by_position ON places (lat, lon);

            CREATE TABLE engine_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                snapshot TEXT NOT NULL,
                counters TEXT NOT NULL,
                updated_ms INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE imported_files (
                sha256 TEXT PRIMARY KEY,
                path TEXT NOT NULL,
                bytes INTEGER NOT NULL,
                imported_at_ms INTEGER NOT NULL,
                fixes INTEGER NOT NULL,
                trips INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE notes (
                id INTEGER PRIMARY KEY,
                t_ms INTEGER NOT NULL,
                text TEXT NOT NULL,
                lat REAL,
                lon REAL,
                journey_id INTEGER REFERENCES journeys (id) ON DELETE SET NULL
            ) STRICT;
            CREATE INDEX notes_by_time ON notes (t_ms);

            CREATE TABLE photos (
                id INTEGER PRIMARY KEY,
                t_ms INTEGER NOT NULL,
                path TEXT NOT NULL,
                sha256 TEXT NOT NULL UNIQUE,
                lat REAL,
                lon REAL,
                journey_id INTEGER REFERENCES journeys (id) ON DELETE SET NULL
            ) STRICT;
            CREATE INDEX photos_by_time ON photos (t_ms);

            CREATE TABLE zones (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                role TEXT,
                kind TEXT NOT NULL CHECK (kind IN ('circle', 'polygon')),
                geometry TEXT NOT NULL,
                radius_m REAL,
                CHECK ((kind = 'circle') = (radius_m IS NOT NULL))
            ) STRICT;

            CREATE TABLE zone_events (
                id INTEGER PRIMARY KEY,
                t_ms INTEGER NOT NULL,
                zone_id INTEGER NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('enter', 'exit')),
                lat REAL,
                lon REAL,
                trip_id INTEGER REFERENCES trips (id) ON DELETE SET NULL,
                while_off INTEGER NOT NULL DEFAULT 0 CHECK (while_off IN (0, 1)),
                UNIQUE (zone_id, t_ms, kind)
            ) STRICT;
            CREATE INDEX zone_events_by_time ON zone_events (t_ms);

            CREATE TABLE zone_state (
                zone_id INTEGER PRIMARY KEY REFERENCES zones (id) ON DELETE CASCADE,
                inside INTEGER NOT NULL CHECK (inside IN (0, 1)),
                since_ms INTEGER
            ) STRICT;

            CREATE TABLE pois (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                category TEXT,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                source TEXT,
                UNIQUE (name, lat, lon)
            ) STRICT;
            CREATE INDEX pois_by_position ON pois (lat, lon);

            CREATE TABLE alerts (
                id INTEGER PRIMARY KEY,
                t_ms INTEGER NOT NULL,
                kind TEXT NOT NULL,
                poi_id INTEGER REFERENCES pois (id) ON DELETE SET NULL,
                zone_id INTEGER REFERENCES zones (id) ON DELETE SET NULL,
                trip_id INTEGER REFERENCES trips (id) ON DELETE SET NULL,
                message TEXT NOT NULL,
                delivered_ms INTEGER
            ) STRICT;
            CREATE INDEX alerts_by_time ON alerts (t_ms);
            CREATE INDEX alerts_by_poi ON alerts (poi_id, t_ms) WHERE poi_id IS NOT NULL;
            """
    )
}
