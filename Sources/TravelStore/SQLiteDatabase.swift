internal import CSQLite

/// A SQLite connection on the system libsqlite3, opened the way a logger on an SD card needs it:
/// WAL journal, `synchronous=NORMAL`, `secure_delete` off.
package final class SQLiteDatabase {
    private let handle: OpaquePointer
    /// The file this connection was opened on.
    package let path: String

    /// Opens (creating if needed) the database at `path`.
    package init(path: String) throws(StoreError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, reason: message)
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=OFF;")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw .statementFailed(sql: sql, reason: message)
        }
    }

    /// The first column of the first row of `sql` as text, or `nil` when there is no row.
    package func scalarText(_ sql: String) throws(StoreError) -> String? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw .statementFailed(sql: sql, reason: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            return sqlite3_column_text(statement, 0).map { String(cString: $0) }
        case SQLITE_DONE:
            return nil
        default:
            throw .statementFailed(sql: sql, reason: String(cString: sqlite3_errmsg(handle)))
        }
    }
}

/// Why a store operation failed, worded for the one-line error a CLI prints.
package enum StoreError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case statementFailed(sql: String, reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open database \(path): \(reason)"
        case .statementFailed(let sql, let reason): "database error: \(reason) (in \(sql.prefix(60)))"
        }
    }
}
