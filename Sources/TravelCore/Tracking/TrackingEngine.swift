/// The tracking pipeline shared by the live daemon and `travelctl import`: the fix filter,
/// then the trip detector. Fixes with their own time in, events out; nothing else.
package struct TrackingEngine: Sendable {
    package let configuration: TrackingConfiguration
    private var filter: FixFilter
    private var detector: TripDetector
    /// Fixes offered, accepted, and rejected by reason; trips started and ended.
    package private(set) var statistics = TrackingStatistics()
    /// The zones watched for enter/exit, tested with every accepted fix (none by default).
    package var zones = ZoneWatcher(zones: [])
    /// The POIs watched for nearby alerts (none by default).
    package var nearby = NearbyWatcher()
    /// `configuration.earliestFixTime`, parsed once.
    private let earliestFixTime: UTCTime
    /// The last fix date moved by `GPSWeekRollover.redated`: as the receiver gave it, and as stored.
    package private(set) var lastRedating: (original: UTCTime, stored: UTCTime)?
    /// The last step back of GPS time the filter re-based on: the last fix before it, the first after.
    package private(set) var lastTimeStep: (from: UTCTime, to: UTCTime)?
    /// The last time GPS time moved ahead of the reference clock for good (`FixFilter`): the
    /// reference, and the first fix accepted on the new time.
    package private(set) var lastMoveAhead: (from: UTCTime, to: UTCTime)?

    package init(configuration: TrackingConfiguration = .init()) {
        self.configuration = configuration
        earliestFixTime = configuration.earliestFixTime
        filter = FixFilter(configuration: configuration)
        detector = TripDetector(configuration: configuration)
    }

    /// Resumes with a saved filter anchor, held epochs and detector phase (see `snapshot`).
    init(
        configuration: TrackingConfiguration,
        filterLast: (time: UTCTime, coordinate: Coordinate)?,
        held: FixFilter.Held,
        phase: TripDetector.Phase,
        window: [TripDetector.Sample]
    ) {
        self.configuration = configuration
        earliestFixTime = configuration.earliestFixTime
        filter = FixFilter(configuration: configuration, last: filterLast, held: held)
        detector = TripDetector(configuration: configuration, phase: phase, window: window)
    }

    var filterLast: (time: UTCTime, coordinate: Coordinate)? { filter.last }
    var filterHeld: FixFilter.Held { filter.held }
    var detectorPhase: TripDetector.Phase { detector.phase }
    var detectorWindow: [TripDetector.Sample] { detector.persistentWindow }

    /// Feeds one fix (its own time is the clock); events are handed to `emit`. A fix whose time
    /// the next epochs must confirm (`FixFilter`) is held, and its events come with theirs.
    ///
    /// `referenceTime` is a trusted clock for the "not in the future" check, or `nil` (imports).
    /// `evidence` is what the caller knows of the present, by which an NMEA date of a receiver
    /// with the week-rollover bug is moved (`GPSWeekRollover.redated`); with none, no date is.
    package mutating func ingest(
        _ fix: Fix,
        referenceTime: UTCTime? = nil,
        evidence: TimeEvidence = .none,
        emit: (TrackingEvent) -> Void
    ) {
        statistics.fixes += 1
        var fix = fix
        if let time = fix.time,
            let moved = GPSWeekRollover.redated(
                time,
                source: fix.source,
                earliest: earliestFixTime,
                evidence: evidence,
                tolerance: configuration.maximumFutureSkew
            )
        {
            fix.time = moved
            statistics.weekRolloverCorrections += 1
            lastRedating = (time, moved)
        }
        apply(filter.offer(fix, referenceTime: referenceTime), emit: emit)
        // A receiver without a fix still tells the time: a trip's gap passes on it, as it would
        // on the next fix, so an imported log ends the trip exactly when the live run did.
        if let now = filter.timePassed(by: fix, referenceTime: referenceTime) { advance(to: now, emit: emit) }
    }

    /// GPS time reached `now` without an accepted fix (no-fix epochs dated `now`, or the daemon's
    /// clock while the receiver is silent): a trip whose last fix lies more than `maximumGap`
    /// before `now` ends, back-dated as the next fix would end it (`TripDetector.advance`).
    package mutating func advance(to now: UTCTime, emit: (TrackingEvent) -> Void) {
        var tally = TripTally()
        detector.advance(to: now) { event in
            tally.count(event)
            emit(event)
        }
        statistics.add(tally)
    }

    /// Carries out what the filter decided: rejections counted, a step of GPS time ending the
    /// trip in progress, accepted fixes through the trip detector and the watchers.
    private mutating func apply(_ decisions: [FixFilter.Decision], emit: (TrackingEvent) -> Void) {
        for decision in decisions {
            switch decision {
            case .rejected(let fix, let reason):
                statistics.rejected[reason, default: 0] += 1
                emit(.fixRejected(time: fix.time, reason: reason))
            case .rebased(let from, let to):
                statistics.timeSteps += 1
                lastTimeStep = (from, to)
                var tally = TripTally()
                detector.timeStepped { event in
                    tally.count(event)
                    emit(event)
                }
                statistics.add(tally)
            case .movedAhead(let from, let to):
                lastMoveAhead = (from, to)
            case .accepted(let fix):
                accept(fix, emit: emit)
            }
        }
    }

    private mutating func accept(_ fix: Fix, emit: (TrackingEvent) -> Void) {
        statistics.accepted += 1
        let point = RoutePoint(
            time: fix.time!,
            coordinate: Coordinate(latitude: fix.latitude!, longitude: fix.longitude!),
            altitude: fix.altitudeMSL,
            speed: fix.speed,
            track: fix.track,
            horizontalError: fix.horizontalError
        )
        var tally = TripTally()
        detector.ingest(point) { event in
            tally.count(event)
            emit(event)
        }
        statistics.add(tally)
        let tripStart = drivingTripStart
        zones.observe(
            point.coordinate,
            at: point.time,
            error: fix.horizontalError,
            hdop: fix.hdop,
            moving: isDriving,
            tripStart: tripStart
        ) { emit(.zone($0)) }
        nearby.observe(point.coordinate, at: point.time, tripStart: tripStart) { emit(.nearby($0)) }
    }

    /// The start of the drive in progress, announced or not yet (zone events and alerts name it).
    private var drivingTripStart: UTCTime? {
        if case .driving(let drive) = detector.phase { drive.trip.startTime } else { nil }
    }

    /// The log ended: epochs the filter held are decided, alerts waiting for a closer fix are
    /// given, and an open trip ends at its arrival or last point (reason `.endOfInput`).
    package mutating func endOfInput(emit: (TrackingEvent) -> Void) {
        apply(filter.finish(), emit: emit)
        nearby.finish { emit(.nearby($0)) }
        var tally = TripTally()
        detector.endOfInput { event in
            tally.count(event)
            emit(event)
        }
        statistics.add(tally)
    }

    /// The log goes on after a span it is not fed (an import skips time already recorded): as at
    /// the end of input, then the next fix starts afresh, as the first fix ever did, so no trip
    /// bridges the span. The zones are watched from an unknown state again: what the vehicle did
    /// in the span is recorded already, zone events included. Statistics carry on.
    package mutating func resumeAfterSkippedSpan(emit: (TrackingEvent) -> Void) {
        endOfInput(emit: emit)
        filter = FixFilter(configuration: configuration)
        detector = TripDetector(configuration: configuration)
        zones = ZoneWatcher(zones: zones.zones, rules: zones.rules)
    }

    /// The receiver or the daemon restarted (the daemon calls this when it starts and when its
    /// source reconnects after an outage): a stationary gap across it is a parking.
    package mutating func sourceRestarted() {
        detector.sourceRestarted()
    }

    /// Starts the counters afresh (a restart, after catching up on the route points stored by the
    /// run before: those are not fixes this run read).
    package mutating func resetStatistics() {
        statistics = TrackingStatistics()
    }

    /// The last accepted fix's time and position, if any (zones tell a power gap by it).
    package var lastAcceptedFix: (time: UTCTime, coordinate: Coordinate)? { filter.last }

    /// The time of the last accepted fix, if any.
    package var lastAcceptedTime: UTCTime? { filter.last?.time }

    /// The trip in progress, once it has been announced.
    package var currentTrip: TripSummary? { detector.currentTrip }

    /// Whether the vehicle is on a trip (announced or not yet).
    package var isDriving: Bool {
        if case .driving = detector.phase { true } else { false }
    }

}

/// Trip events counted while the detector is busy emitting them.
private struct TripTally {
    var started = 0
    var ended = 0

    mutating func count(_ event: TrackingEvent) {
        switch event {
        case .tripStarted: started += 1
        case .tripEnded: ended += 1
        case .routePoint, .fixRejected, .zone, .nearby: break
        }
    }
}

/// Counters of the tracking pipeline, for import summaries, `status` and the journal.
package struct TrackingStatistics: Sendable, Hashable {
    package var fixes = 0
    package var accepted = 0
    package var rejected: [FixRejection: Int] = [:]
    package var tripsStarted = 0
    package var tripsEnded = 0
    /// Fixes dated before `TrackingConfiguration.earliestFixTime`, moved forward by 1024 weeks.
    package var weekRolloverCorrections = 0
    /// Steps back of GPS time that lasted, after which tracking went on from the new time.
    package var timeSteps = 0

    package init() {}

    package var rejectedTotal: Int { rejected.values.reduce(0, +) }

    fileprivate mutating func add(_ tally: TripTally) {
        tripsStarted += tally.started
        tripsEnded += tally.ended
    }
}
