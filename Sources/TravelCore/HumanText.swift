/// Distances and durations for people, written one way wherever they appear: `travelctl`'s
/// tables, the daemon's log lines and service status, and export descriptions.
package enum HumanText {
    /// `850 m`, `14.2 km`.
    package static func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "? km" }
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        let tenths = Int((metres / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) km"
    }

    /// `45 s`, `12 min`, `1 h 05 min`: seconds below a minute, else whole minutes as `minutes`
    /// rounds them, so a trip reads the same length here, over MQTT and in the report.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "? min" }
        if seconds.rounded() < 60 { return "\(Int(seconds.rounded())) s" }
        let total = minutes(seconds)
        let (hours, rest) = (total / 60, total % 60)
        if hours > 0 { return "\(hours) h \(rest < 10 ? "0" : "")\(rest) min" }
        return "\(rest) min"
    }

    /// A length of time in whole minutes, rounded to the nearest (24 min 30 s is 25): the one rule
    /// for minutes wherever a duration is shown or sent (`trip_min`).
    package static func minutes(_ seconds: Double) -> Int {
        seconds.isFinite ? Int(max(-1e15, min(1e15, seconds / 60)).rounded()) : 0
    }

    /// `2026-01-05 09:44`: an instant as the clocks of `zone` show it, to the minute, as
    /// `travelctl`'s tables show times; for the sentences people read (`EventPayload.sentence`).
    package static func localTime(_ time: UTCTime, in zone: LocalTimeZone) -> String {
        let local = zone.local(time).iso8601
        return "\(local.prefix(10)) \(local.dropFirst(11).prefix(5))"
    }

    /// `3 years 12 days`, `2 h 5 min`, `0.4 s`: a length of time that may be years (a clock's
    /// offset or step), to two units.
    package static func span(_ magnitude: Double) -> String {
        let seconds = Int(magnitude.rounded())
        let days = seconds / 86_400
        let text: String
        if days >= 365 {
            let years = days / 365
            text = "\(years) year\(years == 1 ? "" : "s") \(days % 365) day\(days % 365 == 1 ? "" : "s")"
        } else if days >= 1 {
            text = "\(days) day\(days == 1 ? "" : "s") \((seconds % 86_400) / 3600) h"
        } else if seconds >= 3600 {
            text = "\(seconds / 3600) h \((seconds % 3600) / 60) min"
        } else if seconds >= 60 {
            text = "\(seconds / 60) min \(seconds % 60) s"
        } else {
            let tenths = (magnitude * 10).rounded() / 10
            text = "\(tenths) s"
        }
        return text
    }
}
