import Foundation
import Testing

/// Local days in a real time zone, as a user sees them: `travelctl import` of a GPX whose drives
/// straddle Irish midnight in summer (IST, UTC+1) but not in winter (GMT), read back with
/// `journeys`, `trips` and `stats` under `[Journeys] TimeZone=Europe/Dublin`.
@Suite struct TimeZoneCommandTests {
    /// The Limerick bus ride (75 min) out from its first stop and back, on three evenings:
    /// 15 January 2019 from 20:40 and 22:35 UTC (the same evening in Dublin, GMT); 1 July from
    /// 20:40 and 22:35 UTC (back at 00:50 IST on the 2nd); 31 July from 23:05 UTC and 01:00 UTC on
    /// 1 August (all of it 1 August in Dublin).
    static func evenings(in directory: URL) throws -> String {
        let points = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)
        let first = points[0].time
        let length = points[points.count - 1].time.timeIntervalSince(first)
        let calendar = Calendar(identifier: .gregorian)
        func utc(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
            var components = DateComponents(year: 2019, month: month, day: day, hour: hour, minute: minute)
            components.timeZone = TimeZone(identifier: "UTC")
            return calendar.date(from: components)!
        }
        let drives = [
            (utc(1, 15, 20, 40), false), (utc(1, 15, 22, 35), true), (utc(7, 1, 20, 40), false),
            (utc(7, 1, 22, 35), true), (utc(7, 31, 23, 5), false), (utc(8, 1, 1, 0), true),
        ]
        let format = ISO8601DateFormatter()
        var gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TimeZoneCommandTests" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>evenings</name>

            """
        for (start, back) in drives {
            gpx += "<trkseg>\n"
            for point in back ? points.reversed() : points {
                let offset = point.time.timeIntervalSince(first)
                let time = start.addingTimeInterval(back ? length - offset : offset)
                gpx += "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>\(format.string(from: time))"
                gpx += "</time></trkpt>\n"
            }
            gpx += "</trkseg>\n"
        }
        gpx += "</trk>\n</gpx>\n"
        let file = directory.appendingPathComponent("evenings.gpx")
        try Data(gpx.utf8).write(to: file)
        return file.path
    }

    /// Imports the evenings under `zone` with home at the ride's start, and returns what
    /// `journeys --json` and `stats --json` say, and the tables.
    static func imported(zone: String) throws -> (journeys: [[String: Any]], stats: [String: Any], tables: String) {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let config = directory.appendingPathComponent("travel-companion.conf").path
        try "[Journeys]\nHome=\(start.latitude), \(start.longitude)\nTimeZone=\(zone)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let imported = try HistoryCommandTests.run([
            "--db", db, "import", "--config", config, try evenings(in: directory),
        ])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.output.contains("6 trips found"), "\(imported.output)")
        let journeys = try #require(
            try HistoryCommandTests.json(["--db", db, "journeys", "--config", config]) as? [[String: Any]]
        )
        let stats = try #require(
            try HistoryCommandTests.json(["--db", db, "stats", "--config", config, "--year", "2019"]) as? [String: Any]
        )
        var tables = ""
        for command in [["journeys"], ["trips"], ["stats", "--year", "2019"]] {
            let result = try HistoryCommandTests.run(["--db", db] + command + ["--config", config])
            #expect(result.status == 0, "\(command): \(result.standardError)")
            tables += result.output
        }
        return (journeys, stats, tables)
    }

    static func monthCounts(_ stats: [String: Any]) -> [Int] {
        (stats["months"] as? [[String: Any]] ?? []).map { $0["journeys"] as? Int ?? -1 }
    }

    @Test func dublinSummerEveningsEndOnTheNextLocalDay() throws {
        let dublin = try Self.imported(zone: "Europe/Dublin")
        // January: GMT, back before midnight, one day. July: back at 00:50 IST, two local days.
        // 31 July 23:05 UTC is 1 August 00:05 IST: the whole journey is 1 August's.
        #expect(dublin.journeys.map { $0["type"] as? String } == ["local", "multi-day", "local"])
        #expect(dublin.journeys.map { $0["start_date"] as? String } == ["2019-01-15", "2019-07-01", "2019-08-01"])
        #expect(dublin.journeys.map { $0["end_date"] as? String } == ["2019-01-15", "2019-07-02", "2019-08-01"])
        // JSON instants stay UTC.
        #expect((dublin.journeys[2]["start"] as? String)?.hasPrefix("2019-07-31T23:") == true)
        #expect(Self.monthCounts(dublin.stats) == [1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0])
        // Every table labels its local times with the zone, and shows them in it.
        #expect(dublin.tables.contains("START (Europe/Dublin)"), "\(dublin.tables)")
        #expect(dublin.tables.contains("2019-08-01 00:0"), "\(dublin.tables)")
        #expect(dublin.tables.contains("2019-07-01 23:35"), "\(dublin.tables)")
        #expect(dublin.tables.contains("(months local to Europe/Dublin)"), "\(dublin.tables)")

        // The same history in UTC: every evening is one day, and the last journey is July's.
        let utc = try Self.imported(zone: "UTC")
        #expect(utc.journeys.map { $0["type"] as? String } == ["local", "local", "multi-day"])
        #expect(Self.monthCounts(utc.stats) == [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0])
        #expect(utc.tables.contains("START (UTC)"), "\(utc.tables)")
    }

    /// Through the daemon's socket the tables are the bytes `--db` prints: the daemon names its
    /// zone in `time_zone` and travelctl reads the same tz database file.
    @Test func theDaemonShowsTheSameLocalTimes() throws {
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "0.001",
            configuration: "[Journeys]\nHome=\(start.latitude), \(start.longitude)\nTimeZone=Europe/Dublin\n"
        ) { state in
            // A zone at the far terminus, so the evenings give events to list.
            let zone = ["zone", "add", "Terminus", "--lat", "52.67269", "--lon", "-8.57132", "--radius", "150"]
            #expect(try Binaries.run("travelctl", ["--db", state.database] + zone).status == 0)
            let imported = try Binaries.run(
                "travelctl",
                ["--db", state.database, "import", "--config", state.config, try Self.evenings(in: state.url)]
            )
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        defer { #expect(daemon.stop() == 0) }
        for command in [
            ["journeys"], ["trips"], ["trip", "show", "4"], ["stats", "--year", "2019"], ["journey", "show", "2"],
            ["events"], ["zone", "list"],
        ] {
            let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
            let offline = try Binaries.run(
                "travelctl",
                command + ["--db", daemon.state.database, "--config", daemon.state.config]
            )
            #expect(live.status == 0, "\(command): \(live.standardError)")
            #expect(live.output == offline.output, "\(command)\n\(live.output)\n\(offline.output)")
            #expect(live.output.contains("Europe/Dublin"), "\(command): \(live.output)")
        }
    }

    @Test func checkConfigNamesAnUnknownZoneAtItsLine() throws {
        let (directory, _) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("travel-companion.conf").path
        try "[Journeys]\nHome=auto\nTimeZone=Bogus/Zone\n".write(toFile: config, atomically: true, encoding: .utf8)
        let check = try Binaries.run("travel-companiond", ["check-config", "--config", config])
        #expect(check.status == 78)
        #expect(check.standardError.contains("\(config):3: [Journeys] TimeZone"), "\(check.standardError)")
        #expect(check.standardError.contains("'Bogus/Zone'"), "\(check.standardError)")
        // travelctl reads the same file the same way.
        let journeys = try Binaries.run(
            "travelctl",
            ["journeys", "--db", directory.appendingPathComponent("x.sqlite").path, "--config", config]
        )
        #expect(journeys.status == 78, "\(journeys.standardError)")

        try "[Journeys]\nTimeZone=Europe/Dublin\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try Binaries.run("travel-companiond", ["check-config", "--config", config]).status == 0)
    }

    /// Without TimeZone, the machine's zone: TZ when set.
    @Test func theMachinesZoneIsTheDefault() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("travel-companion.conf").path
        try "[Journeys]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let imported = try Binaries.run(
            "travelctl",
            ["--db", db, "import", "--config", config, try Self.evenings(in: directory)],
            environment: ["TZ": "America/New_York"]
        )
        #expect(imported.status == 0, "\(imported.standardError)")
        let trips = try Binaries.run(
            "travelctl",
            ["--db", db, "trips", "--config", config],
            environment: ["TZ": "America/New_York"]
        )
        // The bus leaves a few minutes after 20:40 UTC on 15 January: 15:4x EST.
        #expect(trips.output.hasPrefix("ID  START (America/New_York)"), "\(trips.output)")
        #expect(trips.output.contains("2019-01-15 15:4"), "\(trips.output)")
    }
}
