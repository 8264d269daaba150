extension EventPayload {
    /// The sentence a person reads for this event: the journal's `MESSAGE`, the hook's
    /// `TC_MESSAGE`, `follow`'s line and the desktop notification's body. Times are local in
    /// `zone` (`[Journeys] TimeZone`), to the minute as the tables show them; places by name,
    /// coordinates only where nothing names them. The fields stay ISO UTC and degrees for machines.
    ///
    /// `nil` for the kinds whose sentence is not made of their fields (the source, the clock, a
    /// week rollover, a fix lost): the daemon words those where it notices them.
    package func sentence(in zone: LocalTimeZone) -> String? {
        let when = time.map { " at \(HumanText.localTime($0, in: zone))" } ?? ""
        switch kind {
        case .tripStarted:
            return "trip started\(when) from \(text("place"))"
        case .tripEnded:
            let reason = string("end_reason").map { " (\($0))" } ?? ""
            return """
                trip ended\(when) at \(text("place")): \(HumanText.distance(number("distance_m"))) \
                in \(HumanText.duration(number("duration_s")))\(reason)
                """
        case .zoneEntered, .zoneExited:
            let verb = kind == .zoneEntered ? "entered" : "left"
            let whileOff =
                values["while_off"] == .boolean(true)
                ? " (while the power was off; noticed at the first fix after)" : ""
            return "\(verb) zone \(text("zone_name"))\(when)\(whileOff)"
        case .poiNearby:
            let message = NearbyAlert.message(
                poiName: text("poi_name"),
                category: string("poi_category"),
                distance: number("distance_m")
            )
            return "\(message)\(when)"
        case .fixAcquired:
            return "fix acquired\(when)"
        case .noTripReminder:
            let since = instant("last_trip_end").map { " since \(HumanText.localTime($0, in: zone))" } ?? ""
            let days = text("days")
            return "no trip logged\(since), \(days) day\(days == "1" ? "" : "s") or more"
        case .planReminder:
            return """
                plan \(text("plan_id")) to \(text("destination")) starts tomorrow, \(text("plan_from")) \
                (travelctl plan list)
                """
        case .fixLost, .sourceConnected, .sourceDisconnected, .clockMeasured, .clockStepped, .weekRollover:
            return nil
        }
    }

    private func string(_ name: String) -> String? {
        if case .string(let value) = values[name] { value } else { nil }
    }

    /// The field as text, `?` when missing.
    private func text(_ name: String) -> String {
        guard let value = values[name], value != .null else { return "?" }
        return value.description
    }

    private func number(_ name: String) -> Double {
        switch values[name] {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: .nan
        }
    }

    private func instant(_ name: String) -> UTCTime? {
        if case .time(let value) = values[name] { value } else { nil }
    }
}
