/// Why a store operation failed, worded for the one-line error a CLI prints.
package enum StoreError: Error, Sendable, CustomStringConvertible {
    /// SQLite could not open `path`, or the file is not a database.
    case cannotOpen(path: String, reason: String)
    /// A read-only open found no file: readers never create one.
    case noDatabase(path: String)
    /// SQLite refused a statement.
    case statementFailed(sql: String, reason: String)
    /// A schema migration failed and was rolled back; the migrations before it stay applied.
    case migrationFailed(name: String, path: String, reason: String)
    /// The database has a migration this program does not know: it was upgraded by a newer version.
    case newerSchema(path: String, migration: String)
    /// A read-only open found a migration missing; only a read-write open applies migrations.
    case needsMigration(path: String, migration: String)
    /// A stored value this version cannot interpret.
    case unexpectedValue(column: String, value: String)
    /// The route spool beside the database (`RouteSpool`) could not be opened or written.
    case spoolFailed(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open database \(path): \(reason)"
        case .noDatabase(let path):
            "no database at \(path)"
        case .statementFailed(let sql, let reason):
            "database error: \(reason) (in \(Self.oneLine(sql)))"
        case .migrationFailed(let name, let path, let reason):
            "cannot apply migration “\(name)” to \(path): \(reason)"
        case .newerSchema(let path, let migration):
            "database \(path) was upgraded by a newer version (migration “\(migration)”); update this program"
        case .needsMigration(let path, let migration):
            """
            database \(path) lacks migration “\(migration)”; \
            open it read-write once (start the daemon) to upgrade it
            """
        case .unexpectedValue(let column, let value):
            "database holds “\(value)” in \(column), which this version does not know"
        case .spoolFailed(let path, let reason):
            "cannot write \(path): \(reason)"
        }
    }

    /// SQLite's own message, without the statement, for errors that wrap another one.
    var reason: String {
        switch self {
        case .cannotOpen(_, let reason), .statementFailed(_, let reason), .migrationFailed(_, _, let reason),
            .spoolFailed(_, let reason):
            reason
        default: description
        }
    }

    /// The start of `sql` on one line, enough to recognise the statement.
    private static func oneLine(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let joined = words.joined(separator: " ")
        return joined.count > 60 ? joined.prefix(60) + "…" : joined
    }
}
