package import TravelCore
package import TravelFormats

/// The trip log on disk: records what the tracking engine concludes and answers queries about it.
///
/// Writes are batched. `record` and `saveEngineState` only buffer; `flush` writes the buffer in
/// one transaction. The caller picks the cadence (the daemon every `FlushInterval`, the importer
/// every ~50 000 events), which bounds what a power cut can lose, and keeps SD-card writes to a
/// few pages per flush instead of a few pages per fix. A crash between flushes loses only the
/// buffer; WAL keeps the file consistent. `deinit` does not flush: flush before letting go.
///
/// One connection, owned by one task: neither `Sendable` nor an actor.
package final class TravelDatabase {
    /// The database file.
    package let path: String
    let connection: SQLiteDatabase
    private var buffer: [PendingWrite] = []
    private var pendingEngineState: (snapshot: JSONValue, counters: [String: Int])?
    private var statements: RecorderStatements?
    /// Names trip ends after zones, POIs and the gazetteer; set by the recorder before its first
    /// flush, and again when the zones or POIs change (the statements then take the new one).
    package var placeLabeler: PlaceLabeler? { didSet { statements = nil } }
    /// What an import stores its trips' `import_sha256` as until the file's record commits and
    /// links them (`recordImport`): `pending PATH`, so a rerun after a kill finds the trips
    /// the killed run stored as its own, and nothing else ever is. `nil` for the daemon.
    package var importMark: String? { didSet { statements = nil } }
    /// The trip route points were last added to: points arrive in long runs per trip.
    private var currentTrip: (startMilliseconds: Int64, id: Int64)?
    /// Where flushes between commits put the buffered route points (the daemon's), if anywhere.
    package private(set) var spool: RouteSpool?
    /// How many writes at the start of the buffer are in the spool already.
    private var spooledCount = 0
    /// Whether the buffer holds anything besides route points and the trip in progress (a trip's
    /// start or end, a zone or POI event, an import): only a commit may write that.
    private var holdsMoreThanRoute = false
    /// Uplinks' cursors moved since the last commit, which writes them into `uplink_cursors`.
    var cursorsToCommit: [String: UplinkCursor] = [:]
    /// Uplinks' cursors moved since the last spool append or commit.
    private var cursorsToSpool: [String: UplinkCursor] = [:]
    /// The newest committed key of each uplink stream, as this connection last committed or read
    /// it: an uplink past it reads the buffer alone, with no read transaction (docs/uplink.md).
    var newestCommittedKeys: [UplinkStream: Int64]?

    private enum PendingWrite {
        case event(TrackingEvent)
        case importedFile(sha256: String, path: String, bytes: Int64, fixes: Int, trips: Int, mark: String)
        case zonePresence(ZonePresence)
        /// The trip in progress as it stands, written over its row after its route points.
        case ongoingTrip(TripSummary)
    }

    /// The migrations a read-write open of the database at `path` would apply, and the file's
    /// size, or `nil` when there is nothing to upgrade (no file, an empty one, a current one, or
    /// one the open will report as broken). Changes nothing.
    package static func pendingUpgrade(path: String) -> (migrations: [String], bytes: Int64)? {
        let bytes = Platform.fileSize(path)
        guard bytes > 0, let connection = try? SQLiteDatabase(path: path, readOnly: true),
            let pending = try? TravelSchema.migrator.pendingMigrations(in: connection), !pending.isEmpty
        else { return nil }
        return (pending.map(\.name), bytes)
    }

    /// Opens the database at `path`. A read-write open creates the file if needed and applies the
    /// migrations it lacks. A read-only open (`travelctl --db`) changes nothing, fails with
    /// "no database at PATH" when there is no file, and refuses a database that lacks a migration.
    package init(path: String, readOnly: Bool = false) throws(StoreError) {
        if readOnly, !Platform.fileExists(path) { throw .noDatabase(path: path) }
        self.path = path
        connection = try SQLiteDatabase(path: path, readOnly: readOnly)
        if readOnly {
            if let missing = try TravelSchema.migrator.pendingMigrations(in: connection).first {
                throw .needsMigration(path: path, migration: missing.name)
            }
        } else {
            try TravelSchema.migrator.migrate(connection)
        }
    }

    // MARK: - Recording

    /// Buffers what `event` changes until the next `flush`. Rejected fixes are not stored one by
    /// one: the engine counts them, and its counters are saved with `saveEngineState`.
    package func record(_ event: TrackingEvent) {
        switch event {
        case .fixRejected: return
        case .routePoint(let tripStart, let point):
            // Buffered as it will read back once stored, so the buffer, the spool and the
            // database agree (an uplink reads all three).
            buffer.append(.event(.routePoint(tripStart: tripStart, RouteUnits.rounded(point))))
        case .tripStarted, .tripEnded, .zone, .nearby:
            holdsMoreThanRoute = true
            buffer.append(.event(event))
        }
        if flushFailing, buffer.count > thinningThreshold { thinBuffer() }
    }

    /// Writes the buffer may hold while flushes fail (a full disk): past it, every other buffered
    /// route point is dropped, so a long outage costs the route's resolution, never its extent, a
    /// trip's start or end, or the memory of the process. Unlimited by default (an import flushes
    /// every 50 000 events); the daemon sets `[Storage] MaxBufferedPoints`. While flushes
    /// succeed nothing is dropped, however many points a trip's start brings at once.
    package var bufferLimit = Int.max {
        didSet { thinningThreshold = bufferLimit }
    }
    /// Whether the last flush failed: only then is the buffer thinned.
    private var flushFailing = false
    /// The buffer size that thins it next: `bufferLimit`, or more when what is left after thinning
    /// (trips' starts and ends, zone events) is that large already, so thinning stays rare.
    private var thinningThreshold = Int.max

    /// Route points dropped from the buffer since the database was opened, because it could not
    /// be written (`bufferLimit`).
    package private(set) var droppedRoutePoints = 0

    /// Halves the buffered route points, keeping the newest, and the last `ongoingTrip` per trip,
    /// until the buffer is within `bufferLimit` or has nothing more to drop; trips' starts and
    /// ends, zone and POI events stay.
    private func thinBuffer() {
        var before = buffer.count + 1
        while buffer.count > bufferLimit, buffer.count < before {
            before = buffer.count
            thinBufferOnce()
        }
        thinningThreshold = buffer.count < bufferLimit ? bufferLimit : buffer.count + bufferLimit / 2
    }

    private func thinBufferOnce() {
        var routePointsSeen = 0
        var ongoingSeen: Set<Int64> = []
        var kept: [PendingWrite] = []
        kept.reserveCapacity(buffer.count)
        for write in buffer.reversed() {
            switch write {
            case .event(.routePoint):
                routePointsSeen += 1
                if routePointsSeen % 2 == 0 {
                    droppedRoutePoints += 1
                    continue
                }
            case .ongoingTrip(let trip):
                if !ongoingSeen.insert(trip.startTime.milliseconds).inserted { continue }
            case .event, .importedFile, .zonePresence:
                break
            }
            kept.append(write)
        }
        buffer = kept.reversed()
        // What is left goes to the spool again: a point twice in it is harmless, one missing is lost.
        spooledCount = 0
    }

    /// Buffers the engine's persistable state for the next `flush`, replacing any state buffered
    /// before, so a restart resumes exactly where the last flush left the trip log.
    package func saveEngineState(snapshot: JSONValue, counters: [String: Int]) {
        pendingEngineState = (snapshot, counters)
    }

    /// Buffers the note that a file was imported, so it commits with the file's last events and a
    /// crash mid-import leaves the file to be imported again. The trips the import stored (those
    /// marked with `importMark`) are linked to it.
    package func recordImport(sha256: String, path: String, bytes: Int64, fixes: Int, trips: Int) {
        buffer.append(
            .importedFile(
                sha256: sha256,
                path: path,
                bytes: bytes,
                fixes: fixes,
                trips: trips,
                mark: importMark ?? sha256
            )
        )
        holdsMoreThanRoute = true
    }

    /// Drops what is buffered, unwritten (`import --dry-run`).
    package func discardPending() {
        buffer.removeAll()
        pendingEngineState = nil
        holdsMoreThanRoute = false
        spooledCount = 0
    }

    /// Buffers the totals of the trip in progress (distance, moving time, last point…), so its row
    /// is as current as the flush that commits them: `trips` and `trip show` during a drive, or
    /// after a power cut, show the drive so far rather than the figures it had when it started.
    package func recordOngoing(_ trip: TripSummary) {
        buffer.append(.ongoingTrip(trip))
    }

    /// Buffers a zone's new inside/outside state, so it commits with the events that changed it.
    package func recordZonePresence(_ presence: ZonePresence) {
        buffer.append(.zonePresence(presence))
        holdsMoreThanRoute = true
    }

    /// Whether an import of the file with this SHA-256 waits in the buffer.
    func hasPendingImport(sha256: String) -> Bool {
        buffer.contains { write in
            if case .importedFile(let pending, _, _, _, _, _) = write { pending == sha256 } else { false }
        }
    }

    /// How many writes are buffered and not yet flushed.
    package var pendingCount: Int { buffer.count + (pendingEngineState == nil ? 0 : 1) + cursorsToCommit.count }

    /// What the buffer holds that the engine concluded, oldest first: what uplinks read besides the
    /// committed rows.
    var bufferedEvents: some Sequence<TrackingEvent> {
        buffer.lazy.compactMap { write in
            if case .event(let event) = write { event } else { nil }
        }
    }

    /// Notes where an uplink stands, for the next spool append and commit: a restart resends
    /// only what follows it.
    package func setUplinkCursor(_ cursor: UplinkCursor, for uplink: String) {
        cursorsToCommit[uplink] = cursor
        cursorsToSpool[uplink] = cursor
    }

    /// Writes everything buffered in one `BEGIN IMMEDIATE … COMMIT` transaction. Writing an event
    /// again adds nothing twice (trips are keyed by start time, route points by time), so a
    /// re-import or a replay after a crash is harmless. If the flush fails, nothing of it is
    /// written and the buffer is kept, so the next flush retries it (a busy lock or a full disk
    /// pass).
    package func flush() throws(StoreError) {
        guard pendingCount > 0 else { return }
        let statements = try recorderStatements()
        do {
            try connection.inTransaction { () throws(StoreError) in
                for write in buffer {
                    switch write {
                    case .event(let event): try apply(event, with: statements)
                    case .zonePresence(let presence): try statements.zones.save(presence)
                    case .ongoingTrip(let trip):
                        try statements.updateOngoingTrip(trip, id: tripID(of: trip, statements))
                    case .importedFile(let sha256, let path, let bytes, let fixes, let trips, let mark):
                        try statements.recordImport(
                            sha256: sha256,
                            path: path,
                            bytes: bytes,
                            fixes: fixes,
                            trips: trips,
                            mark: mark
                        )
                    }
                }
                if let state = pendingEngineState {
                    try statements.saveEngineState(snapshot: state.snapshot, counters: state.counters)
                }
                try writeUplinkCursors()
            }
        } catch {
            // Ids looked up or created inside the rolled-back transaction may not exist.
            currentTrip = nil
            bufferWriteFailed()
            throw error
        }
        buffer.removeAll(keepingCapacity: true)
        pendingEngineState = nil
        cursorsToCommit = [:]
        cursorsToSpool = [:]
        newestCommittedKeys = nil
        bufferWritten()
        spooledCount = 0
        holdsMoreThanRoute = false
        // The commit is on the card (synchronous=FULL while a spool is attached): its points may go.
        try spool?.clear()
    }

    // MARK: - Spool

    /// Attaches the spool beside this database (the daemon's), which `spoolRoute` appends to
    /// between commits. Commits then wait for the WAL to reach the card (`synchronous=FULL`), as
    /// each one empties the spool: a few commits an hour, instead of one per flush.
    package func attachSpool() throws(StoreError) {
        spool = try RouteSpool(databasePath: path)
        try connection.execute("PRAGMA synchronous = FULL")
    }

    /// Whether `spoolRoute` can take what is buffered: route points and the trip in progress only,
    /// with a spool attached and no engine state waiting.
    package var canSpool: Bool { spool != nil && !holdsMoreThanRoute && pendingEngineState == nil }

    /// Appends the buffered route points not yet spooled, and the uplinks' cursors moved since,
    /// to the spool: the flush between commits. They stay buffered for the next commit. A failure
    /// (a full disk) is the flush's failure.
    package func spoolRoute() throws(StoreError) {
        guard let spool, spooledCount < buffer.count || !cursorsToSpool.isEmpty else { return }
        let points = buffer[spooledCount...].compactMap { write -> RoutePoint? in
            if case .event(.routePoint(_, let point)) = write { point } else { nil }
        }
        do {
            try spool.append(points, cursors: cursorsToSpool)
        } catch {
            bufferWriteFailed()
            throw error
        }
        spooledCount = buffer.count
        cursorsToSpool = [:]
        bufferWritten()
    }

    /// A commit or spool append failed: the buffer is kept, and thinned while it stays past its
    /// limit (`bufferLimit`).
    private func bufferWriteFailed() {
        flushFailing = true
        if buffer.count > thinningThreshold { thinBuffer() }
    }

    /// A commit or spool append succeeded: nothing is thinned until the next failure.
    private func bufferWritten() {
        flushFailing = false
        thinningThreshold = bufferLimit
    }

    /// Counts everything buffered as spooled: the points a start replayed from the spool.
    package func markBufferSpooled() {
        spooledCount = buffer.count
    }

    /// Whether route points wait in the spool for the next commit.
    package var hasSpooledRoute: Bool { !(spool?.isEmpty ?? true) }

    private func apply(_ event: TrackingEvent, with statements: RecorderStatements) throws(StoreError) {
        switch event {
        case .fixRejected:
            break
        case .tripStarted(let trip):
            currentTrip = (trip.startTime.milliseconds, try statements.startTrip(trip))
        case .routePoint(let tripStart, let point):
            let trip = TripSummary(
                startTime: tripStart,
                endTime: point.time,
                start: point.coordinate,
                end: point.coordinate
            )
            try statements.addPoint(point, toTrip: tripID(of: trip, statements))
        case .tripEnded(let trip):
            try statements.endTrip(trip, id: tripID(of: trip, statements))
        case .zone(let event):
            try statements.zones.record(event, tripID: try storedTripID(startingAt: event.tripStart, statements))
        case .nearby(let alert):
            try statements.zones.record(alert, tripID: try storedTripID(startingAt: alert.tripStart, statements))
        }
    }

    /// The id of the trip that started at `trip.startTime`. A trip the store never saw start (its
    /// `tripStarted` lost with an unflushed buffer) is stored from `trip`, so its points and its end
    /// are kept rather than dropped.
    private func tripID(of trip: TripSummary, _ statements: RecorderStatements) throws(StoreError) -> Int64 {
        if let currentTrip, currentTrip.startMilliseconds == trip.startTime.milliseconds { return currentTrip.id }
        let id: Int64
        if let stored = try statements.findTrip(startingAt: trip.startTime) {
            id = stored
        } else {
            id = try statements.startTrip(trip)
        }
        currentTrip = (trip.startTime.milliseconds, id)
        return id
    }

    private func recorderStatements() throws(StoreError) -> RecorderStatements {
        if let statements { return statements }
        let prepared = try RecorderStatements(connection, labeler: placeLabeler, importMark: importMark)
        statements = prepared
        return prepared
    }

    // MARK: - Engine state

    /// The engine state and counters of the last flush that saved them, or `nil` when none was
    /// ever saved (a new database): what the daemon restores on start.
    package func loadEngineState() throws(StoreError) -> (snapshot: JSONValue, counters: [String: Int])? {
        let query = try connection.prepare("SELECT snapshot, counters FROM engine_state WHERE id = 1")
        guard let (snapshotText, countersText) = try query.firstRow({ (query.text(at: 0), query.text(at: 1)) })
        else { return nil }
        let snapshot = try Self.parseJSON(snapshotText, column: "engine_state.snapshot")
        var counters: [String: Int] = [:]
        for member in try Self.parseJSON(countersText, column: "engine_state.counters").objectMembers ?? [] {
            guard let count = member.value.intValue else {
                throw .unexpectedValue(column: "engine_state.counters", value: member.value.serializedString())
            }
            counters[member.key] = count
        }
        return (snapshot, counters)
    }

    private static func parseJSON(_ text: String?, column: String) throws(StoreError) -> JSONValue {
        do {
            return try JSONValue(parsing: text ?? "")
        } catch {
            throw .unexpectedValue(column: column, value: String((text ?? "").prefix(40)))
        }
    }
}
