package import TravelCore

// Journeys started and stopped by hand. Callers regroup journeys after a change.
extension TravelDatabase {
    /// The journey started by hand that is still open, if any: (id, destination, start).
    package func openManualJourney() throws(StoreError) -> (id: Int64, destination: String, start: UTCTime)? {
        let query = try connection.prepare(
            "SELECT id, destination, start_ms FROM journeys WHERE manual = 1 AND end_ms IS NULL ORDER BY start_ms"
        )
        return try query.firstRow {
            (query.int64(at: 0), query.text(at: 1) ?? "", UTCTime(milliseconds: query.int64(at: 2)))
        }
    }

    /// Opens a journey to `destination` at `start` and returns its id. Refused while another is
    /// open, or when `start` is before the end of an earlier one: windows started by hand never overlap.
    package func startJourney(destination: String, at start: UTCTime) throws -> Int64 {
        if let open = try openManualJourney() {
            throw HistoryError.journeyAlreadyOpen(id: open.id, destination: open.destination, since: open.start)
        }
        let later = try connection.prepare(
            "SELECT id, destination FROM journeys WHERE manual = 1 AND end_ms > ?1 ORDER BY start_ms LIMIT 1"
        )
        later.bind(1, start.milliseconds)
        if let clash = try later.firstRow({ (later.int64(at: 0), later.text(at: 1) ?? "") }) {
            throw HistoryError.journeyOverlaps(id: clash.0, destination: clash.1)
        }
        let insert = try connection.prepare(
            """
            INSERT INTO journeys (start_ms, end_ms, type, destination, manual) VALUES (?1, NULL, 'local', ?2, 1)
            RETURNING id
            """
        )
        insert.bind(1, start.milliseconds)
        insert.bind(2, destination)
        guard let id = try insert.firstRow({ insert.int64(at: 0) }) else {
            throw StoreError.statementFailed(sql: "INSERT INTO journeys", reason: "no id returned")
        }
        return id
    }

    /// Closes the open journey at `end` and returns its id.
    package func stopJourney(at end: UTCTime) throws -> Int64 {
        guard let open = try openManualJourney() else { throw HistoryError.noOpenJourney }
        guard end > open.start else { throw HistoryError.stopBeforeStart(id: open.id, start: open.start) }
        let update = try connection.prepare("UPDATE journeys SET end_ms = ?2 WHERE id = ?1")
        update.bind(1, open.id)
        update.bind(2, end.milliseconds)
        try update.run()
        return open.id
    }

    /// The windows of every journey started by hand, oldest first.
    func manualJourneyWindows() throws(StoreError) -> [DeclaredJourney] {
        let query = try connection.prepare(
            "SELECT id, start_ms, end_ms FROM journeys WHERE manual = 1 ORDER BY start_ms"
        )
        var windows: [DeclaredJourney] = []
        try query.forEachRow {
            windows.append(
                DeclaredJourney(
                    origin: .manual(journeyID: query.int64(at: 0)),
                    start: UTCTime(milliseconds: query.int64(at: 1)),
                    end: query.optionalInt64(at: 2).map(UTCTime.init(milliseconds:))
                )
            )
        }
        return windows
    }
}
