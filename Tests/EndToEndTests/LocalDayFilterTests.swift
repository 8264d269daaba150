import Foundation
import Testing

/// `--since`/`--until` dates are local days of the configured zone, as the tables show them, the
/// same through `--db --config` and through the daemon's socket (issue 26: they were UTC days, so
/// `trips --since 2026-01-09` in Asia/Shanghai missed a trip listed at 2026-01-09 07:36).
///
/// The drives are `TimeZoneCommandTests.evenings`: from 20:40 and 22:35 UTC on 15 January and
/// 1 July 2019 (in Shanghai the next morning), from 23:05 UTC on 31 July and 01:00 UTC on 1 August
/// (in Los Angeles both the afternoon of 31 July).
@Suite struct LocalDayFilterTests {
    /// The trips each command selects, through the socket and through `--db --config`, which
    /// must print the same; returns the start times `trips --json` lists per filter.
    static func selected(zone: String, filters: [[String]]) throws -> [[String]] {
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "0.001",
            configuration: "[Journeys]\nHome=\(start.latitude), \(start.longitude)\nTimeZone=\(zone)\n"
        ) { state in
            let imported = try Binaries.run(
                "travelctl",
                [
                    "--db", state.database, "import", "--config", state.config,
                    try TimeZoneCommandTests.evenings(in: state.url),
                ]
            )
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        defer { #expect(daemon.stop() == 0) }
        var starts: [[String]] = []
        for filter in filters {
            for command in [["trips"], ["journeys"], ["events"], ["export", "--format", "geojson"]] {
                let live = try Binaries.run("travelctl", command + filter + ["--socket", daemon.socket])
                let offline = try Binaries.run(
                    "travelctl",
                    command + filter + ["--db", daemon.state.database, "--config", daemon.state.config]
                )
                #expect(live.status == 0, "\(command + filter): \(live.standardError)")
                #expect(live.output == offline.output, "\(command + filter)\n\(live.output)\n\(offline.output)")
            }
            let trips = try Binaries.run(
                "travelctl",
                ["trips", "--json"] + filter + ["--db", daemon.state.database, "--config", daemon.state.config]
            )
            let list = try JSONSerialization.jsonObject(with: trips.standardOutput) as? [[String: Any]] ?? []
            starts.append(list.compactMap { $0["start"] as? String }.map { String($0.prefix(16)) })
        }
        return starts
    }

    @Test func shanghaiMorningsBelongToTheirLocalDay() throws {
        let starts = try Self.selected(
            zone: "Asia/Shanghai",
            filters: [
                ["--since", "2019-01-16", "--until", "2019-01-16"], ["--until", "2019-01-15"],
                ["--since", "2019-07-02", "--until", "2019-07-02"],
                // An instant stays absolute: 22:00 UTC is 06:00 on the 16th in Shanghai.
                ["--since", "2019-01-15T22:00:00Z", "--until", "2019-01-16"],
            ]
        )
        #expect(starts[0].count == 2 && starts[0].allSatisfy { $0.hasPrefix("2019-01-15T2") }, "\(starts[0])")
        #expect(starts[1] == [], "\(starts[1])")
        #expect(starts[2].count == 2 && starts[2].allSatisfy { $0.hasPrefix("2019-07-01T2") }, "\(starts[2])")
        #expect(starts[3].count == 1 && starts[3][0].hasPrefix("2019-01-15T22:"), "\(starts[3])")
    }

    @Test func losAngelesAfternoonsBelongToTheirLocalDay() throws {
        let starts = try Self.selected(
            zone: "America/Los_Angeles",
            filters: [["--since", "2019-07-31", "--until", "2019-07-31"], ["--since", "2019-08-01"]]
        )
        #expect(starts[0].count == 2, "\(starts[0])")
        #expect(starts[0].last?.hasPrefix("2019-08-01T01:") == true, "\(starts[0])")
        // Both 31 July drives started on 31 July in Los Angeles; none on 1 August (the daemon's
        // own replay is of 2020, and starts later).
        #expect(starts[1].allSatisfy { $0.hasPrefix("2020-") }, "\(starts[1])")
    }

    /// `TimeZone=UTC+8` is 8 h east, as written (issue 26: read as POSIX, 8 h west, while the
    /// tables said UTC+8); `CST-8`, POSIX for the same, is refused with the text to write.
    @Test func utcPlus8IsEightHoursEast() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("travel-companion.conf").path
        for written in ["UTC+8", "GMT+8", "utc+8", "+08:00"] {
            try "[Journeys]\nTimeZone=\(written)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let check = try Binaries.run("travel-companiond", ["check-config", "--config", config])
            #expect(check.status == 0, "\(written): \(check.standardError)")
            #expect(
                check.output.hasSuffix("[Journeys] TimeZone=\(written): 8 h east of UTC (UTC+08:00)\n"),
                "\(check.output)"
            )
        }
        let gpx = try TimeZoneCommandTests.evenings(in: directory)
        #expect(try Binaries.run("travelctl", ["--db", db, "import", "--config", config, gpx]).status == 0)
        let trips = try Binaries.run("travelctl", ["--db", db, "trips", "--config", config, "--until", "2019-01-16"])
        // 20:4x UTC on 15 January is 04:4x on the 16th, 8 h east.
        #expect(trips.output.hasPrefix("ID  START (UTC+08:00)"), "\(trips.output)")
        #expect(trips.output.contains("2019-01-16 04:4"), "\(trips.output)")

        try "[Journeys]\nHome=auto\nTimeZone=CST-8\n".write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try Binaries.run("travel-companiond", ["check-config", "--config", config])
        #expect(refused.status == 78)
        #expect(
            refused.standardError.contains("\(config):3: [Journeys] TimeZone: 'CST-8' is a POSIX TZ rule"),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.contains("write UTC+8 for that"), "\(refused.standardError)")
        #expect(refused.standardError.split(separator: "\n").count == 1, "\(refused.standardError)")
        let journeys = try Binaries.run("travelctl", ["--db", db, "journeys", "--config", config])
        #expect(journeys.status == 78, "\(journeys.standardError)")
    }
}
