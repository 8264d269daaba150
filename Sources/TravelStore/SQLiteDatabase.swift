internal import CSQLite

/// A SQLite connection on the system libsqlite3, opened the way a logger on an SD card needs it:
/// WAL journal, `synchronous=NORMAL`, `secure_delete` off (docs/schema.md explains each choice).
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: one owner at a time, so it is deliberately not `Sendable`.
package final class SQLiteDatabase {
    let handle: OpaquePointer
    /// The file this connection was opened on.
    package let path: String

    /// Opens the database at `path`; read-write opens create the file if needed, read-only opens
    /// leave the file exactly as they found it (no journal-mode change, no schema change).
    package init(path: String, readOnly: Bool = false) throws(StoreError) {
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let rc = sqlite3_open_v2(path, &db, access | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, reason: message)
        }
        handle = db
        self.path = path
        // A reader waits out a writer's checkpoint; a writer waits out the other writer's flush.
        sqlite3_busy_timeout(db, 5000)
        // Both branches read the header, so "not a database" is reported here as an open error.
        let setup =
            readOnly
            ? "PRAGMA schema_version"
            : """
            PRAGMA page_size = \(Self.pageSize); PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            PRAGMA secure_delete = OFF;
            PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = \(Self.walSizeLimit);
            """
        do {
            try execute(setup)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
    }

    /// Page size of a new database (an existing one keeps its own). Every commit appends each page
    /// it changed to the WAL, so a flush of five route points costs two or three pages whatever
    /// their size: 1 KiB pages write about a third of what the 4 KiB default does per hour of
    /// tracking (docs/schema.md has the figures), for a slightly deeper B-tree.
    static let pageSize = 1024

    /// Bytes the WAL file is truncated to after a checkpoint: above what live tracking fills
    /// between auto-checkpoints (1000 pages), so it keeps reusing the same WAL blocks, while the
    /// WAL a large import batch grew is given back.
    static let walSizeLimit = 4 << 20

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(error)
            throw .statementFailed(sql: sql, reason: message)
        }
    }

    /// Compiles `sql` once for repeated use. `persistent` tells SQLite the statement lives long
    /// (the recorder's), so it is kept out of the short-lived lookaside memory.
    package func prepare(_ sql: String, persistent: Bool = false) throws(StoreError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql, persistent: persistent)
    }

    /// The first column of the first row of `sql` as text, or `nil` when there is no row.
    package func scalarText(_ sql: String) throws(StoreError) -> String? {
        let statement = try prepare(sql)
        return try statement.firstRow { statement.text(at: 0) } ?? nil
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` transaction, rolled back if anything throws.
    /// IMMEDIATE takes the write lock up front, so another writer makes BEGIN wait (up to the busy
    /// timeout) instead of failing the transaction half-way.
    package func inTransaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Also after a failed COMMIT, which leaves the transaction open.
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// SQLite's message for the last failed call on this connection.
    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
