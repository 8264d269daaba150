internal import Logging
internal import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// Logs what people follow a drive by; route points and rejected fixes are too many to log
    /// one by one (the engine counts rejections by reason).
    func log(_ event: TrackingEvent) {
        switch event {
        case .tripStarted(let trip):
            let place = recorder.database.label(for: trip.start) ?? trip.start.coordinateLabel
            notice(.tripStarted(trip, place: place))
        case .tripEnded(let trip):
            let place = recorder.database.label(for: trip.end) ?? trip.end.coordinateLabel
            notice(.tripEnded(trip, place: place))
        case .zone(let event):
            notice(.zone(event))
        case .nearby(let alert):
            notice(.nearby(alert))
        case .fixRejected(let time, .timeJump):
            // Rare, and a sign of a receiver's bad date: worth a line of its own.
            logger.notice(
                "a fix dated \(time.map(\.description) ?? "-"), far ahead of the fixes around it, was dropped (time-jump)"
            )
        case .fixRejected(_, let reason):
            logger.debug("fix rejected: \(reason.rawValue)")
        case .routePoint:
            break
        }
    }

    /// `fix`: the fix that brought a position back, or the one without a position that lost it;
    /// `silence`: how long the source went without a position, when that is how the loss was noticed.
    func log(_ change: FixPresence.Change, fix: Fix?, after silence: Duration? = nil, reason: String? = nil) {
        let time = fix?.time.map {
            GPSWeekRollover.corrected($0, earliest: recorder.engine.configuration.earliestFixTime)
        }
        let when =
            time.map { " at \(HumanText.localTime($0, in: timeZone))" } ?? silence.map {
                " (no position for \($0.logText))"
            } ?? ""
        switch change {
        case .acquired:
            let coordinate = Coordinate(latitude: fix?.latitude ?? 0, longitude: fix?.longitude ?? 0)
            let payload = EventPayload.fixAcquired(at: time, coordinate)
            logger.info("\(sentence(payload) ?? "fix acquired")", metadata: .event(payload))
        case .lost:
            let why =
                reason ?? silence.map { "no position for \($0.logText)" } ?? "the receiver reports no position"
            logger.warning(
                "fix lost\(when)",
                metadata: .event(.source(.fixLost, at: time ?? eventClock.now(), "reason", why))
            )
        }
    }

    /// The system clock measured against GPS time at `time`, or seen to step. Neither changes
    /// what is stored (fixes carry their own time); people want to know their clock is wrong.
    func log(_ change: ClockOffsetEstimator.Change, at time: UTCTime) {
        switch change {
        case .measured(let offset):
            let text = "system clock is \(ClockOffsetEstimator.describe(offset)) GPS time"
            let metadata = Logger.Metadata.event(.clockMeasured(at: time, offset: offset))
            if abs(offset) < ClockOffsetEstimator.stepThreshold {
                logger.info("\(text)", metadata: metadata)
            } else {
                logger.warning("\(text); history is stamped with GPS time", metadata: metadata)
            }
        case .stepped(let from, let to):
            logger.notice(
                """
                \(ClockOffsetEstimator.describeStep(from: from, to: to)); history is stamped with GPS time \
                and unaffected
                """,
                metadata: .event(.clockStepped(at: time, from: from, to: to))
            )
        }
    }

    /// Logs an event whose sentence `EventPayload.sentence(in:)` words, at notice level.
    private func notice(_ payload: EventPayload) {
        logger.notice("\(sentence(payload) ?? payload.kind.name)", metadata: .event(payload))
    }

    /// The sentence people read for `payload`, in the configured `[Journeys] TimeZone`.
    func sentence(_ payload: EventPayload) -> String? {
        payload.sentence(in: timeZone)
    }
}
