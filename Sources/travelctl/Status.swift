import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `travelctl status`: the running daemon on one screen.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the running daemon is doing: source, fix, trip, counters, database."
    )

    @OptionGroup var database: SocketOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let status: StatusReply = try DaemonClient(socket: database.socket).call(.status, NoParameters())
        if output.json { return print(status.json.serializedString()) }
        for (key, value) in Self.lines(status) {
            print(key.padding(to: 9) + "  " + value)
        }
    }

    /// The label and text of each line, for people.
    static func lines(_ status: StatusReply) -> [(String, String)] {
        var lines = [("Source", "\(status.source) (\(status.connected ? "connected" : "not connected"))")]
        let zone = LocalTimeZone.of(name: status.timeZone)
        lines.append(("Fix", status.fix.map { fixLine($0, zone) } ?? "none yet"))
        if let trip = status.trip {
            let start = Format.localDateTime(trip.start, zone)
            lines.append(
                (
                    "Trip",
                    "driving since \(start) (\(zone.name)): \(HumanText.distance(trip.distance)), "
                        + HumanText.duration(trip.duration)
                )
            )
        } else {
            lines.append(("Trip", "parked"))
        }
        if let journey = status.journey {
            lines.append(
                (
                    "Journey",
                    // No destination while its first trip is under way: it has stopped nowhere yet.
                    "\(journey.id)\(journey.destination.isEmpty ? "" : " to \(journey.destination)"), "
                        + "\(HumanText.distance(journey.distance)) so far"
                )
            )
        }
        let counters = status.counters
        var fixes = "\(counters.fixesRead) read, \(counters.accepted) accepted"
        let reasons = counters.rejectedByReason.map { "\($0.count) \($0.reason)" }
        if !reasons.isEmpty {
            fixes += ", \(counters.rejected) rejected (\(reasons.joined(separator: ", ")))"
        }
        lines.append(("Fixes", fixes))
        lines.append(
            (
                "Trips",
                "\(counters.tripsStarted) started, \(counters.tripsEnded) ended since the daemon started"
            )
        )
        lines.append(("Database", "\(status.database) (\(Format.bytes(Int(clamping: status.databaseBytes))))"))
        let dropped = status.pointsDropped
        if let error = status.databaseError {
            let waiting = status.pendingWrites
            lines.append(
                ("Writing", "FAILING: \(error); \(waiting) writes wait in memory, \(dropped) route points dropped")
            )
        } else if dropped > 0 {
            lines.append(("Writing", "ok; \(dropped) route points were dropped while it failed"))
        }
        let clock = status.clockOffset.map { "system clock \(ClockOffsetEstimator.describe($0)) GPS time" }
        lines.append(("Clock", clock ?? "not measured yet"))
        for uplink in status.uplinks {
            lines.append(("Uplink", uplinkLine(uplink, zone)))
        }
        lines.append(("Uptime", HumanText.duration(status.uptime)))
        lines.append(("Clients", "\(status.connections) connected, \(status.subscribers) following"))
        return lines
    }

    /// `mqtt to mqtt://broker:1883: connected, 0 waiting, last delivered …; 1523 delivered, 320 thinned`.
    private static func uplinkLine(_ uplink: UplinkStatusMessage, _ zone: LocalTimeZone) -> String {
        let connected = uplink.connected ? "connected" : "NOT CONNECTED"
        let backlog = uplink.backlog.map { "\($0) waiting" } ?? "backlog unknown"
        var line = "\(uplink.name) to \(uplink.server): \(connected), \(backlog)"
        if let last = uplink.lastDelivered {
            line += ", last delivered the point of \(Format.localDateTime(last, zone)) (\(zone.name))"
        }
        var counts = ["\(uplink.delivered) delivered"]
        let others = [
            ("thinned", uplink.thinned), ("expired", uplink.expired), ("failed", uplink.failed),
            ("refused", uplink.refused),
        ]
        for (name, count) in others where count > 0 { counts.append("\(count) \(name)") }
        line += "; " + counts.joined(separator: ", ") + " since the daemon started"
        if let paused = uplink.paused {
            line += "; sending again in \(HumanText.duration(paused))"
        }
        if let error = uplink.lastError { line += "; last error: \(error)" }
        return line
    }

    private static func fixLine(_ fix: StatusFixMessage, _ zone: LocalTimeZone) -> String {
        let age = "\(Format.seconds(fix.age)) ago"
        guard let coordinate = fix.coordinate else { return "\(fix.mode.rawValue), no position (\(age))" }
        var parts = [fix.mode.rawValue.uppercased(), coordinate.coordinateLabel]
        if let satellites = fix.satellites { parts.append("\(satellites) satellites") }
        if let speed = fix.speed { parts.append(Format.speed(speed)) }
        let time = fix.time.map { " at \(Format.localDateTime($0, zone)) (\(zone.name))" } ?? ""
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
