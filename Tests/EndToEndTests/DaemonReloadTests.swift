import Foundation
import TestSupport
import Testing

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
}
