import TestSupport
import Testing
import TravelStore

@Suite struct SQLiteDatabaseTests {
    @Test func opensInWALModeWithSafeSettings() throws {
        let directory = try TemporaryDirectory()
        let db = try SQLiteDatabase(path: directory.file("t.sqlite"))
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarText("PRAGMA synchronous") == "1")
        #expect(try db.scalarText("PRAGMA secure_delete") == "0")
        #expect(try db.scalarText("PRAGMA foreign_keys") == "1")
    }

    @Test func reportsAnUnopenablePath() {
        #expect(throws: StoreError.self) { try SQLiteDatabase(path: "/nonexistent-dir/x/y.sqlite") }
    }

    @Test func rollsBackATransactionThatThrows() throws {
        let directory = try TemporaryDirectory()
        let db = try SQLiteDatabase(path: directory.file("t.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: StoreError.self) {
            try db.inTransaction { () throws(StoreError) in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO missing VALUES (1)")
            }
        }
        #expect(try db.scalarText("SELECT count(*) FROM t") == "0")
    }

    @Test func describesFailuresOnOneLine() throws {
        let directory = try TemporaryDirectory()
        let db = try SQLiteDatabase(path: directory.file("t.sqlite"))
        let error = #expect(throws: StoreError.self) { try db.execute("SELECT *\n  FROM missing") }
        #expect(error?.description == "database error: no such table: missing (in SELECT * FROM missing)")
    }
}
