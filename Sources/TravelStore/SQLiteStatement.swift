internal import CSQLite

/// A compiled statement, reused with new bindings: the recorder binds and steps the same few
/// statements for every route point, which is what makes batched inserts cheap.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Keeps the connection open for as long as the statement exists.
    private let connection: SQLiteDatabase
    private let sql: String

    init(connection: SQLiteDatabase, sql: String, persistent: Bool) throws(StoreError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        guard sqlite3_prepare_v3(connection.handle, sql, -1, flags, &statement, nil) == SQLITE_OK, let statement
        else {
            throw .statementFailed(sql: sql, reason: connection.lastErrorMessage)
        }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameter `index` (1-based); `nil` binds NULL.
    package func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds parameter `index` (1-based); `nil` and NaN bind NULL.
    package func bind(_ index: Int32, _ value: Double?) {
        if let value, !value.isNaN {
            sqlite3_bind_double(handle, index, value)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    /// Binds parameter `index` (1-based); `nil` binds NULL. SQLite copies the text.
    package func bind(_ index: Int32, _ value: String?) {
        if let value {
            sqlite3_bind_text(handle, index, value, -1, Self.transient)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    /// Advances to the next row: `true` when a row is available, `false` when done. The statement
    /// resets itself when done or failed, so the next use starts afresh.
    package func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let message = connection.lastErrorMessage
            sqlite3_reset(handle)
            throw .statementFailed(sql: sql, reason: message)
        }
    }

    /// The result of `read` on the first row, or `nil` when there is none; the statement is reset
    /// either way, ready for new bindings.
    package func firstRow<Value>(_ read: () -> Value) throws(StoreError) -> Value? {
        defer { sqlite3_reset(handle) }
        return try step() ? read() : nil
    }

    /// Runs a statement that returns no rows with the values bound so far.
    package func run() throws(StoreError) {
        while try step() {}
    }

    /// Calls `body` for each row, then resets the statement.
    package func forEachRow(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        defer { sqlite3_reset(handle) }
        while try step() { try body() }
    }

    /// Column `index` (0-based) of the current row; 0 for NULL.
    package func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row; 0 for NULL.
    package func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row, or `nil` for NULL.
    package func optionalInt64(at index: Int32) -> Int64? { isNull(index) ? nil : int64(at: index) }

    /// Column `index` of the current row, or `nil` for NULL.
    package func optionalDouble(at index: Int32) -> Double? { isNull(index) ? nil : double(at: index) }

    /// Column `index` of the current row as text, or `nil` for NULL.
    package func text(at index: Int32) -> String? {
        sqlite3_column_text(handle, index).map { String(cString: $0) }
    }

    private func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// `SQLITE_TRANSIENT`, which the C macro defines as a cast Swift does not import.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}
