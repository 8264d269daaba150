import Foundation
import TestSupport
import Testing

/// A week in the car, fed live: ten real drives (the Limerick bus ride, out and back) on seven
/// days across the start of Irish summer time, through a real gpsd and then a serial pty, with a
/// SIGKILL mid-drive, a SIGHUP after a configuration change, a stop and restart while parked away
/// and a clean stop. Then every listing a user reads is checked against the truth of the composed
/// week, against an offline `import` of the same sentences, and through the socket against `--db`.
@Suite(.serialized) struct WeekInTheCarTests {
    typealias Point = NMEALogWriter.Point

    /// One drive of the week: out (home → far terminus) or back, leaving at `hour` UTC of `day`
    /// (days from Thursday 2019-03-28; Irish summer time starts on day 3, Sunday 31 March).
    struct Drive {
        var day: Int
        var hour: Double
        var back: Bool
    }

    /// Out and back on Thursday; Friday back late (22:40 GMT: still Friday at home); out on
    /// Saturday, two nights away, back on Monday; Tuesday back late (22:40 UTC is 23:40 IST: home
    /// after local midnight); out and back on Wednesday.
    static let drives = [
        Drive(day: 0, hour: 7.75, back: false), Drive(day: 0, hour: 11.75, back: true),
        Drive(day: 1, hour: 7.75, back: false), Drive(day: 1, hour: 22 + 2 / 3, back: true),
        Drive(day: 2, hour: 7.75, back: false),
        Drive(day: 4, hour: 11.75, back: true),
        Drive(day: 5, hour: 7.75, back: false), Drive(day: 5, hour: 22 + 2 / 3, back: true),
        Drive(day: 6, hour: 7.75, back: false), Drive(day: 6, hour: 11.75, back: true),
    ]

    /// Thursday 2019-03-28 00:00 UTC.
    static let firstDay = Date(timeIntervalSince1970: 1_553_731_200)

    /// The sentences of `drive`: three parked minutes before it, the ride, eight parked minutes
    /// after it (a fix every 10 s while parked), RMC + GGA per epoch.
    static func epochs(of drive: Drive, ride: [Point]) -> [String] {
        let points = drive.back ? Array(ride.reversed()) : ride
        let length = ride[ride.count - 1].time.timeIntervalSince(ride[0].time)
        let start = firstDay.addingTimeInterval(Double(drive.day) * 86_400 + drive.hour * 3600)
        var timed: [(Point, Date)] = (1...18).reversed().map { (points[0], start.addingTimeInterval(Double(-10 * $0))) }
        for point in points {
            let offset = point.time.timeIntervalSince(ride[0].time)
            timed.append((point, start.addingTimeInterval(drive.back ? length - offset : offset)))
        }
        let arrival = timed[timed.count - 1].1
        timed += (1...48).map { (points[points.count - 1], arrival.addingTimeInterval(Double(10 * $0))) }
        return timed.map { NMEALogWriter.rmc($0.0, time: $0.1) + NMEALogWriter.gga($0.0, time: $0.1) }
    }

    /// The week's state directory: configuration, database, socket.
    struct Week {
        let state = try! DaemonReplayTests.StateDirectory()
        var socket: String { state.url.appendingPathComponent("control").path }

        /// The configuration as the user has it: `home` and a 5 km home area are set mid-week;
        /// `tracking` is a `[Tracking]` section, if any.
        func configure(home: String?, timeZone: String = "Europe/Dublin", tracking: String = "") throws {
            var text =
                "[Storage]\nFlushIntervalSec=1\n[Control]\nSocket=\(socket)\n\(tracking)[Journeys]\nTimeZone=\(timeZone)\n"
            if let home { text += "Home=\(home)\nHomeRadiusMeters=5000\n" }
            try text.write(toFile: state.config, atomically: true, encoding: .utf8)
        }

        func daemon(_ source: String) throws -> DaemonProcess {
            let daemon = try DaemonProcess(
                ["run", "--config", state.config, "--db", state.database, "--source", source]
            )
            #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
            return daemon
        }

        /// `travelctl ARGS` with `--db` or through the socket; the command must succeed.
        func travelctl(_ arguments: [String], socket useSocket: Bool = false) throws -> String {
            let target = useSocket ? ["--socket", socket] : ["--db", state.database]
            let local = Binaries.readsJourneySettings(arguments) ? ["--config", state.config] : []
            let result = try Binaries.run("travelctl", target + arguments + local)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result.output
        }

        func json(_ arguments: [String], socket: Bool = false) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(try travelctl(arguments + ["--json"], socket: socket).utf8))
        }

        func trips(socket: Bool = false) throws -> [[String: Any]] {
            try #require(try json(["trips"], socket: socket) as? [[String: Any]])
        }
    }

    /// Waits (at most the hang limit) until `condition` holds.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// Writes `epochs` through `write` as a receiver would, faster than real time but never faster
    /// than the daemon takes them: after each chunk, waits until `status` shows its last fix.
    /// (gpsd drops a client that falls behind, and a loaded test machine must not make a week
    /// test lose fixes no real 1 Hz receiver would make it lose.)
    static func feed(_ epochs: ArraySlice<String>, to week: Week, _ write: (String) -> Void) throws {
        var start = epochs.startIndex
        while start < epochs.endIndex {
            let end = min(start + 200, epochs.endIndex)
            write(epochs[start..<end].joined())
            let last = DaemonGPSDTests.gpsdTime(of: epochs[end - 1])
            let taken = try eventually {
                let status = try JSONSerialization.jsonObject(
                    with: try Binaries.run("travelctl", ["--socket", week.socket, "status", "--json"]).standardOutput
                )
                let time = ((status as? [String: Any])?["fix"] as? [String: Any])?["time"] as? String
                return time.map { $0 >= last } ?? false
            }
            #expect(taken, "the daemon did not take the fix of \(last)")
            start = end
        }
    }

    /// Waits until the trip in progress's row has at least `points` points: they are flushed.
    /// Whether the trip in progress has `points` route points in the files a restart reads: the
    /// database (`--db`) and the spool beside it (32 bytes a point), without asking the daemon.
    static func flushedToFiles(_ week: Week, points: Int) throws -> Bool {
        try eventually {
            guard let ongoing = try week.trips().last, ongoing["end"] is NSNull else { return false }
            let spool = try? FileManager.default.attributesOfItem(atPath: week.state.database + "-spool")
            let spooled = (spool?[.size] as? Int ?? 0) / 32
            return (ongoing["points"] as? Int ?? 0) + spooled >= points
        }
    }

    @Test func aWeekFedLiveReadsBackRightEverywhere() throws {
        let week = Week()
        defer { week.state.remove() }
        try week.configure(home: nil)
        let ride = try NMEALogWriter.points(ofGPX: DaemonReplayTests.bus)
        let epochs = Self.drives.map { Self.epochs(of: $0, ride: ride) }
        // A zone at the far terminus: entered at each arrival there, left at each departure.
        _ = try week.travelctl(["zone", "add", "Terminus", "--lat", "52.67269", "--lon", "-8.57132", "--radius", "150"])

        // Thursday to Saturday through gpsd.
        let gpsd = try GPSDDevice()
        // What gpsd sends its clients (it adds speeds and error estimates): the offline comparison.
        var daemon = try week.daemon("gpsd://127.0.0.1:\(gpsd.port)")
        let session = week.state.url.appendingPathComponent("gpsd.json").path
        let gpspipe = try gpsd.record(to: session)
        try Self.feed((epochs[0] + epochs[1])[...], to: week, gpsd.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 2), "\(daemon.output)")

        // Friday morning: the power is cut halfway (after a flush, between commits: the route since
        // the trip's start is in the spool), and comes back.
        let half = epochs[2].count / 2
        try Self.feed(epochs[2][..<half], to: week, gpsd.write)
        #expect(try Self.flushedToFiles(week, points: half - 40), "\(daemon.output)")
        daemon.send(SIGKILL)
        _ = daemon.waitForExit()
        daemon = try week.daemon("gpsd://127.0.0.1:\(gpsd.port)")
        try Self.feed(epochs[2][half...], to: week, gpsd.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 1), "\(daemon.output)")
        try Self.feed(epochs[3][...], to: week, gpsd.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 2), "\(daemon.output)")

        // Home is not learned yet (one night proven): each trip is a journey of its own, untyped.
        // The user sets home where the ride starts, with a 5 km home area (the terminus, 7 km
        // away, is away), and reloads.
        func types() throws -> [String?] {
            try (week.json(["journeys"]) as? [[String: Any]])?.map { $0["type"] as? String } ?? []
        }
        #expect(try Self.eventually { try types() == [nil, nil, nil, nil] })
        try week.configure(home: "52.62915,-8.66175")
        daemon.send(SIGHUP)
        #expect(daemon.waitForLine(containing: "configuration reloaded") != nil, "\(daemon.output)")
        // The journeys so far are regrouped under the new home at once, before any restart.
        let retyped = try Self.eventually { try types() == ["day", "day"] }
        let table = try week.travelctl(["journeys"])
        #expect(retyped, "\(table)")

        // Saturday out; the vehicle stays at the terminus and the daemon is stopped there.
        try Self.feed(epochs[4][...], to: week, gpsd.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 3), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(GPSDDevice.wait(for: DaemonGPSDTests.gpsdTime(of: epochs[4].last!), in: session))
        gpsd.killGPSD()
        gpspipe.waitUntilExit()

        // Monday on: the receiver is on a serial line of its own.
        let receiver = try PTYReceiver()
        daemon = try week.daemon("serial://\(receiver.device)?baud=38400")
        try Self.feed(epochs[5][...], to: week, receiver.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 1), "\(daemon.output)")

        // Tuesday morning, mid-drive: what a user reads while the trip is tracked (`status` first:
        // no read has committed the spool yet).
        try Self.feed(epochs[6][..<half], to: week, receiver.write)
        #expect(try Self.flushedToFiles(week, points: half - 40), "\(daemon.output)")
        let status = try #require(try week.json(["status"], socket: true) as? [String: Any])
        let moving = try #require(status["trip"] as? [String: Any], "\(status)")
        let driven = try #require(moving["distance_m"] as? Double)
        #expect(driven > 3_000, "\(status)")
        // The journey so far holds the trip so far: the history's journey, with the trip in
        // progress counted as the engine has it now, not as the last flush or commit left it.
        let journey = try #require(status["journey"] as? [String: Any], "\(status)")
        #expect((journey["distance_m"] as? Double ?? 0) >= driven - 0.1, "\(status)")
        // The table shows the times local to the daemon's zone (Irish summer time by now), and
        // the clock's offset (years: the test machine's clock is not 2019's) for people.
        let screen = try week.travelctl(["status"], socket: true)
        #expect(screen.contains("Trip       driving since 2019-04-02 08:4"), "\(screen)")
        #expect(screen.contains(" (Europe/Dublin)"), "\(screen)")
        #expect(screen.contains("Clock      system clock ") && screen.contains(" ahead of GPS time"), "\(screen)")
        // Through the socket first, which commits the spooled route points: the file then holds them.
        for socket in [true, false] {
            let ongoing = try #require(try week.trips(socket: socket).last)
            #expect(ongoing["end"] is NSNull)
            #expect(abs((ongoing["distance_m"] as? Double ?? 0) - driven) < 0.05 * driven, "\(ongoing) vs \(status)")
            #expect(ongoing["journey_id"] is Int, "the trip in progress is in a journey")
        }
        try Self.feed((Array(epochs[6][half...]) + epochs[7])[...], to: week, receiver.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 3), "\(daemon.output)")
        try Self.feed((epochs[8] + epochs[9])[...], to: week, receiver.write)
        #expect(daemon.waitForLines(containing: "trip ended", count: 5), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")

        try Self.checkTruth(week)
        let serial = week.state.url.appendingPathComponent("serial.nmea").path
        try epochs[5...].joined().joined().write(toFile: serial, atomically: true, encoding: .utf8)
        try Self.checkAgainstImport(week, logs: [session, serial])
        // Through the socket of a daemon started again, every listing reads as with --db.
        daemon = try week.daemon("serial://\(receiver.device)?baud=38400")
        try Self.checkSocketMatchesDatabase(week)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// What the composed week is: ten trips of the whole ride, five journeys of two trips on the
    /// right local days and of the right types, home where the ride starts.
    static func checkTruth(_ week: Week) throws {
        let trips = try week.trips()
        #expect(trips.count == 10, "\(trips)")
        for (trip, drive) in zip(trips, drives) {
            // The ride is 13.94 km as its GPX imports; gpsd's error estimates (2 × eph is the noise
            // a step must beat) shorten the curves a little.
            let distance = trip["distance_m"] as? Double ?? 0
            #expect(abs(distance - 13_939) < 0.02 * 13_939, "\(trip)")
            let scheduled = firstDay.addingTimeInterval(Double(drive.day) * 86_400 + drive.hour * 3600)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let start = try #require(formatter.date(from: trip["start"] as? String ?? ""))
            #expect(abs(start.timeIntervalSince(scheduled)) < 600, "\(trip) for \(drive)")
            #expect(trip["journey_id"] is Int, "\(trip)")
            #expect(trip["end_reason"] as? String == "parked", "\(trip)")
        }
        let home = try #require(try week.json(["home"]) as? [String: Any])
        #expect(home["source"] as? String == "configured", "\(home)")
        #expect(abs((home["lat"] as? Double ?? 0) - 52.6291) < 0.001, "\(home)")

        let journeys = try #require(try week.json(["journeys"]) as? [[String: Any]])
        // Tuesday's late drive home ends after local midnight (IST): that journey spans two days.
        #expect(journeys.map { $0["type"] as? String } == ["day", "day", "multi-day", "multi-day", "day"])
        #expect(
            journeys.map { $0["start_date"] as? String }
                == ["2019-03-28", "2019-03-29", "2019-03-30", "2019-04-02", "2019-04-03"]
        )
        #expect(
            journeys.map { $0["end_date"] as? String }
                == ["2019-03-28", "2019-03-29", "2019-04-01", "2019-04-03", "2019-04-03"]
        )
        #expect(journeys.map { $0["trips"] as? Int } == [2, 2, 2, 2, 2])

        let events = try #require(try week.json(["events"]) as? [[String: Any]])
        let zoneEvents = events.filter { $0["zone_name"] as? String == "Terminus" }
        #expect(zoneEvents.count == 10, "\(events)")
    }

    /// What the daemon was given, imported offline (gpsd's reports, then the serial sentences),
    /// gives the same trips (distances within 1 %) and the same journeys.
    static func checkAgainstImport(_ week: Week, logs: [String]) throws {
        let imported = week.state.url.appendingPathComponent("imported.sqlite").path
        let result = try Binaries.run("travelctl", ["--db", imported, "import", "--config", week.state.config] + logs)
        #expect(result.status == 0, "\(result.standardError)")
        let offline = try ImportCommandTests.trips(imported)
        let live = try week.trips()
        #expect(offline.count == live.count)
        for (a, b) in zip(live, offline) {
            let (x, y) = (a["distance_m"] as? Double ?? 0, b["distance_m"] as? Double ?? 1)
            #expect(abs(x - y) <= 0.01 * y, "live \(a) vs imported \(b)")
            #expect(a["journey_id"] as? Int != nil && b["journey_id"] as? Int != nil)
        }
        func journeys(_ database: String) throws -> [String] {
            let result = try Binaries.run(
                "travelctl",
                ["--db", database, "journeys", "--json", "--config", week.state.config]
            )
            #expect(result.status == 0, "\(result.standardError)")
            let rows = try #require(JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
            return rows.map {
                "\($0["type"] ?? "") \($0["start_date"] ?? "") \($0["end_date"] ?? "") \($0["trips"] ?? "")"
            }
        }
        #expect(try journeys(week.state.database) == journeys(imported))
    }

    /// Every listing through the daemon's socket is the bytes `--db` prints.
    static func checkSocketMatchesDatabase(_ week: Week, year: String = "2019") throws {
        let journeys = try #require(try week.json(["journeys"]) as? [[String: Any]])
        let trips = try week.trips()
        var commands: [[String]] = [
            ["trips"], ["journeys"], ["stats", "--year", year], ["events"], ["home"],
            ["export", "--format", "gpx"], ["export", "--format", "geojson"], ["export", "--format", "kml"],
        ]
        let (trip, journey) = (trips[min(3, trips.count - 1)], journeys[min(3, journeys.count - 1)])
        commands += [["trip", "show", "\(trip["id"] ?? 0)"], ["journey", "show", "\(journey["id"] ?? 0)"]]
        for command in commands {
            for json in command.first == "export" ? [false] : [false, true] {
                let arguments = command + (json ? ["--json"] : [])
                let offline = try week.travelctl(arguments)
                let online = try week.travelctl(arguments, socket: true)
                #expect(online == offline, "\(arguments) differs through the socket")
                #expect(!offline.isEmpty)
            }
        }
    }
}
