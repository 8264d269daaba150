package import TravelCore

/// The tracking engine wired to the database: fixes in, trips and route points stored in
/// batches. The live daemon and `travelctl import` both run their fixes through one of these,
/// so an imported log and a live drive give the same trips.
package final class TrackingRecorder {
    package let database: TravelDatabase
    package internal(set) var engine: TrackingEngine
    /// Whether the engine's state is saved with each flush (the daemon: a restart resumes the
    /// trip) or not (an import: each log is a history of its own).
    private let persistsEngineState: Bool

    /// A recorder whose engine starts afresh (imports). It watches the stored zones and POIs from
    /// an unknown state, as a daemon on a new database would.
    package convenience init(database: TravelDatabase, configuration: TrackingConfiguration) {
        self.init(database: database, configuration: configuration, persistsEngineState: false)
        placesError = catchError { () throws(StoreError) in try watchPlaces(resuming: false) }
    }

    /// Why the stored zones or POIs could not be loaded, if they could not: the recorder then
    /// tracks trips without them.
    package private(set) var placesError: StoreError?

    /// A recorder that resumes the engine saved in `database` (the daemon), and why a saved state
    /// could not be used when it could not (the engine then starts afresh; the caller logs it).
    package static func resuming(
        _ database: TravelDatabase,
        configuration: TrackingConfiguration
    ) throws(StoreError) -> (recorder: TrackingRecorder, resumeError: SnapshotError?) {
        let recorder = TrackingRecorder(database: database, configuration: configuration, persistsEngineState: true)
        guard let saved = try database.loadEngineState() else {
            try recorder.watchPlaces(resuming: true)
            return (recorder, nil)
        }
        do {
            recorder.engine = try TrackingEngine(configuration: configuration, restoring: saved.snapshot)
        } catch {
            try recorder.watchPlaces(resuming: true)
            return (recorder, error)
        }
        // The state is saved less often than route points (see `flush`): catch up on the points
        // stored since, so the engine stands exactly where the last flush left the trip log.
        if let since = recorder.engine.lastAcceptedTime {
            for point in try database.routePoints(after: since) {
                recorder.ingest(Fix(routePoint: point))
            }
        }
        recorder.replaySpool()
        // The counters say what the receiver delivered in this run, not what was caught up on.
        recorder.engine.resetStatistics()
        // Zones and POIs are watched from where the catch-up left the engine: their state was
        // saved with the same flushes as those points, so replaying them would report twice.
        try recorder.watchPlaces(resuming: true)
        return (recorder, nil)
    }

    /// Catches up on the route points a power cut left in the spool (flushed, not yet committed),
    /// so the engine stands where the last flush left the trip and the next commit stores them.
    private func replaySpool() {
        guard let spool = database.spool else { return }
        for point in spool.points() where engine.lastAcceptedTime.map({ point.time > $0 }) ?? true {
            ingest(Fix(routePoint: point))
        }
        database.markBufferSpooled()
    }

    private init(database: TravelDatabase, configuration: TrackingConfiguration, persistsEngineState: Bool) {
        self.database = database
        engine = TrackingEngine(configuration: configuration)
        self.persistsEngineState = persistsEngineState
    }

    /// Feeds one fix; what the engine concludes is buffered for the next `flush` and shown to
    /// `observe` (the daemon logs it). `evidence`: see `TrackingEngine.ingest`.
    package func ingest(
        _ fix: Fix,
        referenceTime: UTCTime? = nil,
        evidence: TimeEvidence = .none,
        observe: (TrackingEvent) -> Void = { _ in }
    ) {
        let database = database
        // A step of GPS time moves the resume point back: the state must be saved with it.
        let timeSteps = engine.statistics.timeSteps
        var boundary = false
        engine.ingest(fix, referenceTime: referenceTime, evidence: evidence) { event in
            database.record(event)
            boundary = boundary || event.isTripBoundary
            observe(event)
        }
        boundary = boundary || engine.statistics.timeSteps != timeSteps
        boundarySinceStateSave = boundarySinceStateSave || boundary
        boundarySinceFlush = boundarySinceFlush || boundary
        let presence = engine.zones.takePresenceChanges()
        if persistsEngineState {
            for change in presence { database.recordZonePresence(change) }
        }
    }

    /// The input ended (an imported log): an open trip ends at its arrival or last point. With
    /// `resuming`, the log goes on after a skipped span (`TrackingEngine.resumeAfterSkippedSpan`).
    package func endOfInput(resuming: Bool = false, observe: (TrackingEvent) -> Void = { _ in }) {
        let database = database
        var boundary = false
        func emit(_ event: TrackingEvent) {
            database.record(event)
            boundary = boundary || event.isTripBoundary
            observe(event)
        }
        if resuming { engine.resumeAfterSkippedSpan(emit: emit) } else { engine.endOfInput(emit: emit) }
        noteBoundary(boundary)
    }

    /// GPS time reached `now` with no fix (the daemon's clock while the receiver is silent): see
    /// `TrackingEngine.advance`. Returns whether a trip ended.
    @discardableResult
    package func advance(to now: UTCTime, observe: (TrackingEvent) -> Void = { _ in }) -> Bool {
        let database = database
        var boundary = false
        engine.advance(to: now) { event in
            database.record(event)
            boundary = boundary || event.isTripBoundary
            observe(event)
        }
        noteBoundary(boundary)
        return boundary
    }

    /// A trip started or ended: the next flush commits, with the engine state.
    private func noteBoundary(_ boundary: Bool) {
        boundarySinceStateSave = boundarySinceStateSave || boundary
        boundarySinceFlush = boundarySinceFlush || boundary
    }

    /// The daemon started or its source came back: see `TrackingEngine.sourceRestarted`.
    package func sourceRestarted() {
        engine.sourceRestarted()
    }

    /// New thresholds for the engine, keeping the trip it is on (the daemon's SIGHUP reload).
    package func reconfigure(_ configuration: TrackingConfiguration) throws(SnapshotError) {
        let (zones, nearby) = (engine.zones, engine.nearby)
        engine = try TrackingEngine(configuration: configuration, restoring: engine.snapshot)
        // The watchers keep their state (and the rules they started with) until the next start.
        (engine.zones, engine.nearby) = (zones, nearby)
    }

    /// Writes what is buffered, in one transaction, with the trip in progress as it stands; returns
    /// whether a trip started or ended in what it committed (journeys are then regrouped).
    ///
    /// The engine state costs a database page per save, a large part of the bytes written per
    /// hour to the SD card. Route points already say where the trip is, so the state goes with a
    /// flush only when a trip started or ended since the last save, every
    /// `flushesBetweenStateSaves` flushes, and on the `final` flush (shutdown); `resuming` catches
    /// up on the points stored after it.
    @discardableResult
    package func flush(final: Bool = false) throws(StoreError) -> Bool {
        let save =
            persistsEngineState
            && (final || boundarySinceStateSave || flushesSinceStateSave >= Self.flushesBetweenStateSaves)
        if save {
            database.saveEngineState(snapshot: engine.snapshot, counters: engine.statistics.counters)
        }
        if let trip = engine.currentTrip, trip != ongoingTripFlushed {
            database.recordOngoing(trip)
        }
        try database.flush()
        ongoingTripFlushed = engine.currentTrip
        let committedBoundary = boundarySinceFlush
        boundarySinceFlush = false
        if save {
            flushesSinceStateSave = 0
            boundarySinceStateSave = false
        } else {
            flushesSinceStateSave += 1
        }
        return committedBoundary
    }

    /// The flush between commits (the daemon with a spool attached): appends the buffered route
    /// points to the spool and returns `true`, or returns `false` when what is buffered needs a
    /// commit (a trip's start or end, a zone or POI event, a step of GPS time, no spool).
    package func spool() throws(StoreError) -> Bool {
        guard !boundarySinceFlush, database.canSpool else { return false }
        try database.spoolRoute()
        return true
    }

    /// One state save every twelve commits: the catch-up at a start replays at most that many
    /// commits' route points.
    static let flushesBetweenStateSaves = 12
    private var flushesSinceStateSave = 0
    private var boundarySinceStateSave = false
    private var boundarySinceFlush = false
    /// The trip in progress as the last flush wrote it: a parked vehicle's flushes rewrite nothing.
    private var ongoingTripFlushed: TripSummary?
}

extension TrackingEvent {
    /// A trip started or ended: the engine state changed in a way the route points do not show.
    var isTripBoundary: Bool {
        switch self {
        case .tripStarted, .tripEnded: true
        case .routePoint, .fixRejected, .zone, .nearby: false
        }
    }
}

extension TrackingStatistics {
    /// The counters by name, as stored with the engine state and shown by `status`.
    package var counters: [String: Int] {
        var counters = [
            "fixes": fixes, "accepted": accepted, "tripsStarted": tripsStarted, "tripsEnded": tripsEnded,
            "weekRolloverCorrections": weekRolloverCorrections, "timeSteps": timeSteps,
        ]
        for (reason, count) in rejected { counters["rejected.\(reason.rawValue)"] = count }
        return counters
    }
}
