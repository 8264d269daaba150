import Foundation
import TestSupport
import Testing

/// Days in the car far from UTC, fed live through a serial pty: a zone written as people write
/// it, eight hours east (`UTC+8`) or eight west (`America/Los_Angeles` in January), drives at the
/// edges of local days, a garage stop (the receiver reports "no fix" after arrival), a receiver
/// unplugged after arrival, a stop and a restart, then the receiver's own log imported over the
/// days the daemon recorded (in both orders with a GPX of a drive it missed) and taken out again.
/// Every listing is checked against the composed days, in local time, through `--db` and the
/// socket alike.
@Suite(.serialized) struct FarFromUTCWeekTests {
    typealias Point = NMEALogWriter.Point

    /// A time zone as the configuration says it, and its offset from UTC in January (hours).
    struct Zone: CustomTestStringConvertible, Sendable {
        var setting: String
        var hours: Double
        var testDescription: String { setting }
    }

    /// One drive: out (home → far terminus) or back, leaving at `hour` local time of `day` (days
    /// from Monday 2026-01-05, local); how the receiver behaves after the arrival.
    struct Drive {
        enum After { case parked, garage, unplugged }
        var day: Int
        var hour: Double
        var back: Bool
        var after: After = .parked
    }

    /// Monday out in the morning into a garage (no fix for minutes), back in the evening; Tuesday
    /// out late, arriving after local midnight; Wednesday back, the receiver unplugged on arrival;
    /// Thursday out, a drive the daemon never saw (it is only in the receiver's own log).
    static let drives = [
        Drive(day: 0, hour: 7.5, back: false, after: .garage), Drive(day: 0, hour: 17.5, back: true),
        Drive(day: 1, hour: 23.25, back: false), Drive(day: 2, hour: 9, back: true, after: .unplugged),
        Drive(day: 3, hour: 7.5, back: false),
    ]
    static let liveDrives = 4

    /// Monday 2026-01-05 00:00 local time in `zone`.
    static func firstDay(_ zone: Zone) -> Date {
        Date(timeIntervalSince1970: 1_767_571_200 - zone.hours * 3600)
    }

    static func departure(of drive: Drive, in zone: Zone) -> Date {
        firstDay(zone).addingTimeInterval(Double(drive.day) * 86_400 + drive.hour * 3600)
    }

    /// The local date (`2026-01-0D`) a drive leaves on.
    static func localDate(of drive: Drive) -> String { "2026-01-0\(5 + drive.day)" }

    /// A receiver's "no fix" epoch: RMC with status V (its time and date still valid), GGA quality 0.
    static func noFix(at time: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        let date = String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
        let hms = NMEALogWriter.hms(c)
        return NMEALogWriter.sentence("GPRMC,\(hms),V,,,,,,,\(date),,,N")
            + NMEALogWriter.sentence("GPGGA,\(hms),,,,,0,00,99.9,,M,,M,,")
    }

    /// The sentences of `drive`: three parked minutes before it, the ride, then per `after`: eight
    /// parked minutes (a fix every 10 s), three minutes of "no fix" at 1 Hz, or nothing.
    static func epochs(of drive: Drive, ride: [Point], zone: Zone) -> [String] {
        let points = drive.back ? Array(ride.reversed()) : ride
        let length = ride[ride.count - 1].time.timeIntervalSince(ride[0].time)
        let start = departure(of: drive, in: zone)
        var timed: [(Point, Date)] = (1...18).reversed().map { (points[0], start.addingTimeInterval(Double(-10 * $0))) }
        for point in points {
            let offset = point.time.timeIntervalSince(ride[0].time)
            timed.append((point, start.addingTimeInterval(drive.back ? length - offset : offset)))
        }
        let arrival = timed[timed.count - 1].1
        switch drive.after {
        case .parked: timed += (1...48).map { (points[points.count - 1], arrival.addingTimeInterval(Double(10 * $0))) }
        case .garage, .unplugged: break
        }
        var sentences = timed.map { NMEALogWriter.rmc($0.0, time: $0.1) + NMEALogWriter.gga($0.0, time: $0.1) }
        if drive.after == .garage { sentences += (1...180).map { noFix(at: arrival.addingTimeInterval(Double($0))) } }
        return sentences
    }

    static let zones = [Zone(setting: "UTC+8", hours: 8), Zone(setting: "America/Los_Angeles", hours: -8)]

    @Test(arguments: zones) func daysFarFromUTCReadBackRightEverywhere(zone: Zone) throws {
        let week = WeekInTheCarTests.Week()
        defer { week.state.remove() }
        try week.configure(
            home: "52.62915,-8.66175",
            timeZone: zone.setting,
            tracking: "[Tracking]\nMaximumGapSec=60\nParkedGapSec=30\n"
        )
        let ride = Self.densified(try NMEALogWriter.points(ofGPX: DaemonReplayTests.bus))
        let epochs = Self.drives.map { Self.epochs(of: $0, ride: ride, zone: zone) }

        let receiver = try PTYReceiver()
        var daemon = try week.daemon("serial://\(receiver.device)?baud=38400")
        // Monday morning: the ride, then the garage. The trip ends when the gap passes, at the
        // arrival, while the receiver still reports no fix.
        try WeekInTheCarTests.feed(epochs[0][...], to: week, receiver.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 1), "\(daemon.output)")
        // Monday evening; Tuesday late. `status` mid-drive reads the local time.
        try WeekInTheCarTests.feed(epochs[1][...], to: week, receiver.write)
        let half = epochs[2].count / 2
        try WeekInTheCarTests.feed(epochs[2][..<half], to: week, receiver.write)
        let screen = try week.travelctl(["status"], socket: true)
        #expect(screen.contains("Trip       driving since 2026-01-06 23:"), "\(screen)")
        try WeekInTheCarTests.feed(epochs[2][half...], to: week, receiver.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 3), "\(daemon.output)")
        // Wednesday back, and the receiver is pulled out on arrival: the trip ends by itself.
        try WeekInTheCarTests.feed(epochs[3][...], to: week, receiver.write)
        receiver.unplug()
        #expect(daemon.waitForLines(containing: "trip ended", count: 4), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")

        let live = try week.trips()
        try Self.checkTruth(week, zone: zone, trips: live, count: Self.liveDrives, database: week.state.database)

        // The receiver's own log of all four days (and Thursday's drive, which the daemon never
        // saw), and a GPX of Thursday's drive: imported over the recorded days, in both orders,
        // they add Thursday's trip alone; taken out again, the live history is as it was.
        let log = week.state.url.appendingPathComponent("receiver.nmea").path
        try epochs.joined().joined().write(toFile: log, atomically: true, encoding: .utf8)
        let gpx = week.state.url.appendingPathComponent("thursday.gpx").path
        try Self.gpx(of: Self.drives[4], ride: ride, zone: zone).write(toFile: gpx, atomically: true, encoding: .utf8)
        var orders: [[[String: Any]]] = []
        for files in [[log, gpx], [gpx, log]] {
            let copy = week.state.url.appendingPathComponent("copy-\(orders.count).sqlite").path
            try FileManager.default.copyItem(atPath: week.state.database, toPath: copy)
            for file in files {
                let before = try Self.facts(ImportCommandTests.trips(copy))
                let preview = try Binaries.run(
                    "travelctl",
                    ["--db", copy, "import", "--dry-run", "--config", week.state.config, file]
                )
                #expect(preview.status == 0, "\(preview.standardError)")
                #expect(try Self.facts(ImportCommandTests.trips(copy)) == before, "a dry run writes nothing")
                let result = try Binaries.run(
                    "travelctl",
                    ["--db", copy, "import", "--config", week.state.config, file]
                )
                #expect(result.status == 0, "\(result.standardError)")
                #expect(
                    Self.found(result.output) == Self.found(preview.output),
                    "\(preview.output) vs \(result.output)"
                )
            }
            let trips = try ImportCommandTests.trips(copy)
            try Self.checkTruth(week, zone: zone, trips: trips, count: Self.drives.count, database: copy)
            #expect(
                Self.facts(Array(trips.prefix(Self.liveDrives))) == Self.facts(live),
                "live trips kept as they were"
            )
            orders.append(trips)
            for file in files {
                let removed = try Binaries.run("travelctl", ["--db", copy, "imports", "remove", file])
                #expect(removed.status == 0, "\(removed.standardError)")
            }
            #expect(
                try Self.facts(ImportCommandTests.trips(copy)) == Self.facts(live),
                "removing imports keeps live trips"
            )
        }
        // The same trips whatever the order (Thursday's from the log or from the GPX: the same
        // departure, the same ride).
        #expect(orders[0].count == orders[1].count)
        for (a, b) in zip(orders[0], orders[1]) {
            let (x, y) = (a["distance_m"] as? Double ?? 0, b["distance_m"] as? Double ?? 1)
            #expect(abs(x - y) <= 0.01 * y && abs(Self.start(a) - Self.start(b)) < 120, "\(a) vs \(b)")
        }

        // Started again: every listing through the socket reads as through --db, and the date
        // filters cut local days.
        try receiver.plugIn()
        daemon = try week.daemon("serial://\(receiver.device)?baud=38400")
        try WeekInTheCarTests.checkSocketMatchesDatabase(week, year: "2026")
        for day in 0..<3 {
            let date = "2026-01-0\(5 + day)"
            let expected = zip(live, Self.drives).filter { Self.localDate(of: $0.1) == date }.map { $0.0["id"] as? Int }
            for socket in [false, true] {
                let rows = try #require(
                    try week.json(["trips", "--since", date, "--until", date], socket: socket) as? [[String: Any]]
                )
                #expect(rows.map { $0["id"] as? Int } == expected, "\(date) through \(socket ? "socket" : "--db")")
            }
        }
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// The trips are the composed drives: their starts on the right local day and hour, each
    /// ended as the receiver behaved (the garage and the unplugged arrival at the arrival, by the
    /// gap), the distances the whole ride; the journeys on the right local days.
    static func checkTruth(
        _ week: WeekInTheCarTests.Week,
        zone: Zone,
        trips: [[String: Any]],
        count: Int,
        database: String
    ) throws {
        func read(_ arguments: [String]) throws -> String {
            let result = try Binaries.run(
                "travelctl",
                ["--db", database] + arguments + ["--config", week.state.config]
            )
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result.output
        }
        #expect(trips.count == count, "\(trips)")
        for (trip, drive) in zip(trips, drives) {
            let distance = trip["distance_m"] as? Double ?? 0
            #expect(abs(distance - 13_939) < 0.02 * 13_939, "\(trip)")
            #expect(
                abs(start(trip) - departure(of: drive, in: zone).timeIntervalSince1970) < 600,
                "\(trip) for \(drive)"
            )
            let reason = drive.after == .parked ? "parked" : "data-gap"
            if drive.day < 3 { #expect(trip["end_reason"] as? String == reason, "\(trip)") }
        }
        let table = try read(["trips"])
        #expect(table.contains("2026-01-05 07:"), "\(table)")
        #expect(table.contains("2026-01-06 23:"), "\(table)")

        let journeys = try #require(
            try JSONSerialization.jsonObject(with: Data(read(["journeys", "--json"]).utf8)) as? [[String: Any]]
        )
        #expect(journeys.map { $0["start_date"] as? String }.prefix(2) == ["2026-01-05", "2026-01-06"], "\(journeys)")
        #expect(journeys.map { $0["end_date"] as? String }.prefix(2) == ["2026-01-05", "2026-01-07"], "\(journeys)")
        #expect(journeys.map { $0["type"] as? String }.prefix(2) == ["day", "multi-day"], "\(journeys)")
    }

    /// `ride` with a point every 10 s along each of its gaps of more than 30 s (up to 138 s: the
    /// bus's receiver lost a few stretches), so a `MaximumGapSec` of a minute, which the garage
    /// and the unplugged receiver need to end within the test, does not also cut the ride; the
    /// points lie on the straight line between, so the distance is the ride's.
    static func densified(_ ride: [Point]) -> [Point] {
        var points = [ride[0]]
        for (a, b) in zip(ride, ride.dropFirst()) {
            let gap = b.time.timeIntervalSince(a.time)
            if gap > 30 {
                for step in stride(from: 10.0, to: gap, by: 10) {
                    let f = step / gap
                    points.append(
                        Point(
                            time: a.time.addingTimeInterval(step),
                            latitude: a.latitude + f * (b.latitude - a.latitude),
                            longitude: a.longitude + f * (b.longitude - a.longitude)
                        )
                    )
                }
            }
            points.append(b)
        }
        return points
    }

    /// What an import must never change of a trip: its facts.
    static func facts(_ trips: [[String: Any]]) -> [String] {
        trips.map { trip in
            ["id", "start", "end", "distance_m", "points", "end_reason"].map { "\(trip[$0] ?? "-")" }.joined(
                separator: " "
            )
        }
    }

    /// A trip's start, in seconds since 1970.
    static func start(_ trip: [String: Any]) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: trip["start"] as? String ?? "")?.timeIntervalSince1970 ?? 0
    }

    /// The "N trip(s) found" of an import's summary lines.
    static func found(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            line.range(of: #"\d+ trips? found"#, options: .regularExpression).map { String(line[$0]) }
        }
    }

    /// `drive` as a GPX track, at its times.
    static func gpx(of drive: Drive, ride: [Point], zone: Zone) -> String {
        let start = departure(of: drive, in: zone)
        let formatter = ISO8601DateFormatter()
        let points = ride.map { point in
            let time = start.addingTimeInterval(point.time.timeIntervalSince(ride[0].time))
            return
                "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>\(formatter.string(from: time))</time></trkpt>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            \(points.joined(separator: "\n"))
            </trkseg></trk></gpx>
            """
    }
}
