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
                metadata: ["trip_start": "\(trip.startTime)"]
            )
        case .tripEnded(let trip):
            let reason = trip.endReason.map { " (\($0.rawValue))" } ?? ""
            logger.notice(
                """
                trip ended at \(trip.endTime) at \(Self.place(trip.end)): \(Self.distance(trip.distance)) \
                in \(Self.duration(trip.duration))\(reason)
                """,
                metadata: [
                    "trip_start": "\(trip.startTime)",
                    "distance_m": "\(Int(trip.distance.rounded()))",
                    "duration_s": "\(Int(trip.duration.rounded()))",
                ]
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
        case .acquired: logger.info("fix acquired\(when)")
        case .lost: logger.warning("fix lost\(when)")
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
