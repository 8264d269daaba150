import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore
import TravelFormats

/// `travelctl status`: the running daemon on one screen.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the running daemon is doing: source, fix, trip, counters, database."
    )

    @OptionGroup var database: SocketOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let status = try DaemonClient(socket: database.socket).call(.status)
        if output.json { return print(status.serializedString()) }
        for (key, value) in Self.lines(status) {
            print(key.padding(to: 9) + "  " + value)
        }
    }

    /// The label and text of each line, for people.
    static func lines(_ status: JSONValue) -> [(String, String)] {
        let connected = status["connected"]?.boolValue == true ? "connected" : "not connected"
        var lines = [("Source", "\(status["source"]?.stringValue ?? "?") (\(connected))")]
        let zone = status.timeZone
        lines.append(("Fix", fixLine(status["fix"] ?? .null, zone)))
        if let trip = status["trip"], trip != .null {
            let start = trip.optionalTime("start").map { Format.localDateTime($0, zone) } ?? "?"
            lines.append(
                (
                    "Trip",
                    "driving since \(start) (\(zone.name)): \(HumanText.distance(trip["distance_m"]?.doubleValue ?? 0)), "
                        + HumanText.duration(trip["duration_s"]?.doubleValue ?? 0)
                )
            )
        } else {
            lines.append(("Trip", "parked"))
        }
        if let journey = status["journey"], journey != .null {
            lines.append(
                (
                    "Journey",
                    "\(journey["id"]?.intValue ?? 0) to \(journey["destination"]?.stringValue ?? "?"), "
                        + "\(HumanText.distance(journey["distance_m"]?.doubleValue ?? 0)) so far"
                )
            )
        }
        let counters = status["counters"] ?? [:]
        var fixes =
            "\(counters["fixes_read"]?.intValue ?? 0) read, \(counters["accepted"]?.intValue ?? 0) accepted"
        let reasons = (counters["rejected_by_reason"]?.objectMembers ?? []).map {
            "\($0.value.intValue ?? 0) \($0.key)"
        }
        if !reasons.isEmpty {
            fixes += ", \(counters["rejected"]?.intValue ?? 0) rejected (\(reasons.joined(separator: ", ")))"
        }
        lines.append(("Fixes", fixes))
        lines.append(
            (
                "Trips",
                "\(counters["trips_started"]?.intValue ?? 0) started, \(counters["trips_ended"]?.intValue ?? 0) ended since the daemon started"
            )
        )
        let bytes = status["database_bytes"]?.intValue ?? 0
        lines.append(("Database", "\(status["database"]?.stringValue ?? "?") (\(Format.bytes(bytes)))"))
        let dropped = status["points_dropped"]?.intValue ?? 0
        if let error = status["database_error"]?.stringValue {
            let waiting = status["pending_writes"]?.intValue ?? 0
            lines.append(
                ("Writing", "FAILING: \(error); \(waiting) writes wait in memory, \(dropped) route points dropped")
            )
        } else if dropped > 0 {
            lines.append(("Writing", "ok; \(dropped) route points were dropped while it failed"))
        }
        let clock = status["clock_offset_s"]?.doubleValue.map {
            "system clock \(ClockOffsetEstimator.describe($0)) GPS time"
        }
        lines.append(("Clock", clock ?? "not measured yet"))
        for uplink in status["uplinks"]?.arrayValue ?? [] {
            lines.append(("Uplink", uplinkLine(uplink, zone)))
        }
        lines.append(("Uptime", HumanText.duration(status["uptime_s"]?.doubleValue ?? 0)))
        lines.append(
            (
                "Clients",
                "\(status["connections"]?.intValue ?? 0) connected, \(status["subscribers"]?.intValue ?? 0) following"
            )
        )
        return lines
    }

    /// `mqtt to mqtt://broker:1883: connected, 0 waiting, last delivered …; 1523 delivered, 320 thinned`.
    private static func uplinkLine(_ uplink: JSONValue, _ zone: LocalTimeZone) -> String {
        let connected = uplink["connected"]?.boolValue == true ? "connected" : "NOT CONNECTED"
        let backlog = uplink["backlog"]?.intValue.map { "\($0) waiting" } ?? "backlog unknown"
        var line =
            "\(uplink["name"]?.stringValue ?? "?") to \(uplink["server"]?.stringValue ?? "?"): \(connected), \(backlog)"
        if let last = uplink.optionalTime("last_delivered") {
            line += ", last delivered the point of \(Format.localDateTime(last, zone)) (\(zone.name))"
        }
        var counts = ["\(uplink["delivered"]?.intValue ?? 0) delivered"]
        for key in ["thinned", "expired", "failed", "refused"] {
            if let count = uplink[key]?.intValue, count > 0 { counts.append("\(count) \(key)") }
        }
        line += "; " + counts.joined(separator: ", ") + " since the daemon started"
        if let paused = uplink["paused_s"]?.doubleValue {
            line += "; sending again in \(HumanText.duration(paused))"
        }
        if let error = uplink["last_error"]?.stringValue { line += "; last error: \(error)" }
        return line
    }

    private static func fixLine(_ fix: JSONValue, _ zone: LocalTimeZone) -> String {
        guard fix != .null else { return "none yet" }
        let mode = fix["mode"]?.stringValue ?? "?"
        let age = "\(Format.seconds(fix["age_s"]?.doubleValue ?? 0)) ago"
        guard let latitude = fix["latitude"]?.doubleValue, let longitude = fix["longitude"]?.doubleValue else {
            return "\(mode), no position (\(age))"
        }
        var parts = [mode.uppercased(), Coordinate(latitude: latitude, longitude: longitude).coordinateLabel]
        if let satellites = fix["satellites"]?.intValue { parts.append("\(satellites) satellites") }
        if let speed = fix["speed_mps"]?.doubleValue { parts.append(Format.speed(speed)) }
        let time = fix.optionalTime("time").map { " at \(Format.localDateTime($0, zone)) (\(zone.name))" } ?? ""
        return parts.joined(separator: ", ") + time + " (\(age))"
    }
}

extension Format {
    /// `850 kB`, `12.4 MB`: a file's size, in decimal units.
    static func bytes(_ count: Int) -> String {
        if count < 1_000_000 { return "\((count + 500) / 1000) kB" }
        let tenths = (count + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// `2.3 s`, one decimal.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10) s"
    }
}
