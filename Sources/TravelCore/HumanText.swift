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

    /// `45 s`, `12 min`, `1 h 05 min`: seconds below a minute, minutes below an hour.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "? min" }
        let total = Int(seconds.rounded())
        let (hours, minutes) = (total / 3600, (total % 3600) / 60)
        if hours > 0 { return "\(hours) h \(minutes < 10 ? "0" : "")\(minutes) min" }
        if minutes > 0 { return "\(minutes) min" }
        return "\(total) s"
    }
}
