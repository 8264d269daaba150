import Foundation
import TestSupport
import Testing

/// Time without a real-time clock, on a real pty: history is stamped with GPS time whatever the
/// system clock says, the clock's offset is measured and reported, a step of it is noticed, and
/// a receiver with the GPS week-rollover bug has its drive stored on the real dates.
@Suite struct DaemonClockTests {
    /// The car drive of `Drive`, moved to start at `start`, shifted by `shift` seconds in its dates.
    static func epochs(startingAt start: Date, shift: TimeInterval = 0) throws -> [String] {
        let points = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
        let offset = start.timeIntervalSince(try #require(points.first).time)
        let (first, last) = (points.first!, points.last!)
        let parkedBefore = (1...6).reversed().map { (first, first.time.addingTimeInterval(Double(-10 * $0))) }
        let parkedAfter = (1...42).map { (last, last.time.addingTimeInterval(Double(10 * $0))) }
        return (parkedBefore + points.map { ($0, $0.time) } + parkedAfter).map {
            let time = $0.1.addingTimeInterval(offset + shift)
            return NMEALogWriter.rmc($0.0, time: time) + NMEALogWriter.gga($0.0, time: time)
        }
    }

    /// What the import of `epochs` (no clock involved) and the daemon stored agree on.
    static func expectStoredAsImported(_ epochs: [String], state: DaemonReplayTests.StateDirectory) throws {
        let (expected, stored) = try DaemonSerialTests.trips(of: epochs.joined(), state: state)
        #expect(DaemonReplayTests.essentials(stored) == DaemonReplayTests.essentials(expected))
    }

    @Test func aReceiverWithTheWeekRolloverBugHasItsDriveStoredOnTheRealDates() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let start = Date(timeIntervalSince1970: 1_763_812_800)  // 2025-11-22T12:00:00Z
        let real = try Self.epochs(startingAt: start)
        let rolledOver = try Self.epochs(startingAt: start, shift: -1024 * 7 * 86_400)
        #expect(rolledOver[0].contains(",A,") && rolledOver[0].contains(",080406,"), "\(rolledOver[0])")
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(rolledOver.joined())
        let ended = daemon.waitForLine(containing: "trip ended")
        #expect(ended?.contains("at 2025-11-22 ") == true, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("week rollover"), "\(daemon.output)")
        try Self.expectStoredAsImported(real, state: state)
    }

    /// The car drive of 2020 sent live today: to the daemon, the system clock is years ahead of
    /// GPS time, as on a board that restored a wrong fake-hwclock. It says so, and stores the drive
    /// on its GPS dates. (The step of a clock is in `TimeWithoutClockTests`: changing this machine's
    /// clock is not a test's business, and libfaketime hides the command line from Swift programs.)
    @Test func aSystemClockYearsOffGPSTimeIsReportedAndChangesNothingStored() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let epochs = try DaemonGPSDTests.Drive().epochs
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        for epoch in epochs.prefix(5) {
            receiver.write(epoch)
            usleep(200_000)
        }
        let measured = daemon.waitForLine(containing: "system clock is")
        #expect(
            measured?.contains(" years ") == true && measured?.contains("ahead of GPS time") == true,
            "\(daemon.output)"
        )
        // The rest at once, far faster than a receiver talks: GPS time gains on the system clock
        // with every fix, which is no step of the clock; what is stored is unaffected either way.
        receiver.write(epochs.dropFirst(5).joined())
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(!daemon.output.contains("clock stepped"), "\(daemon.output)")
        try Self.expectStoredAsImported(epochs, state: state)
    }

    /// gpsfake at 15 ms a sentence (TESTING.md) replays the 2020 drive through a real gpsd, far
    /// faster than real time: the offset is measured once and no clock step is reported (there
    /// were 50 to 66 of them, each with its ClockStepped hook, and garbled).
    @Test func gpsfakeFasterThanRealTimeReportsNoClockStep() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let log = state.url.appendingPathComponent("drive.nmea").path
        try DaemonGPSDTests.Drive().epochs.joined().write(toFile: log, atomically: true, encoding: .utf8)
        let port = TestProcesses.freePort()
        let gpsfake = try TestProcesses.launch(
            "/usr/bin/gpsfake",
            ["-1", "-n", "-q", "-P", "\(port)", "-c", "0.015", "-W", "3", log]
        )
        defer {
            if gpsfake.isRunning { kill(gpsfake.processIdentifier, SIGTERM) }
            gpsfake.waitUntilExit()
        }
        usleep(1_000_000)
        let daemon = try DaemonGPSDTests.daemon(port: port, state: state)
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("system clock is "), "\(daemon.output)")
        let steps = daemon.output.split(separator: "\n").filter { $0.contains("clock stepped") }
        #expect(steps.isEmpty, "\(steps)")
    }
}
