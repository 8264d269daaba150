package import TravelCore

/// The tracking engine wired to the database: fixes in, trips and route points stored in
/// batches. The live daemon and `travelctl import` both run their fixes through one of these,
/// so an imported log and a live drive give the same trips.
package final class TrackingRecorder {
    package let database: TravelDatabase
    package private(set) var engine: TrackingEngine
    /// Whether the engine's state is saved with each flush (the daemon: a restart resumes the
    /// trip) or not (an import: each log is a history of its own).
    private let persistsEngineState: Bool

    /// A recorder whose engine starts afresh (imports).
    package convenience init(database: TravelDatabase, configuration: TrackingConfiguration) {
        self.init(database: database, configuration: configuration, persistsEngineState: false)
    }

    /// A recorder that resumes the engine saved in `database` (the daemon), and why a saved state
    /// could not be used when it could not (the engine then starts afresh; the caller logs it).
    package static func resuming(
        _ database: TravelDatabase,
        configuration: TrackingConfiguration
    ) throws(StoreError) -> (recorder: TrackingRecorder, resumeError: SnapshotError?) {
        let recorder = TrackingRecorder(database: database, configuration: configuration, persistsEngineState: true)
        guard let saved = try database.loadEngineState() else { return (recorder, nil) }
        do {
            recorder.engine = try TrackingEngine(configuration: configuration, restoring: saved.snapshot)
            return (recorder, nil)
        } catch {
            return (recorder, error)
        }
    }

    private init(database: TravelDatabase, configuration: TrackingConfiguration, persistsEngineState: Bool) {
        self.database = database
        engine = TrackingEngine(configuration: configuration)
        self.persistsEngineState = persistsEngineState
    }

    /// Feeds one fix; what the engine concludes is buffered for the next `flush` and shown to
    /// `observe` (the daemon logs it).
    package func ingest(_ fix: Fix, referenceTime: UTCTime? = nil, observe: (TrackingEvent) -> Void = { _ in }) {
        let database = database
        engine.ingest(fix, referenceTime: referenceTime) { event in
            database.record(event)
            observe(event)
        }
    }

    /// The input ended (an imported log): an open trip ends at its arrival or last point.
    package func endOfInput(observe: (TrackingEvent) -> Void = { _ in }) {
        let database = database
        engine.endOfInput { event in
            database.record(event)
            observe(event)
        }
    }

    /// The daemon started or its source came back: see `TrackingEngine.sourceRestarted`.
    package func sourceRestarted() {
        engine.sourceRestarted()
    }

    /// New thresholds for the engine, keeping the trip it is on (the daemon's SIGHUP reload).
    package func reconfigure(_ configuration: TrackingConfiguration) throws(SnapshotError) {
        engine = try TrackingEngine(configuration: configuration, restoring: engine.snapshot)
    }

    /// Writes what is buffered, in one transaction.
    package func flush() throws(StoreError) {
        if persistsEngineState {
            database.saveEngineState(snapshot: engine.snapshot, counters: engine.statistics.counters)
        }
        try database.flush()
    }
}

extension TrackingStatistics {
    /// The counters by name, as stored with the engine state and shown by `status`.
    package var counters: [String: Int] {
        var counters = [
            "fixes": fixes, "accepted": accepted, "tripsStarted": tripsStarted, "tripsEnded": tripsEnded,
        ]
        for (reason, count) in rejected { counters["rejected.\(reason.rawValue)"] = count }
        return counters
    }
}
