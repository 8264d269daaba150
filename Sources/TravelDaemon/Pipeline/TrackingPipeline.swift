package import Logging
package import TravelConfiguration
package import TravelCore
internal import TravelIO
package import TravelStore

/// The daemon's one pipeline: events from whichever source → the tracking engine (resumed from
/// the database) → the database in batches, with every event worth telling logged. An actor
/// because the source, the flush timer and the SIGHUP reload reach it from different tasks; it
/// alone owns the database connection.
package actor TrackingPipeline {
    let recorder: TrackingRecorder
    private var configuration: TravelConfiguration
    /// The database file, which a reload never changes (a new `[Storage] Database` waits for a restart).
    nonisolated let databasePath: String
    private(set) var presence = FixPresence()
    /// Whether fixes arrive as the receiver makes them (gpsd, serial), so their arrival says how
    /// far the system clock is from GPS time; a replayed log's do not.
    private let isLive: Bool
    /// GPS time carried on the monotonic clock between fixes: the only "now" the daemon trusts.
    package private(set) var clock = GPSClock()
    private var clockOffset = ClockOffsetEstimator()
    /// The last epoch the source delivered, for the service status.
    private(set) var lastFix: Fix?
    /// Whether a fix has been committed since the start: the first one is, at once.
    private var hasStoredAFix = false
    /// When the last commit was made: the flushes until `[Storage] CommitIntervalSec` after it spool.
    private var lastCommit = ContinuousClock.now
    /// Whether flushes reach the database, and when that was last said.
    private(set) var storageHealth = StorageHealth()
    /// Fixes taken since the start, for the test-only fault `hang-after-fixes:N` (TestFault).
    private var fixesHandled = 0
    /// Asked to regroup journeys each time a flush commits a trip's start or end (`JourneyService`).
    private let journeysChanged: AsyncStream<Void>.Continuation?
    /// GPS time for events and log lines that no fix dates, shared with the control socket's tap.
    nonisolated let eventClock: EventClock
    /// Told after each accepted fix, so an uplink sends what it brought (`uplinkNews`).
    var uplinkListeners: [AsyncStream<Void>.Continuation] = []
    let logger: Logger

    /// Opens (or creates) the database of `configuration` and resumes the engine state saved in it.
    /// `isLive`: the source delivers fixes as the receiver makes them (not a replay).
    /// `journeysChanged`: yielded to after each flush that committed a trip's start or end.
    package init(
        configuration: TravelConfiguration,
        isLive: Bool = true,
        journeysChanged: AsyncStream<Void>.Continuation? = nil,
        eventClock: EventClock = EventClock(),
        logger: Logger
    ) throws(StoreError) {
        Self.announceUpgrade(of: configuration.storage.database, logger: logger)
        let database = try TravelDatabase(path: configuration.storage.database)
        try database.attachSpool()
        let (recorder, resumeError) = try TrackingRecorder.resuming(database, configuration: configuration.tracking)
        if let resumeError {
            logger.warning("the saved tracking state could not be used, starting afresh: \(resumeError)")
        }
        recorder.database.bufferLimit = configuration.storage.maximumBufferedPoints
        self.recorder = recorder
        self.configuration = configuration
        databasePath = configuration.storage.database
        self.isLive = isLive
        self.journeysChanged = journeysChanged
        self.eventClock = eventClock
        self.logger = logger
        TestFault.logIfSet(logger)
    }

    /// Seconds the system clock is ahead of GPS time (negative: behind), once measured.
    package var systemClockOffset: Double? { clockOffset.offset }

    /// The zone of the times people read in event messages (`[Journeys] TimeZone`), as currently configured.
    var timeZone: LocalTimeZone { configuration.journeys.zone }

    /// Seconds between flushes (`[Storage] FlushIntervalSec`), as currently configured.
    package var flushInterval: Double { configuration.storage.flushInterval }

    /// Takes one event from the source.
    package func handle(_ event: SourceEvent) {
        switch event {
        case .connected(let description):
            // A gap across a reconnection while standing still is a parking, not a stop.
            recorder.sourceRestarted()
            logger.info(
                "source connected: \(description)",
                metadata: .event(.source(.sourceConnected, at: eventClock.now(), "source", description))
            )
        case .fix(let fix):
            lastFix = fix
            if let change = presence.observe(fix) { log(change, fix: fix) }
            ingest(fix)
            fixesHandled += 1
            if TestFault.configured == .hangAfterFixes(fixesHandled) { TestFault.hang(logger) }
        case .fixTimedOut(let silence):
            if let change = presence.sourceLost() { log(change, fix: nil, after: silence) }
        case .disconnected(let reason):
            logger.warning(
                "source disconnected: \(reason)",
                metadata: .event(.source(.sourceDisconnected, at: eventClock.now(), "reason", "\(reason)"))
            )
            if let change = presence.sourceLost() { log(change, fix: nil, reason: "the source went away") }
        }
    }

    /// Runs `fix` through the engine. A live fix is checked against GPS time carried forward
    /// (a corrupt date years ahead is rejected, not made the new present), then sets that clock
    /// and measures the system clock against it. The first fix of a run is committed at once.
    private func ingest(_ fix: Fix) {
        let clocks = SystemClocks.now()
        let arrival = isLive ? clocks : nil
        let before = recorder.engine.statistics
        let movedAheadBefore = recorder.engine.lastMoveAhead?.to
        let reference = arrival.flatMap { clock.now(monotonicNanoseconds: $0.monotonicNanoseconds) }
        recorder.ingest(fix, referenceTime: reference, evidence: evidence(systemClock: clocks.realtime)) { log($0) }
        let after = recorder.engine.statistics
        if before.weekRolloverCorrections == 0, after.weekRolloverCorrections > 0,
            let (time, corrected) = recorder.engine.lastRedating
        {
            logger.warning(
                "the receiver dates its fixes 1024 weeks early (GPS week rollover): \(time) is taken as \(corrected), and so on",
                metadata: .event(.weekRollover(reported: time, corrected: corrected))
            )
        }
        if after.timeSteps > before.timeSteps, let (from, to) = recorder.engine.lastTimeStep {
            logger.warning(
                """
                GPS time stepped back by \(HumanText.duration(from.seconds(since: to))) (from \(from) to \(to)) and \
                stayed there: the trip in progress ended at \(from), tracking goes on from the new time
                """
            )
            // The system clock did not step: the offset is measured again on the new time.
            clockOffset = ClockOffsetEstimator()
        }
        if let (from, to) = recorder.engine.lastMoveAhead, to != movedAheadBefore {
            logger.warning(
                """
                GPS time moved ahead by \(HumanText.span(to.seconds(since: from))) (from \(from) to \(to)) and \
                stayed there for \(FixFilter.confirmationsInFuture) fixes in a row: tracking goes on from the new time
                """
            )
            // Nor did the system clock step here.
            clockOffset = ClockOffsetEstimator()
        }
        guard after.accepted > before.accepted else {
            // A no-fix epoch's time ended the trip (`TrackingEngine.advance`).
            if after.tripsEnded > before.tripsEnded { tripEndedWithoutFix() }
            return
        }
        for listener in uplinkListeners { listener.yield() }
        if let arrival, let time = recorder.engine.lastAcceptedTime {
            clock.synchronize(to: time, monotonicNanoseconds: arrival.monotonicNanoseconds)
            eventClock.update(clock, lastFix: time)
            if let change = clockOffset.observe(
                gps: time,
                system: arrival.realtime,
                monotonicNanoseconds: arrival.monotonicNanoseconds
            ) {
                log(change, at: time)
            }
        } else {
            eventClock.update(clock, lastFix: recorder.engine.lastAcceptedTime)
        }
        if !hasStoredAFix {
            hasStoredAFix = true
            flushOrLog(final: true)
        }
    }

    /// The receiver is silent: GPS time carried on the monotonic clock ends a trip whose last fix
    /// lies more than `[Tracking] MaximumGapSec` back, as a no-fix epoch of that time would
    /// (`TrackingEngine.advance`). The service's timer calls this; it does nothing before the
    /// first live fix of the run (no clock yet) or for a replayed log.
    package func advanceClock() {
        guard let now = clock.now(monotonicNanoseconds: SystemClocks.now().monotonicNanoseconds) else { return }
        if recorder.advance(to: now, observe: { log($0) }) { tripEndedWithoutFix() }
    }

    /// A trip ended on time passing, with no fix to carry it: it is committed and the uplinks are
    /// told now, not at the next fix (which may come the next morning).
    private func tripEndedWithoutFix() {
        flushOrLog(commit: true)
        for listener in uplinkListeners { listener.yield() }
    }

    /// What the daemon knows of the present, for re-dating a week-rollover NMEA fix: the system
    /// clock once it is plausible (not before the program was built), as for an import; else,
    /// for a live source, the build date as a floor (a fix received now cannot be older than the
    /// program receiving it). A replayed log may be as old as it likes, so it has no floor.
    private func evidence(systemClock: UTCTime) -> TimeEvidence {
        if systemClock >= BuildDate.floor { return TimeEvidence(now: systemClock) }
        return TimeEvidence(floor: isLive ? BuildDate.floor : nil)
    }

    /// The replayed log ended: an open trip ends at its arrival or last point.
    package func endOfInput() {
        logger.info("end of the replayed log")
        recorder.endOfInput { log($0) }
    }

    /// The last flush (shutdown, end of a replay): commits what is buffered with the engine state;
    /// a failure keeps the buffer for the next flush.
    package func flush() throws(StoreError) {
        if try recorder.flush(final: true) { journeysChanged?.yield() }
        lastCommit = .now
    }

    /// Commits before a client reads the history through the socket: the spooled route points,
    /// and with `buffered` also what waits in memory for the next flush, so a listing shows the
    /// history as the engine has it (a trip that ended a second ago, the trip in progress to its
    /// last fix). `Status`, which clients may poll, commits only the spool: it takes the trip in
    /// progress from the engine, and a commit per poll would wear the SD card.
    package func commitForRead(buffered: Bool) {
        let database = recorder.database
        if database.hasSpooledRoute || (buffered && database.pendingCount > 0) { flushOrLog(commit: true) }
    }

    /// After a clean stop's final flush, with the control socket closed: empties the WAL into
    /// the database file, so the file alone holds the whole history (a copy of it is complete)
    /// and the next start has no WAL to replay. A failure is logged: SQLite does the same at the
    /// next open.
    package func checkpoint() {
        do {
            if try recorder.database.checkpoint() {
                logger.info("history written into \(databasePath), the WAL emptied")
            } else {
                logger.warning(
                    "a reader kept the WAL of \(databasePath) from being emptied; SQLite finishes at the next start"
                )
            }
        } catch {
            logger.warning("cannot empty the WAL of \(databasePath): \(error)")
        }
    }

    /// The timer's flush: a failure (disk full, a reader holding a lock) keeps what is buffered
    /// for the next flush, which retries it. The first failure is logged at once, then one line a
    /// minute while the database stays unwritable (with what waits and what was dropped, see
    /// `[Storage] MaxBufferedPoints`), and one when it is written again. Between commits
    /// (`[Storage] CommitIntervalSec`) a trip's route points go to the spool; `commit` commits
    /// now, `final` commits the engine state too.
    package func flushOrLog(final: Bool = false, commit: Bool = false) {
        let database = recorder.database
        let pending = database.pendingCount
        do {
            let commitDue =
                final || commit || ContinuousClock.now - lastCommit >= .seconds(configuration.storage.commitInterval)
            if try commitDue || !recorder.spool() {
                if try recorder.flush(final: final) { journeysChanged?.yield() }
                lastCommit = .now
            }
            if case .recovered(let outage) = storageHealth.flushSucceeded(at: .now) {
                let line =
                    "the database \(databasePath) is written again after \(HumanText.duration(outage.seconds)): "
                    + "\(pending) waiting writes committed, \(database.droppedRoutePoints) route points dropped in all"
                logger.notice("\(line)")
            }
        } catch {
            let waiting = "\(database.pendingCount) writes wait in memory"
            switch storageHealth.flushFailed("\(error)", at: .now) {
            case .failed(let reason):
                let line =
                    "cannot write the database \(databasePath), tracking goes on in memory: \(reason); \(waiting), "
                    + "past \(database.bufferLimit) every other route point is dropped; retrying at each flush"
                logger.error("\(line)")
            case .stillFailing(let reason, let outage):
                let line =
                    "still cannot write the database \(databasePath) after \(HumanText.duration(outage.seconds)): "
                    + "\(reason); \(waiting), \(database.droppedRoutePoints) route points dropped so far"
                logger.error("\(line)")
            case .recovered, nil:
                break
            }
        }
    }

    /// Logs what this run read, kept and found, in the words of `travelctl import`'s summary.
    package func logStatistics() {
        let s = recorder.engine.statistics
        let line = "this run: \(s.fixSummary); trips: \(s.tripsStarted) started, \(s.tripsEnded) ended"
        logger.info("\(line)")
    }
}

extension TrackingPipeline: ConfigurationSubscriber {
    /// Applies a configuration a reload accepted: thresholds and the flush interval change at
    /// once, and the zones and POIs are read again. The POIs are read and indexed first, off this
    /// actor: a million of them take seconds, in which fixes, flushes and the watchdog's pings
    /// would otherwise wait.
    nonisolated package func configurationReloaded(_ configuration: TravelConfiguration) async {
        let pois = try? TravelDatabase(path: databasePath, readOnly: true).poiIndex()
        await apply(configuration, pois: pois)
    }

    /// `configurationReloaded`'s work on the actor; `pois`: the stored POIs indexed already, `nil`
    /// to read them here.
    private func apply(_ new: TravelConfiguration, pois: POIIndex?) {
        recorder.database.bufferLimit = new.storage.maximumBufferedPoints
        if new.tracking != configuration.tracking {
            do {
                try recorder.reconfigure(new.tracking)
            } catch {
                logger.error("cannot apply the new [Tracking] values, keeping the running ones: \(error)")
                return
            }
        }
        reloadPlaces(pois: pois)
        configuration = new
    }
}
