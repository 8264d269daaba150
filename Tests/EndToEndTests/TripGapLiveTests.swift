import Foundation
import TestSupport
import Testing

/// Live on a real pty, a trip ends when the gap in its fixes passes `[Tracking] MaximumGapSec`,
/// with no fix to end it: the receiver reporting no fix (`RMC,V` in an underground garage), or
/// saying nothing at all (unplugged). Before, the trip stayed "driving" until fixes returned.
@Suite struct TripGapLiveTests {
    /// The smallest gap the configuration takes, so a silent receiver ends the trip in a minute.
    static let maximumGap = 60.0

    /// The car drive, parked a minute before it and standing 20 s after it (no parking yet); and
    /// the time of its last epoch.
    static func drive() throws -> (epochs: [String], last: Date) {
        let drive = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
        let (first, last) = (try #require(drive.first), try #require(drive.last))
        let parkedBefore = (1...6).reversed().map { (first, first.time.addingTimeInterval(Double(-10 * $0))) }
        let standing = (1...2).map { (last, last.time.addingTimeInterval(Double(10 * $0))) }
        let epochs = (parkedBefore + drive.map { ($0, $0.time) } + standing).map { point, time in
            NMEALogWriter.rmc(point, time: time) + NMEALogWriter.gga(point, time: time)
        }
        return (epochs, last.time.addingTimeInterval(20))
    }

    /// A receiver without a fix: `RMC,V` with its time and date, no position.
    static func noFix(at time: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        let date = String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
        return NMEALogWriter.sentence("GPRMC,\(NMEALogWriter.hms(c)),V,,,,,,,\(date),,,N")
    }

    /// A daemon on a pty with the small gap, having read `epochs` and started the trip; `hooks`
    /// is added to its configuration.
    static func driven(
        _ epochs: [String],
        state: DaemonReplayTests.StateDirectory,
        hooks: String = ""
    ) throws -> (PTYReceiver, DaemonProcess) {
        let config = try String(contentsOfFile: state.config, encoding: .utf8)
        try (config + "[Tracking]\nMaximumGapSec=\(Int(maximumGap))\nParkedGapSec=30\n" + hooks)
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(epochs.joined())
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        return (receiver, daemon)
    }

    /// The trip `travelctl import` finds in `epochs`: its end is the arrival.
    static func imported(_ epochs: [String], state: DaemonReplayTests.StateDirectory) throws -> [String: Any] {
        let log = state.url.appendingPathComponent("receiver.nmea").path
        try epochs.joined().write(toFile: log, atomically: true, encoding: .utf8)
        let (_, trips) = try DaemonReplayTests.imported(log, in: state)
        #expect(trips.count == 1)
        return try #require(trips.first)
    }

    /// While the daemon runs: `status` shows no trip in progress, and `trips` holds the one
    /// trip, ended by the gap (`data-gap`) at the arrival and from the departure of `expected`.
    static func expectEnded(as expected: [String: Any], state: DaemonReplayTests.StateDirectory) throws {
        let socket = state.url.appendingPathComponent("control").path
        let status = try Binaries.run("travelctl", ["--socket", socket, "status", "--json"])
        #expect(status.status == 0, "\(status.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        #expect(json["trip"] == nil || json["trip"] is NSNull, "\(status.output)")
        #expect((json["counters"] as? [String: Any])?["trips_ended"] as? Int == 1, "\(status.output)")
        let trips = try Binaries.run("travelctl", ["--socket", socket, "trips", "--json"])
        #expect(trips.status == 0, "\(trips.standardError)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(trips.output.utf8)) as? [[String: Any]])
        #expect(listed.count == 1, "\(trips.output)")
        #expect(listed.first?["end_reason"] as? String == "data-gap", "\(trips.output)")
        #expect(listed.first?["start"] as? String == expected["start"] as? String, "\(trips.output)")
        #expect(listed.first?["end"] as? String == expected["end"] as? String, "\(trips.output) \(expected)")
    }

    /// Twelve minutes' worth of `RMC,V` after arrival (here past the one-minute gap): the trip
    /// ends at the first epoch past the gap, back-dated to the arrival, without any new fix.
    @Test func noFixEpochsInAGarageEndTheTrip() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let (epochs, last) = try Self.drive()
        let (receiver, daemon) = try Self.driven(epochs, state: state)
        let garage = (1...Int(Self.maximumGap) + 10).map { Self.noFix(at: last.addingTimeInterval(Double($0))) }
        receiver.write(garage.joined())
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        // The same log imported ends the trip at the same moment, for the same reason.
        let imported = try Self.imported(epochs + garage, state: state)
        #expect(imported["end_reason"] as? String == "data-gap")
        try Self.expectEnded(as: imported, state: state)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let live = try ImportCommandTests.trips(state.database)
        #expect(DaemonReplayTests.essentials([imported]) == DaemonReplayTests.essentials(live))
    }

    /// The receiver unplugged after arrival: nothing arrives at all, and the daemon's clock ends
    /// the trip once the gap passes, back-dated to the arrival.
    @Test func aSilentReceiverEndsTheTrip() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let (epochs, _) = try Self.drive()
        // Written aside and renamed: the file appears whole (the shell creates it before `env` writes).
        let record = try DaemonHookTests.script("record", in: state.url, #"env > "$1.part" && mv "$1.part" "$1.env""#)
        let ended = state.url.appendingPathComponent("ended").path
        let hooks = "[Hooks]\nTripEnded=\(record) \(ended)\n"
        let (receiver, daemon) = try Self.driven(epochs, state: state, hooks: hooks)
        try withExtendedLifetime(receiver) {
            #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
            // The hook runs for the gap's end, as for any other.
            let deadline = Date(timeIntervalSinceNow: TestProcesses.hangLimit)
            while !FileManager.default.fileExists(atPath: ended + ".env"), Date() < deadline { usleep(50_000) }
            let environment = (try? String(contentsOfFile: ended + ".env", encoding: .utf8)) ?? ""
            #expect(environment.contains("TC_END_REASON=data-gap"), "\(environment)")
            #expect(!daemon.output.contains("source disconnected"), "\(daemon.output)")
            // Where the log's end would end it: at the arrival.
            try Self.expectEnded(as: Self.imported(epochs, state: state), state: state)
            daemon.send(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        }
    }
}

/// `status`'s counters say what the receiver delivered in this run: the route points a restart
/// after SIGKILL catches up on (spooled or committed after the last state save) are not fixes
/// read. Before, they were all counted.
@Suite struct RestartCountersTests {
    @Test func aRestartCountsNoCaughtUpPointsAsFixesRead() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let config = try String(contentsOfFile: state.config, encoding: .utf8)
        try (config + "[Storage]\nFlushIntervalSec=1\nCommitIntervalSec=3600\n")
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        let receiver = try PTYReceiver()
        var daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        let epochs = try TripGapLiveTests.drive().epochs
        receiver.write(epochs[..<(epochs.count / 2)].joined())
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        // A read through the socket commits the trip's start; the route points after it go to the
        // spool at the next flush.
        let socket = state.url.appendingPathComponent("control").path
        #expect(try Binaries.run("travelctl", ["--socket", socket, "trips"]).status == 0)
        receiver.write(epochs[(epochs.count / 2)...].joined())
        let spool = state.database + "-spool"
        let deadline = Date(timeIntervalSinceNow: TestProcesses.hangLimit)
        func spooled() -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: spool))?[.size] as? NSNumber)?.intValue ?? 0
        }
        while spooled() == 0, Date() < deadline { usleep(50_000) }
        #expect(spooled() > 0)
        daemon.send(SIGKILL)
        _ = daemon.waitForExit()

        daemon = try DaemonSerialTests.daemon(receiver, state: state)
        defer {
            daemon.send(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        let status = try Binaries.run("travelctl", ["--socket", socket, "status", "--json"])
        #expect(status.status == 0, "\(status.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        // The catch-up happened: the trip goes on from the points read back.
        #expect(json["trip"] is [String: Any], "\(status.output)")
        let counters = try #require(json["counters"] as? [String: Any], "\(status.output)")
        #expect(counters["fixes_read"] as? Int == 0, "\(status.output)")
        #expect(counters["accepted"] as? Int == 0, "\(status.output)")
    }
}
