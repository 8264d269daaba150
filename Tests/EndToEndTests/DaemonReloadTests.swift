import Foundation
import Testing

/// SIGHUP reads the zones again: a zone added with `travelctl` while the daemon runs is watched
/// from the reload on, without a restart and without losing the trip in progress.
@Suite struct DaemonReloadTests {
    @Test func aZoneAddedWhileRunningIsWatchedAfterSIGHUP() throws {
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
        daemon.send(SIGHUP)
        #expect(daemon.waitForLine(containing: "watching 1 zone and 0 POIs") != nil, "\(daemon.output)")

        receiver.write(DaemonSerialTests.line(drive.epochs[...]))
        #expect(daemon.waitForLine(containing: "entered zone halfway") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "left zone halfway") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let events = try ZoneCommandTests.json(state.database, ["events"])
        #expect(events.compactMap { $0["kind"] as? String } == ["enter", "exit"], "\(events)")
    }
}
