package import Logging
package import TravelCore
internal import TravelIO
package import TravelStore

/// The daemon's one pipeline: events from whichever source → the tracking engine (resumed from
/// the database) → the database in batches, with every event worth telling logged. An actor
/// because the source, the flush timer and the SIGHUP reload reach it from different tasks; it
/// alone owns the database connection.
package actor TrackingPipeline {
    private let recorder: TrackingRecorder
    private var configuration: TravelConfiguration
    private var presence = FixPresence()
    let logger: Logger

    /// Opens (or creates) the database of `configuration` and resumes the engine state saved in it.
    package init(configuration: TravelConfiguration, logger: Logger) throws(StoreError) {
        let database = try TravelDatabase(path: configuration.storage.database)
        let (recorder, resumeError) = try TrackingRecorder.resuming(database, configuration: configuration.tracking)
        if let resumeError {
            logger.warning("the saved tracking state could not be used, starting afresh: \(resumeError)")
        }
        self.recorder = recorder
        self.configuration = configuration
        self.logger = logger
    }

    /// Seconds between commits (`[Storage] FlushIntervalSec`), as currently configured.
    package var flushInterval: Double { configuration.storage.flushInterval }

    /// Takes one event from the source.
    package func handle(_ event: SourceEvent) {
        switch event {
        case .connected(let description):
            // A gap across a reconnection while standing still is a parking, not a stop.
            recorder.sourceRestarted()
            logger.info("source connected: \(description)")
        case .fix(let fix):
            if let change = presence.observe(fix) { log(change, at: fix.time) }
            recorder.ingest(fix) { log($0) }
        case .fixTimedOut(let silence):
            if let change = presence.sourceLost() { log(change, at: nil, after: silence) }
        case .disconnected(let reason):
            logger.warning("source disconnected: \(reason)")
            if let change = presence.sourceLost() { log(change, at: nil) }
        }
    }

    /// The replayed log ended: an open trip ends at its arrival or last point.
    package func endOfInput() {
        logger.info("end of the replayed log")
        recorder.endOfInput { log($0) }
    }

    /// The last flush (shutdown, end of a replay): commits what is buffered with the engine state;
    /// a failure keeps the buffer for the next flush.
    package func flush() throws(StoreError) {
        try recorder.flush(final: true)
    }

    /// The timer's flush: a failure (disk full, a reader holding a lock) is logged, and the next
    /// flush retries with nothing lost.
    package func flushOrLog() {
        do {
            try recorder.flush()
        } catch {
            logger.error("cannot write the database, will retry: \(error)")
        }
    }

    /// Logs what this run read, kept and found, in the words of `travelctl import`'s summary.
    package func logStatistics() {
        let s = recorder.engine.statistics
        var line = "this run: \(s.fixes) fixes read, \(s.accepted) accepted"
        if s.rejectedTotal > 0 {
            let reasons = s.rejected.sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }
            line +=
                ", \(s.rejectedTotal) rejected (\(reasons.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")))"
        }
        line += "; trips: \(s.tripsStarted) started, \(s.tripsEnded) ended"
        logger.info("\(line)")
    }

    /// Applies a configuration read again (SIGHUP), or keeps the running one when it is refused.
    /// Thresholds and the flush interval change at once; the source, database and socket are
    /// opened at start, so a change to them waits for a restart (and is said so).
    package func reload(_ result: Result<TravelConfiguration, ConfigurationError>) {
        let new: TravelConfiguration
        switch result {
        case .failure(let error):
            logger.error("configuration refused, keeping the running one: \(error)")
            return
        case .success(let value):
            new = value
        }
        if new.tracking != configuration.tracking {
            do {
                try recorder.reconfigure(new.tracking)
            } catch {
                logger.error("cannot apply the new [Tracking] values, keeping the running ones: \(error)")
                return
            }
        }
        let restartOnly = [
            ("[Source] URL", new.source.url != configuration.source.url),
            ("[Storage] Database", new.storage.database != configuration.storage.database),
            ("[Control] Socket", new.control.socket != configuration.control.socket),
        ]
        for (key, changed) in restartOnly where changed {
            logger.warning("\(key) changed; it takes effect when the daemon restarts")
        }
        var applied = new
        applied.source.url = configuration.source.url
        applied.storage.database = configuration.storage.database
        applied.control.socket = configuration.control.socket
        configuration = applied
        logger.notice("configuration reloaded")
    }
}
