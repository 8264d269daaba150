/// One step of the schema, identified by its name. Once a migration has shipped, its name and SQL
/// never change: databases in the field recorded it as applied, so a fix is a new migration.
package struct SchemaMigration: Sendable {
    /// Unique, and dated so the list reads as history: `"2026-11-21 initial schema"`.
    package var name: String
    /// One or more statements, run together in the migration's own transaction.
    package var sql: String

    package init(_ name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}

/// Brings a database to the current schema by applying, in order, each migration it lacks, and
/// records each by name in `schema_migrations` in the same transaction as its changes.
package struct SchemaMigrator: Sendable {
    /// Every migration ever shipped, oldest first.
    package var migrations: [SchemaMigration]

    package init(_ migrations: [SchemaMigration]) { self.migrations = migrations }

    /// Applies the migrations `database` lacks and returns their names (empty when it was current).
    ///
    /// Foreign keys are off while migrating, so a later migration may rebuild a table the way
    /// SQLite documents (create, copy, drop, rename); `PRAGMA foreign_key_check` then vetoes any
    /// migration that leaves a dangling reference.
    @discardableResult
    package func migrate(_ database: SQLiteDatabase) throws(StoreError) -> [String] {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name TEXT PRIMARY KEY,
                applied_at_ms INTEGER NOT NULL
            ) STRICT
            """
        )
        var pending = try pendingMigrations(in: database)
        guard !pending.isEmpty else { return [] }
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        let record = try database.prepare("INSERT INTO schema_migrations (name, applied_at_ms) VALUES (?, ?)")
        var applied: [String] = []
        while !pending.isEmpty {
            let migration = pending.removeFirst()
            do {
                let wasApplied = try database.inTransaction { () throws(StoreError) -> Bool in
                    // Another process may have migrated since we looked; under the write lock this check is final.
                    guard try !isApplied(migration.name, in: database) else { return false }
                    try database.execute(migration.sql)
                    if let violation = try database.scalarText("PRAGMA foreign_key_check") {
                        throw .statementFailed(
                            sql: migration.sql,
                            reason: "leaves a dangling reference in \(violation)"
                        )
                    }
                    record.bind(1, migration.name)
                    record.bind(2, Platform.wallClockMilliseconds())
                    try record.run()
                    return true
                }
                if wasApplied { applied.append(migration.name) }
            } catch {
                throw .migrationFailed(name: migration.name, path: database.path, reason: error.reason)
            }
        }
        return applied
    }

    /// The migrations `database` lacks, in order, without changing anything (so it works on a
    /// read-only connection). Throws `newerSchema` when the database has a migration this list
    /// does not know: writing to it could break the newer program's invariants.
    package func pendingMigrations(in database: SQLiteDatabase) throws(StoreError) -> [SchemaMigration] {
        let hasTable = try database.scalarText(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        )
        guard hasTable != nil else { return migrations }
        var applied: Set<String> = []
        let names = try database.prepare("SELECT name FROM schema_migrations")
        try names.forEachRow { applied.insert(names.text(at: 0) ?? "") }
        let known = Set(migrations.map(\.name))
        if let unknown = applied.subtracting(known).sorted().last {
            throw .newerSchema(path: database.path, migration: unknown)
        }
        return migrations.filter { !applied.contains($0.name) }
    }

    private func isApplied(_ name: String, in database: SQLiteDatabase) throws(StoreError) -> Bool {
        let query = try database.prepare("SELECT 1 FROM schema_migrations WHERE name = ?")
        query.bind(1, name)
        return try query.firstRow { true } ?? false
    }
}
