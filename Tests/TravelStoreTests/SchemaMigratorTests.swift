import TestSupport
import Testing
import TravelStore

@Suite struct SchemaMigratorTests {
    static let tables = [
        "alerts", "engine_state", "imported_files", "journeys", "named_places", "notes", "photos", "places", "plans",
        "pois",
        "reminder_deliveries", "route_points_packed", "schema_migrations", "stops", "trips", "uplink_cursors",
        "zone_events",
        "zone_state",
        "zones",
    ]

    @Test func appliesEachMigrationOnceAndRecordsItsName() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        _ = try TravelDatabase(path: path)
        let connection = try SQLiteDatabase(path: path)
        #expect(try names(in: connection).first == "2026-11-21 initial schema")
        #expect(try names(in: connection) == TravelSchema.migrator.migrations.map(\.name))
        let tables = try connection.scalarText(
            "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)"
        )
        #expect(tables == Self.tables.joined(separator: ","))
        let appliedAt = try connection.scalarText("SELECT applied_at_ms FROM schema_migrations")

        // Reopening changes nothing: no migration runs again, its record is untouched.
        _ = try TravelDatabase(path: path)
        #expect(try TravelSchema.migrator.migrate(connection).isEmpty)
        #expect(try connection.scalarText("SELECT applied_at_ms FROM schema_migrations") == appliedAt)
        #expect(
            try connection.scalarText("SELECT count(*) FROM schema_migrations")
                == "\(TravelSchema.migrator.migrations.count)"
        )
    }

    @Test func appliesNewMigrationsInOrderAndRollsBackAFailingOne() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteDatabase(path: directory.file("m.sqlite"))
        let first = SchemaMigration("2026-01-01 first", sql: "CREATE TABLE a (x INTEGER)")
        let second = SchemaMigration(
            "2026-01-02 second",
            sql: "CREATE TABLE b (x INTEGER); INSERT INTO missing VALUES (1)"
        )
        #expect(try SchemaMigrator([first]).migrate(connection) == ["2026-01-01 first"])

        let error = #expect(throws: StoreError.self) { try SchemaMigrator([first, second]).migrate(connection) }
        #expect(error?.description.hasPrefix("cannot apply migration “2026-01-02 second” to ") == true)
        #expect(error?.description.hasSuffix(": no such table: missing") == true)
        #expect(try names(in: connection) == ["2026-01-01 first"])
        #expect(try connection.scalarText("SELECT name FROM sqlite_schema WHERE name = 'b'") == nil)

        let fixed = SchemaMigration("2026-01-03 fixed", sql: "CREATE TABLE b (x INTEGER)")
        #expect(try SchemaMigrator([first, fixed]).migrate(connection) == ["2026-01-03 fixed"])
    }

    @Test func vetoesAMigrationThatLeavesADanglingReference() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteDatabase(path: directory.file("m.sqlite"))
        let migrator = SchemaMigrator([
            SchemaMigration(
                "2026-01-01 dangling",
                sql: """
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE child (parent_id INTEGER REFERENCES parent (id));
                    INSERT INTO child VALUES (7);
                    """
            )
        ])
        let error = #expect(throws: StoreError.self) { try migrator.migrate(connection) }
        #expect(error?.description.contains("dangling reference in child") == true)
        #expect(try connection.scalarText("SELECT name FROM sqlite_schema WHERE name = 'child'") == nil)
        #expect(try connection.scalarText("PRAGMA foreign_keys") == "1")
    }

    @Test func refusesADatabaseUpgradedByANewerVersion() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        _ = try TravelDatabase(path: path)
        try SQLiteDatabase(path: path).execute(
            "INSERT INTO schema_migrations VALUES ('2099-01-01 from the future', 0)"
        )
        for readOnly in [false, true] {
            let error = #expect(throws: StoreError.self) { try TravelDatabase(path: path, readOnly: readOnly) }
            #expect(
                error?.description == """
                    database \(path) was upgraded by a newer version (migration “2099-01-01 from the future”); \
                    update this program
                    """
            )
        }
    }

    @Test func readOnlyOpenRefusesADatabaseThatLacksAMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        try SQLiteDatabase(path: path).execute("CREATE TABLE unrelated (x INTEGER)")
        let error = #expect(throws: StoreError.self) { try TravelDatabase(path: path, readOnly: true) }
        #expect(
            error?.description == """
                database \(path) lacks migration “2026-11-21 initial schema”; \
                open it read-write once (start the daemon) to upgrade it
                """
        )
        // Nothing was written: the reader did not even create the migrations table.
        #expect(try SQLiteDatabase(path: path).scalarText("SELECT count(*) FROM sqlite_schema") == "1")
    }

    private func names(in connection: SQLiteDatabase) throws -> [String] {
        let query = try connection.prepare("SELECT name FROM schema_migrations ORDER BY rowid")
        var names: [String] = []
        try query.forEachRow { names.append(query.text(at: 0) ?? "") }
        return names
    }
}
