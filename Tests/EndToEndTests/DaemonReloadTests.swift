import Foundation
import TestSupport
import Testing
import TravelControl
import TravelFormats
/// SIGHUP reads the zones and POIs again: a zone and a POI added with `travelctl` while the
/// daemon runs are watched from the reload on, without a restart and without losing the trip in
/// progress.
@Suite struct DaemonReloadTests {
    @Test func aZoneAndAPOIAddedWhileRunningAreWatchedAfterSIGHUP() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try DaemonGPSDTests.Drive()
        let points = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
        let middle = points[points.count / 2]
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")

        let added = try Binaries.run(
            "travelctl",
            [
                "--db", state.database, "zone", "add", "halfway", "--lat", "\(middle.latitude)", "--lon",
                "\(middle.longitude)", "--radius", "150",
            ]
        )
        #expect(added.status == 0, "\(added.standardError)")
        let pois = state.url.appendingPathComponent("pois.csv")
        try "name,lat,lon,category\nHalfway Cafe,\(middle.latitude),\(middle.longitude),cafe\n"
            .write(to: pois, atomically: true, encoding: .utf8)
        let imported = try Binaries.run("travelctl", ["--db", state.database, "poi", "import", pois.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        daemon.send(SIGHUP)
        #expect(daemon.waitForLine(containing: "watching 1 zone and 1 POI") != nil, "\(daemon.output)")

        receiver.write(DaemonSerialTests.line(drive.epochs[...]))
        #expect(daemon.waitForLine(containing: "entered zone halfway") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "Halfway Cafe") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "left zone halfway") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let events = try ZoneCommandTests.json(state.database, ["events"])
        #expect(events.compactMap { $0["kind"] as? String } == ["enter", "nearby", "exit"], "\(events)")
    }

    /// A reload checks the configuration without opening the database in use: closing any
    /// descriptor of it would drop the daemon's SQLite locks, and the next `travelctl --db` to
    /// close it would then take the daemon's WAL and WAL index away (every later read through
    /// the socket failing with "disk I/O error", later commits going to a deleted file).
    @Test func aReloadKeepsTheDatabaseLockedAgainstOtherProcesses() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try DaemonGPSDTests.Drive()
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        daemon.send(SIGHUP)
        #expect(daemon.waitForLines(containing: "configuration reloaded", count: 1), "\(daemon.output)")
        let added = try Binaries.run(
            "travelctl",
            ["--db", state.database, "zone", "add", "depot", "--lat", "45.2", "--lon", "13.6", "--radius", "100"]
        )
        #expect(added.status == 0, "\(added.standardError)")
        for suffix in ["-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: state.database + suffix), "\(suffix) was taken away")
        }
        receiver.write(DaemonSerialTests.line(drive.epochs[...]))
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        let socket = state.url.appendingPathComponent("control").path
        // Reads through the socket open connections of their own: each must find the WAL index.
        let trips = try Binaries.run("travelctl", ["trips", "--socket", socket])
        #expect(
            trips.status == 0 && trips.output.contains("1 trip"),
            "\(trips.output)\(trips.standardError)\(daemon.output)"
        )
        let export = try Binaries.run("travelctl", ["export", "--format", "gpx", "--socket", socket])
        #expect(export.status == 0 && export.output.contains("<trkpt"), "\(export.standardError)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(try ZoneCommandTests.json(state.database, ["trips"]).count == 1)
    }

    /// `[Journeys]` changed in the daemon's file is read back through the socket once SIGHUP or
    /// `Reload` has reloaded it: the local times and the grouping follow the new zone, as
    /// `travelctl --db --config` prints them from the same file. A file the daemon refuses keeps
    /// the rules in force, and the reply says why.
    @Test func journeyRulesFollowSIGHUPAndReloadAndARefusedFileKeepsThem() throws {
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "0.001",
            configuration: "[Journeys]\nUTCOffset=+01:00\n"
        ) { state in
            let week = try HistoryCommandTests.week(in: state.url)
            let imported = try Binaries.run(
                "travelctl",
                ["--db", state.database, "import", "--config", state.config, week]
            )
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        func journeys() throws -> String {
            try Binaries.run("travelctl", ["journeys", "--socket", daemon.socket]).output
        }
        /// The daemon's listing once its regroup under the file's rules is done, as `--db` reads it.
        func awaitRules(_ label: String) throws {
            let offline = try Binaries.run(
                "travelctl",
                ["journeys", "--db", daemon.state.database, "--config", daemon.state.config]
            )
            #expect(offline.output.contains(label), "\(offline.output)\(offline.standardError)")
            let deadline = Date(timeIntervalSinceNow: 30)
            var live = try journeys()
            while live != offline.output && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                live = try journeys()
            }
            #expect(live == offline.output, "\(live)\n\(offline.output)\n\(daemon.process.output)")
        }
        /// Each journey's type, as grouping under the rules in force gave it.
        func types() throws -> [String] {
            let listed = try Binaries.run("travelctl", ["journeys", "--json", "--socket", daemon.socket]).output
            return try JSONValue(parsing: listed).arrayValue?.map { $0["type"]?.stringValue ?? "none" } ?? []
        }
        try awaitRules("(UTC+01:00)")
        let firstTypes = try types()

        // At +13:00 the rides back leave after local midnight: the days, and the types, change.
        try "[Journeys]\nUTCOffset=+13:00\n".write(toFile: daemon.state.config, atomically: true, encoding: .utf8)
        daemon.process.send(SIGHUP)
        try awaitRules("(UTC+13:00)")
        #expect(try types() != firstTypes, "\(firstTypes)")

        // Reload answers once the rules are in force: the next read shows them.
        try "[Journeys]\nUTCOffset=-05:00\n".write(toFile: daemon.state.config, atomically: true, encoding: .utf8)
        #expect(try daemon.client().call("org.travelcompanion.control.Reload") == [:])
        #expect(try journeys().contains("(UTC-05:00)"))
        try awaitRules("(UTC-05:00)")
        let kept = try journeys()

        try "[Journeys]\nUTCOffset=+25:00\n".write(toFile: daemon.state.config, atomically: true, encoding: .utf8)
        #expect {
            _ = try daemon.client().call("org.travelcompanion.control.Reload")
        } throws: { error in
            guard case .reply(let reply) = error as? VarlinkClientError else { return false }
            return reply.name == "org.travelcompanion.control.ConfigurationRefused"
                && reply.parameters["reason"]?.stringValue?.hasPrefix("\(daemon.state.config):2: [Journeys] UTCOffset")
                    == true
        }
        daemon.process.send(SIGHUP)
        #expect(daemon.process.waitForLine(containing: "configuration refused") != nil, "\(daemon.process.output)")
        #expect(try journeys() == kept)
    }
}
