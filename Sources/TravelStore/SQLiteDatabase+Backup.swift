internal import CSQLite

extension SQLiteDatabase {
    /// `PRAGMA wal_checkpoint(TRUNCATE)`: copies every committed page from the WAL into the main
    /// file and empties the WAL, so the main file alone holds the whole history. Waits (busy
    /// timeout) for readers of older snapshots; `false` when one still held the WAL after that.
    package func checkpoint() throws(StoreError) -> Bool {
        var logPages: Int32 = 0
        var checkpointed: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logPages, &checkpointed)
        if rc == SQLITE_BUSY { return false }
        guard rc == SQLITE_OK else {
            throw .statementFailed(sql: "PRAGMA wal_checkpoint(TRUNCATE)", reason: lastErrorMessage)
        }
        return logPages == checkpointed
    }

    /// Copies this database into a new file at `path` with SQLite's online backup, in one step,
    /// so the copy is one consistent snapshot while other connections go on writing (WAL). The
    /// copy is left in rollback-journal mode: one self-contained file, with no `-wal` beside it.
    package func backup(into path: String) throws(StoreError) {
        var destination: OpaquePointer?
        let rc = sqlite3_open_v2(
            path,
            &destination,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
            nil
        )
        defer { sqlite3_close_v2(destination) }
        guard rc == SQLITE_OK, let destination else {
            throw .cannotOpen(
                path: path,
                reason: destination.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            )
        }
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            throw .cannotOpen(path: path, reason: String(cString: sqlite3_errmsg(destination)))
        }
        var step = sqlite3_backup_step(backup, -1)
        // A writer's checkpoint can hold the file for a moment: try again, as the busy timeout would.
        var attempts = 0
        while step == SQLITE_BUSY || step == SQLITE_LOCKED, attempts < 100 {
            sqlite3_sleep(50)
            attempts += 1
            step = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finished == SQLITE_OK else {
            throw .statementFailed(sql: "sqlite3_backup_step", reason: String(cString: sqlite3_errmsg(destination)))
        }
        guard sqlite3_exec(destination, "PRAGMA journal_mode = DELETE", nil, nil, nil) == SQLITE_OK else {
            throw .statementFailed(
                sql: "PRAGMA journal_mode = DELETE",
                reason: String(cString: sqlite3_errmsg(destination))
            )
        }
    }
}

/// What `travelctl backup` copied, read back from the copy itself.
package struct BackupSummary: Sendable, Hashable, CustomStringConvertible {
    /// Rows of `trips` in the copy, ongoing ones included.
    package var trips: Int
    /// Rows of `route_points` in the copy.
    package var routePoints: Int
    /// The copy's size on disk.
    package var bytes: Int64

    /// `3 trips, 5120 route points, 1048576 bytes`.
    package var description: String {
        "\(trips) trip\(trips == 1 ? "" : "s"), \(routePoints) route point\(routePoints == 1 ? "" : "s"), \(bytes) bytes"
    }
}

extension TravelDatabase {
    /// Empties the WAL into the main file (`SQLiteDatabase.checkpoint`); `false` when a reader
    /// kept it from completing.
    package func checkpoint() throws(StoreError) -> Bool { try connection.checkpoint() }

    /// A consistent copy of this database at `path` (which must not exist yet).
    package func backup(into path: String) throws(StoreError) { try connection.backup(into: path) }

    /// Checks the copy at `path` (`PRAGMA integrity_check` must say `ok`) and counts what it holds.
    package static func verifyCopy(at path: String) throws(StoreError) -> BackupSummary {
        let copy = try TravelDatabase(path: path, readOnly: true)
        let integrity = try copy.connection.scalarText("PRAGMA integrity_check") ?? ""
        guard integrity == "ok" else {
            throw .cannotOpen(path: path, reason: "the copy fails its integrity check: \(integrity)")
        }
        let trips = try copy.connection.scalarText("SELECT count(*) FROM trips").flatMap { Int($0) } ?? 0
        let points = try copy.connection.scalarText("SELECT count(*) FROM route_points").flatMap { Int($0) } ?? 0
        return BackupSummary(trips: trips, routePoints: points, bytes: Platform.fileSize(path))
    }
}
