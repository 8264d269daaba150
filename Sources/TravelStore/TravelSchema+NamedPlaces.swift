extension TravelSchema {
    /// The places the user named (`travelctl place name`), and home as "Home" (`learned` 1: written
    /// when journeys are regrouped, replaced by a place the user names "Home"). A table of its own
    /// rather than the unused `places` of clustered stops: a name has a radius and an owner, a
    /// cluster neither. Journeys keep where their destination is, so its label is read through
    /// today's zones and names rather than frozen when they were grouped (NULL until regrouped).
    static let namedPlacesSchema = SchemaMigration(
        "2026-11-25 named places and journey destinations",
        sql: """
            CREATE TABLE named_places (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                radius_m REAL NOT NULL CHECK (radius_m > 0),
                learned INTEGER NOT NULL DEFAULT 0 CHECK (learned IN (0, 1))
            ) STRICT;
            ALTER TABLE journeys ADD COLUMN destination_lat REAL;
            ALTER TABLE journeys ADD COLUMN destination_lon REAL;
            """
    )
}
