internal import Logging
internal import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// Logs what people follow a drive by; route points and rejected fixes are too many to log
    /// one by one (the engine counts rejections by reason).
    func log(_ event: TrackingEvent) {
        switch event {
        case .tripStarted(let trip):
            let place = recorder.database.label(for: trip.start)
            logger.notice(
                "trip started at \(trip.startTime) from \(Self.place(trip.start, named: place))",
                metadata: .event(.tripStarted(trip, place: place ?? trip.start.coordinateLabel))
            )
        case .tripEnded(let trip):
            let reason = trip.endReason.map { " (\($0.rawValue))" } ?? ""
            let place = recorder.database.label(for: trip.end)
            logger.notice(
                """
                trip ended at \(trip.endTime) at \(Self.place(trip.end, named: place)): \
                \(HumanText.distance(trip.distance)) in \(HumanText.duration(trip.duration))\(reason)
                """,
                metadata: .event(.tripEnded(trip, place: place ?? trip.end.coordinateLabel))
            )
        case .zone(let event):
            let verb = event.kind == .enter ? "entered" : "left"
            let whileOff = event.whileOff ? " (while the power was off; noticed at the first fix after)" : ""
            logger.notice(
                "\(verb) zone \(event.zoneName) at \(event.time) at \(Self.place(event.coordinate))\(whileOff)",
                metadata: .event(.zone(event))
            )
        case .nearby(let alert):
            logger.notice(
                "\(alert.message) at \(alert.time) at \(Self.place(alert.coordinate))",
                metadata: .event(.nearby(alert))
            )
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
        let when = time.map { " at \($0)" } ?? silence.map { " (no position for \($0.logText))" } ?? ""
        switch change {
        case .acquired:
            let coordinate = Coordinate(latitude: fix?.latitude ?? 0, longitude: fix?.longitude ?? 0)
            logger.info("fix acquired\(when)", metadata: .event(.fixAcquired(at: time, coordinate)))
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

    /// `Castletroy, Munster (52.67269,-8.57132)`: the place's label, the same as `trips` gives,
    /// before its position; the position alone where nothing names it.
    static func place(_ coordinate: Coordinate, named label: String?) -> String {
        guard let label else { return place(coordinate) }
        return "\(label) (\(place(coordinate)))"
    }

    /// `52.66083,-8.63064`: five decimals are a metre, as precise as a fix is.
    static func place(_ coordinate: Coordinate) -> String {
        "\(decimal(coordinate.latitude, places: 5)),\(decimal(coordinate.longitude, places: 5))"
    }

    /// `value` rounded to `places` decimals, without Foundation's `String(format:)`.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return "\(sign)\(scaled / scale).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }
}
