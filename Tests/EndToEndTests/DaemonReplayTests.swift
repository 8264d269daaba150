import Foundation
import Testing

/// `travel-companiond run --source file://…` as a process: the replay goes through the live
/// pipeline into a real SQLite file, and signals are real signals.
@Suite struct DaemonReplayTests {
    static let bus = Binaries.fixtures.appendingPathComponent("tracks/limerick-bus-304-2019-02-18.gpx").path

    /// A temporary state directory with an empty configuration file, so no installed
    /// `/etc/travel-companion` changes the results.
    struct StateDirectory {
        let url: URL
        var config: String { url.appendingPathComponent("travel-companion.conf").path }
        var database: String { url.appendingPathComponent("travel.sqlite").path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-daemon-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            // Each daemon its own control socket: tests run beside each other and beside a real one.
            try "[Control]\nSocket=\(url.appendingPathComponent("control").path)\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }

        func daemon(replaying log: String, speed: String) throws -> DaemonProcess {
            try DaemonProcess(["run", "--config", config, "--db", database, "--source", "file://\(log)?speed=\(speed)"])
        }
    }

    /// What `travelctl import` makes of `log`: its summary line and its trips.
    static func imported(_ log: String, in state: StateDirectory) throws -> (summary: String, trips: [[String: Any]]) {
        let database = state.url.appendingPathComponent("imported.sqlite").path
        let result = try Binaries.run("travelctl", ["--db", database, "import", "--config", state.config, log])
        #expect(result.status == 0, "\(result.standardError)")
        return (result.output, try ImportCommandTests.trips(database))
    }

    /// The fields that make a trip the same trip.
    static func essentials(_ trips: [[String: Any]]) -> [String] {
        trips.map { trip in
            ["start", "end", "distance_m", "duration_s", "points"].map { "\(trip[$0] ?? "-")" }.joined(separator: " ")
        }
    }

    /// The bus ride and a B&G Zeus² 9 chartplotter log hold a trip each; the Quectel log exercises rejections.
    @Test(
        arguments: [bus]
            + ["bundg_zeus_9.log", "quectel-eg25-g.log"].map {
                Binaries.fixtures.appendingPathComponent("gpsd-nmea/\($0)").path
            }
    )
    func aReplayStoresWhatAnImportStores(log: String) throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let daemon = try state.daemon(replaying: log, speed: "0")
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("replay finished, database flushed"))

        let (summary, expected) = try Self.imported(log, in: state)
        let stored = try ImportCommandTests.trips(state.database)
        #expect(Self.essentials(stored) == Self.essentials(expected))
        // The same fixes read and accepted as the importer's summary says.
        let counts = try #require(daemon.output.firstMatch(of: /this run: (\d+ fixes read, \d+ accepted)/)).1
        #expect(summary.contains(counts), "\(summary) vs \(counts)")
        // Trips tracked by the daemon are grouped into journeys as imported ones are.
        #expect(stored.allSatisfy { $0["journey_id"] is Int }, "\(stored)")
        let imported = state.url.appendingPathComponent("imported.sqlite").path
        #expect(try Self.journeys(state.database, state) == Self.journeys(imported, state))
    }

    /// Issue 14: a replayed GPX file cut short replayed nothing; now its complete points are
    /// tracked, as an import of it tracks them, and the log says the file was cut short.
    @Test func aReplayOfATruncatedGPXTracksThePointsBeforeTheCut() throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let (cut, points) = try ImportCommandTests.truncatedBusRide(in: state.url)
        let daemon = try state.daemon(replaying: cut, speed: "0")
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("\(cut): the file ends mid-document (truncated?)"))
        #expect(daemon.output.contains("this run: \(points) fixes read, \(points) accepted"), "\(daemon.output)")
        let (_, expected) = try Self.imported(cut, in: state)
        #expect(Self.essentials(try ImportCommandTests.trips(state.database)) == Self.essentials(expected))
    }

    /// The fields that make a journey the same journey, as `journeys --json` lists them.
    static func journeys(_ database: String, _ state: StateDirectory) throws -> [String] {
        let result = try Binaries.run("travelctl", ["--db", database, "journeys", "--config", state.config, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let journeys = try #require(JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        return journeys.map { journey in
            ["type", "start", "end", "distance_m", "trip_ids", "destination"].map { "\(journey[$0] ?? "-")" }
                .joined(separator: " ")
        }
    }

    /// While a drive is tracked, its row follows each flush: `trips` (through the socket and the
    /// file) says how far it has gone as `status` does, and a stop mid-drive keeps the distance.
    @Test func aTripInProgressShowsItsDistanceSoFarAndKeepsItAfterAStop() throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let socket = state.url.appendingPathComponent("control").path
        try "[Storage]\nFlushIntervalSec=1\n[Control]\nSocket=\(socket)\n"
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        let daemon = try state.daemon(replaying: Self.bus, speed: "40")
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")

        func statusDistance() throws -> Double {
            let result = try Binaries.run("travelctl", ["--socket", socket, "status", "--json"])
            let status = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
            return (status?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0
        }
        var seen = try statusDistance()
        while seen < 3_000 {
            usleep(200_000)
            seen = try statusDistance()
        }
        // A flush (1 s of wall clock, 40 s of the drive) later, the row has caught up at least that far.
        usleep(1_500_000)
        for arguments in [["--socket", socket], ["--db", state.database]] {
            let result = try Binaries.run("travelctl", arguments + ["trips", "--json"])
            let trips = try #require(JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
            #expect(trips.count == 1)
            #expect(trips.first?["end"] is NSNull, "still ongoing")
            #expect((trips.first?["distance_m"] as? Double ?? 0) >= seen, "\(arguments): \(trips) vs status \(seen) m")
            #expect((trips.first?["points"] as? Int ?? 0) > 300)
        }
        seen = try statusDistance()
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let stopped = try #require(try ImportCommandTests.trips(state.database).first)
        #expect((stopped["distance_m"] as? Double ?? 0) >= seen, "\(stopped) vs status \(seen) m")
        #expect(stopped["journey_id"] is Int, "an open journey holds the trip in progress")
    }

    @Test func sigtermMidReplayFlushesAndARestartResumesTheSameTrip() throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let first = try state.daemon(replaying: Self.bus, speed: "200")
        let started = try #require(first.waitForLine(containing: "trip started"), "\(first.output)")
        first.send(SIGTERM)
        #expect(first.waitForExit() == 0, "\(first.output)")
        #expect(first.output.contains("stopped, database flushed"))
        #expect(first.output.contains("replay finished") == false, "stopped before the log ended")
        let ongoing = try ImportCommandTests.trips(state.database)
        #expect(ongoing.count == 1)
        #expect(ongoing.first?["end"] is NSNull, "the trip is still open")
        // The line says the start to the minute in local time (the machine's zone, UTC here).
        let start = try #require(ongoing.first?["start"] as? String)
        #expect(started.contains("trip started at \(start.prefix(16).replacingOccurrences(of: "T", with: " ")) "))

        // The restart reads the log from its beginning: what was stored is not stored again.
        let second = try state.daemon(replaying: Self.bus, speed: "0")
        #expect(second.waitForExit() == 0, "\(second.output)")
        #expect(second.output.contains("time-not-forward"), "the replayed fixes before the stop are turned away")
        let (_, expected) = try Self.imported(Self.bus, in: state)
        #expect(Self.essentials(try ImportCommandTests.trips(state.database)) == Self.essentials(expected))
    }

    @Test func sighupWithABrokenConfigurationKeepsTheRunningOne() throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let daemon = try state.daemon(replaying: Self.bus, speed: "1")
        #expect(daemon.waitForLine(containing: "fix acquired") != nil, "\(daemon.output)")

        try "[Tracking]\nStopRadius=50\n".write(toFile: state.config, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        let refused = try #require(daemon.waitForLine(containing: "configuration refused"), "\(daemon.output)")
        #expect(refused.contains("\(state.config):2: [Tracking] StopRadius: unknown key"))

        try "[Tracking]\nMinimumTripDistanceMeters=500\n".write(toFile: state.config, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(daemon.waitForLine(containing: "configuration reloaded") != nil, "\(daemon.output)")

        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    @Test func aSourceURLThatCannotWorkIsAConfigurationError() throws {
        let result = try Binaries.run("travel-companiond", ["run", "--source", "gpsd://localhost:99999"])
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: --source: [Source] URL: the port must be a number from 1 to 65535, got 'gpsd://localhost:99999'\n"
        )
    }

    /// A replayed log that is not there is a configuration error, found before anything starts.
    @Test func aMissingLogIsOneLineAndExitSeventyEight() throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let result = try Binaries.run(
            "travel-companiond",
            ["run", "--config", state.config, "--db", state.database, "--source", "file:///nonexistent/drive.nmea"]
        )
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: --source: [Source] URL: /nonexistent/drive.nmea: No such file or directory\n"
        )
    }
}
