internal import Logging
internal import TravelCore

extension TrackingPipeline {
    /// Logs what people follow a drive by; route points and rejected fixes are too many to log
    /// one by one (the engine counts rejections by reason).
    func log(_ event: TrackingEvent) {
        switch event {
        case .tripStarted(let trip):
            logger.notice(
                "trip started at \(trip.startTime) from \(Self.place(trip.start))",
                metadata: .event(
                    .tripStarted,
                    [
                        "trip_start": "\(trip.startTime)", "latitude": "\(trip.start.latitude)",
                        "longitude": "\(trip.start.longitude)",
                    ]
                )
            )
        case .tripEnded(let trip):
            let reason = trip.endReason.map { " (\($0.rawValue))" } ?? ""
            logger.notice(
                """
                trip ended at \(trip.endTime) at \(Self.place(trip.end)): \(Self.distance(trip.distance)) \
                in \(Self.duration(trip.duration))\(reason)
                """,
                metadata: .event(
                    .tripEnded,
                    [
                        "trip_start": "\(trip.startTime)", "trip_end": "\(trip.endTime)",
                        "distance_m": "\(Int(trip.distance.rounded()))",
                        "duration_s": "\(Int(trip.duration.rounded()))",
                        "latitude": "\(trip.end.latitude)", "longitude": "\(trip.end.longitude)",
                    ]
                )
            )
        case .zone(let event):
            let verb = event.kind == .enter ? "entered" : "left"
            let whileOff = event.whileOff ? " (while the power was off; noticed at the first fix after)" : ""
            logger.notice(
                "\(verb) zone \(event.zoneName) at \(event.time) at \(Self.place(event.coordinate))\(whileOff)",
                metadata: .event(
                    event.kind == .enter ? .zoneEntered : .zoneExited,
                    [
                        "zone_id": "\(event.zoneID)", "zone_name": "\(event.zoneName)",
                        "zone_event": "\(event.kind.rawValue)",
                        "while_off": "\(event.whileOff)", "latitude": "\(event.coordinate.latitude)",
                        "longitude": "\(event.coordinate.longitude)",
                        "trip_start": "\(event.tripStart.map { "\($0)" } ?? "")",
                    ]
                )
            )
        case .nearby(let alert):
            logger.notice(
                "\(alert.message) at \(alert.time) at \(Self.place(alert.coordinate))",
                metadata: .event(
                    .poiNearby,
                    [
                        "poi_id": "\(alert.poiID)", "poi_name": "\(alert.poiName)",
                        "poi_category": "\(alert.category ?? "")", "distance_m": "\(Int(alert.distance.rounded()))",
                        "latitude": "\(alert.coordinate.latitude)", "longitude": "\(alert.coordinate.longitude)",
                        "trip_start": "\(alert.tripStart.map { "\($0)" } ?? "")",
                    ]
                )
            )
        case .fixRejected(_, let reason):
            logger.debug("fix rejected: \(reason.rawValue)")
        case .routePoint:
            break
        }
    }

    /// `silence`: how long the source went without a position, when that is how the loss was noticed.
    func log(_ change: FixPresence.Change, at time: UTCTime?, after silence: Duration? = nil) {
        let when = time.map { " at \($0)" } ?? silence.map { " (no position for \($0.logText))" } ?? ""
        switch change {
        case .acquired: logger.info("fix acquired\(when)", metadata: .event(.fixAcquired))
        case .lost: logger.warning("fix lost\(when)", metadata: .event(.fixLost))
        }
    }

    /// The system clock measured against GPS time, or seen to step. Neither changes what is
    /// stored (fixes carry their own time); people want to know their clock is wrong.
    func log(_ change: ClockOffsetEstimator.Change) {
        switch change {
        case .measured(let offset):
            let text = "system clock is \(ClockOffsetEstimator.describe(offset)) GPS time"
            if abs(offset) < ClockOffsetEstimator.stepThreshold {
                logger.info("\(text)", metadata: .event(.clockMeasured, ["clock_offset_s": "\(offset)"]))
            } else {
                logger.warning(
                    "\(text); history is stamped with GPS time",
                    metadata: .event(.clockMeasured, ["clock_offset_s": "\(offset)"])
                )
            }
        case .stepped(let from, let to):
            logger.notice(
                """
                \(ClockOffsetEstimator.describeStep(from: from, to: to)); history is stamped with GPS time \
                and unaffected
                """,
                metadata: .event(.clockStepped, ["clock_offset_s": "\(to)"])
            )
        }
    }

    /// `52.66083,-8.63064`: five decimals are a metre, as precise as a fix is.
    static func place(_ coordinate: Coordinate) -> String {
        "\(decimal(coordinate.latitude, places: 5)),\(decimal(coordinate.longitude, places: 5))"
    }

    /// `14.2 km`, `850 m`.
    static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : "\(decimal(metres / 1000, places: 1)) km"
    }

    /// `1h 12min`, `3min 20s`, `45s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        if hours > 0 { return "\(hours)h \(minutes)min" }
        if minutes > 0 { return rest > 0 ? "\(minutes)min \(rest)s" : "\(minutes)min" }
        return "\(rest)s"
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
