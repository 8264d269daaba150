package import TravelDecoding
internal import TravelCore

// POI imports, staged: the POIs of one import are gathered in a temporary table of this
// connection, over as many calls as needed (the control socket's messages are limited to
// 1 MiB), and reach `pois` only when the import is committed. An import never committed leaves
// `pois` as it was; its staged rows vanish when it is discarded or the connection closes.
//
// The commit moves the staged rows in transactions of `poiCommitBatch`: a million POIs take
// tens of seconds to index into `pois`, and one transaction would hold every other writer
// (the tracking pipeline's flush) that long. Readers may see an import partly added while it
// commits; a commit cut off (power lost) keeps the part moved, and importing the same file
// again adds the rest, since a POI with the same name and position is stored once.
extension TravelDatabase {
    /// Adds POIs in one transaction; a POI with the same name and position is kept once.
    /// Returns how many were new. (`beginPOIImport`, one `stagePOIs` and `commitPOIImport`.)
    package func addPOIs(_ drafts: [POIDraft], source: String?) throws(StoreError) -> Int {
        let id = try beginPOIImport()
        _ = try stagePOIs(drafts, into: id)
        var added = 0
        while let step = try commitPOIImport(id, source: source) {
            added += step.added
            if step.isComplete { break }
        }
        return added
    }

    /// How many staged POIs one commit transaction moves into `pois`.
    package static let poiCommitBatch = 5_000

    /// Starts an import and returns its id, unique on this connection.
    package func beginPOIImport() throws(StoreError) -> Int64 {
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS poi_imports (id INTEGER PRIMARY KEY, staged INTEGER NOT NULL);
            CREATE TEMP TABLE IF NOT EXISTS poi_staging (
                import_id INTEGER NOT NULL, name TEXT NOT NULL, category TEXT, lat REAL NOT NULL, lon REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS temp.poi_staging_import ON poi_staging (import_id);
            """
        )
        let insert = try connection.prepare("INSERT INTO temp.poi_imports (staged) VALUES (0) RETURNING id")
        guard let id = try insert.firstRow({ insert.int64(at: 0) }) else {
            throw .statementFailed(sql: "INSERT INTO poi_imports", reason: "no id returned")
        }
        return id
    }

    /// Adds `drafts` to import `id` and returns how many it holds now; `nil` when there is no
    /// such import (never begun, committed or discarded). Only the temporary table is written:
    /// the database's writers (the tracking pipeline) are not held up.
    package func stagePOIs(_ drafts: [POIDraft], into id: Int64) throws(StoreError) -> Int? {
        guard try stagedCount(id) != nil else { return nil }
        try connection.execute("BEGIN")
        do {
            let insert = try connection.prepare(
                "INSERT INTO temp.poi_staging (import_id, name, category, lat, lon) VALUES (?1, ?2, ?3, ?4, ?5)"
            )
            for draft in drafts {
                insert.bind(1, id)
                insert.bind(2, draft.name)
                insert.bind(3, draft.category)
                insert.bind(4, draft.coordinate.latitude)
                insert.bind(5, draft.coordinate.longitude)
                try insert.run()
            }
            let count = try connection.prepare("UPDATE temp.poi_imports SET staged = staged + ?2 WHERE id = ?1")
            count.bind(1, id)
            count.bind(2, Int64(drafts.count))
            try count.run()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return try stagedCount(id)
    }

    /// How many POIs import `id` holds, or `nil` when there is no such import.
    package func stagedCount(_ id: Int64) throws(StoreError) -> Int? {
        guard try hasImportTables() else { return nil }
        let query = try connection.prepare("SELECT staged FROM temp.poi_imports WHERE id = ?1")
        query.bind(1, id)
        return try query.firstRow { Int(query.int64(at: 0)) }
    }

    /// Moves up to `poiCommitBatch` of import `id`'s POIs into `pois`, in one transaction (a POI
    /// with the same name and position is kept once), and ends the import with its last ones.
    /// Returns how many of them were new and whether the import is complete; `nil` when there
    /// is no such import. Call it until complete.
    package func commitPOIImport(
        _ id: Int64,
        source: String?
    ) throws(StoreError) -> (added: Int, isComplete: Bool)? {
        guard try stagedCount(id) != nil else { return nil }
        return try connection.inTransaction { () throws(StoreError) -> (added: Int, isComplete: Bool) in
            let batch = "SELECT rowid FROM temp.poi_staging WHERE import_id = ?1 ORDER BY rowid LIMIT ?2"
            // The WHERE tells SQLite's parser that ON CONFLICT belongs to the INSERT.
            let insert = try connection.prepare(
                """
                INSERT INTO pois (name, category, lat, lon, source)
                SELECT name, category, lat, lon, ?3 FROM temp.poi_staging WHERE rowid IN (\(batch)) ORDER BY rowid
                ON CONFLICT (name, lat, lon) DO NOTHING
                """
            )
            insert.bind(1, id)
            insert.bind(2, Int64(Self.poiCommitBatch))
            insert.bind(3, source)
            try insert.run()
            let inserted = try connection.prepare("SELECT changes()")
            let added = Int(try inserted.firstRow { inserted.int64(at: 0) } ?? 0)
            let moved = try connection.prepare("DELETE FROM temp.poi_staging WHERE rowid IN (\(batch))")
            moved.bind(1, id)
            moved.bind(2, Int64(Self.poiCommitBatch))
            try moved.run()
            let left = try connection.prepare("SELECT 1 FROM temp.poi_staging WHERE import_id = ?1 LIMIT 1")
            left.bind(1, id)
            guard try left.firstRow({ true }) == nil else { return (added, false) }
            try discardStaged(id)
            return (added, true)
        }
    }

    /// Ends import `id` without adding anything.
    package func discardPOIImport(_ id: Int64) throws(StoreError) {
        guard try hasImportTables() else { return }
        try discardStaged(id)
    }

    private func discardStaged(_ id: Int64) throws(StoreError) {
        for sql in ["DELETE FROM temp.poi_staging WHERE import_id = ?1", "DELETE FROM temp.poi_imports WHERE id = ?1"] {
            let statement = try connection.prepare(sql)
            statement.bind(1, id)
            try statement.run()
        }
    }

    private func hasImportTables() throws(StoreError) -> Bool {
        let query = try connection.prepare("SELECT 1 FROM temp.sqlite_master WHERE name = 'poi_imports'")
        return try query.firstRow { true } ?? false
    }
}
