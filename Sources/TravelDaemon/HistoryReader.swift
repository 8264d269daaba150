internal import TravelControl
internal import TravelCore
internal import TravelStore

/// The control socket's window on the history: a read-only SQLite connection of its own, so a
/// client's query runs beside the pipeline's writes (WAL) and never waits on them or holds them up.
actor HistoryReader {
    private let path: String
    private var rules: JourneyRules
    private var database: TravelDatabase?
    /// `openJourney`'s answer and the `data_version` it was read at: `Status` is called far more
    /// often than the writer commits, and finding the open journey reads every journey.
    private var openJourneyCache: (version: Int64, journey: JSONValue)?

    init(path: String, rules: JourneyRules) {
        self.path = path
        self.rules = rules
    }

    /// The `[Journeys]` rules after a reload.
    func update(rules: JourneyRules) {
        self.rules = rules
        openJourneyCache = nil
    }

    /// `ListTrips`: `trips --json`.
    func trips(since: UTCTime?, until: UTCTime?) -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in ["trips": try db.tripsDocument(since: since, until: until)] }
    }

    /// `GetTrip`: `trip show --json`.
    func trip(id: Int64) -> Result<JSONValue, VarlinkError> {
        switch read({ db throws(StoreError) in try db.tripDocument(id: id) ?? .null }) {
        case .success(.null): .failure(.tripNotFound(id))
        case .success(let trip): .success(["trip": trip])
        case .failure(let error): .failure(error)
        }
    }

    /// `Stats`: `stats --json`, with the offset its months are local to.
    func stats(year: Int?) -> Result<JSONValue, VarlinkError> {
        let offset = rules.utcOffset
        return read { db throws(StoreError) in
            [
                "stats": try db.monthlyTotals(year: year, offset: offset)?.json ?? MonthlyTotals.emptyJSON,
                "utc_offset": .string(offset.description),
            ]
        }
    }

    /// The latest journey while it is still open (away from home), for `Status`.
    func openJourney() -> JSONValue {
        let offset = rules.utcOffset
        let cached = openJourneyCache
        var version: Int64?
        let journey = read { db throws(StoreError) -> JSONValue in
            let current = try db.dataVersion()
            version = current
            if let cached, cached.version == current { return cached.journey }
            guard let last = try db.journeys(offset: offset).last, last.isOpen else { return .null }
            return [
                "id": .integer(last.id), "destination": .string(last.destination),
                "start": .string(last.start.iso8601), "distance_m": .double((last.distance * 10).rounded() / 10),
                "trips": .integer(Int64(last.tripIDs.count)),
            ]
        }
        guard let value = try? journey.get(), let version else { return .null }
        openJourneyCache = (version, value)
        return value
    }

    private func read(_ body: (TravelDatabase) throws(StoreError) -> JSONValue) -> Result<JSONValue, VarlinkError> {
        do {
            let db = try database ?? TravelDatabase(path: path, readOnly: true)
            database = db
            return .success(try body(db))
        } catch {
            // Opened again next time: the file may have been replaced or not exist yet. A new
            // connection counts data versions afresh.
            database = nil
            openJourneyCache = nil
            return .failure(.databaseError("\(error)"))
        }
    }
}
