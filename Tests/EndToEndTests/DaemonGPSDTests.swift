import Foundation
import TestSupport
import Testing

/// `travel-companiond run --source gpsd://…` against a real gpsd reading a pty: a drive stored as
/// its import stores it, gpsd killed and started again mid-drive, and no gpsd at all.
@Suite struct DaemonGPSDTests {
    static let car = Binaries.fixtures.appendingPathComponent("tracks/visnjan-car-2020-12-18.gpx").path

    /// The car drive as NMEA epochs (RMC + GGA, CRLF): a parked minute before it and seven parked
    /// minutes after it, so the trip starts and ends inside the log.
    struct Drive {
        var epochs: [String]

        init() throws {
            let drive = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
            let (first, last) = (try #require(drive.first), try #require(drive.last))
            let parkedBefore = (1...6).reversed().map { (first, first.time.addingTimeInterval(Double(-10 * $0))) }
            let parkedAfter = (1...42).map { (last, last.time.addingTimeInterval(Double(10 * $0))) }
            epochs = (parkedBefore + drive.map { ($0, $0.time) } + parkedAfter).map {
                NMEALogWriter.rmc($0.0, time: $0.1) + NMEALogWriter.gga($0.0, time: $0.1)
            }
        }
    }

    static func daemon(port: Int, state: DaemonReplayTests.StateDirectory) throws -> DaemonProcess {
        try DaemonProcess(
            ["run", "--config", state.config, "--db", state.database, "--source", "gpsd://127.0.0.1:\(port)"]
        )
    }

    /// What `travelctl import` makes of the gpsd sessions recorded by gpspipe, and what the daemon
    /// stored: the same fixes through the same engine. (Not the NMEA log itself: gpsd adds what the
    /// receiver left out, such as the speed, and the engine uses it.)
    static func trips(
        recorded sessions: [String],
        state: DaemonReplayTests.StateDirectory
    ) throws -> (expected: [String], stored: [String]) {
        let log = state.url.appendingPathComponent("gpsd.json").path
        try sessions.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
            .write(toFile: log, atomically: true, encoding: .utf8)
        let (_, expected) = try DaemonReplayTests.imported(log, in: state)
        #expect(expected.count == 1)
        return (
            DaemonReplayTests.essentials(expected),
            DaemonReplayTests.essentials(try ImportCommandTests.trips(state.database))
        )
    }

    /// `2020-12-18T06:22:36.000Z`, as gpsd writes the time of an epoch (RMC first).
    static func gpsdTime(of epoch: String) -> String {
        let rmc = epoch.split(separator: ",", omittingEmptySubsequences: false)
        let (hms, date) = (rmc[1], rmc[9])
        func pair(_ text: Substring, _ index: Int) -> Substring { text.dropFirst(2 * index).prefix(2) }
        return
            "20\(pair(date, 2))-\(pair(date, 1))-\(pair(date, 0))T\(pair(hms, 0)):\(pair(hms, 1)):\(pair(hms, 2)).000Z"
    }

    @Test func aDriveThroughGpsdIsStoredAsItsImportStoresIt() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try Drive()
        let gpsd = try GPSDDevice()
        let daemon = try Self.daemon(port: gpsd.port, state: state)

        let connected = try #require(daemon.waitForLine(containing: "source connected"), "\(daemon.output)")
        #expect(
            connected.contains(/gpsd \d+\.\d+.* \(protocol \d+\.\d+\) at gpsd:\/\/127\.0\.0\.1:\d+$/),
            "\(connected)"
        )
        let session = state.url.appendingPathComponent("session.json").path
        let gpspipe = try gpsd.record(to: session)
        gpsd.write(drive.epochs.joined())
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        #expect(GPSDDevice.wait(for: Self.gpsdTime(of: drive.epochs.last!), in: session))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        gpsd.killGPSD()
        gpspipe.waitUntilExit()

        let (expected, stored) = try Self.trips(recorded: [session], state: state)
        #expect(stored == expected)
    }

    @Test func gpsdKilledMidDriveAndStartedAgainOnTheSamePortLosesNothing() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try Drive()
        let gpsd = try GPSDDevice()
        let daemon = try Self.daemon(port: gpsd.port, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")

        let middle = drive.epochs.count / 2
        let sessions = ["session-1.json", "session-2.json"].map { state.url.appendingPathComponent($0).path }
        let firstPipe = try gpsd.record(to: sessions[0])
        gpsd.write(drive.epochs[..<middle].joined())
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        // gpsd dies once it has sent the first half.
        #expect(GPSDDevice.wait(for: Self.gpsdTime(of: drive.epochs[middle - 1]), in: sessions[0]))
        gpsd.killGPSD()
        firstPipe.waitUntilExit()
        let disconnected = try #require(daemon.waitForLine(containing: "source disconnected"), "\(daemon.output)")
        #expect(disconnected.contains("gpsd://127.0.0.1:\(gpsd.port): gpsd closed the connection"), "\(disconnected)")

        try gpsd.startGPSD()
        #expect(daemon.waitForLines(containing: "source connected", count: 2), "\(daemon.output)")
        let secondPipe = try gpsd.record(to: sessions[1])
        gpsd.write(drive.epochs[middle...].joined())
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        #expect(GPSDDevice.wait(for: Self.gpsdTime(of: drive.epochs.last!), in: sessions[1]))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        gpsd.killGPSD()
        secondPipe.waitUntilExit()

        let (expected, stored) = try Self.trips(recorded: sessions, state: state)
        #expect(stored == expected)
    }

    @Test func withoutGpsdItKeepsTryingAndSIGTERMStillExitsZero() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let port = TestProcesses.freePort()
        let daemon = try Self.daemon(port: port, state: state)
        let refused = try #require(daemon.waitForLine(containing: "cannot use gpsd"), "\(daemon.output)")
        #expect(refused.contains("gpsd://127.0.0.1:\(port): Connection refused; retrying, at most every 0.5 s"))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("stopped, database flushed"))
    }
}
