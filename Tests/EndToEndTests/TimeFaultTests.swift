import Foundation
import TestSupport
import Testing

/// A receiver's bad times, through `travelctl import` and the daemon on a real pty: one epoch
/// dated ahead costs one epoch (also across a restart), a lasting step back of GPS time is
/// followed and said, and a backlog read after a reopen is no step of the system clock.
@Suite struct TimeFaultTests {
    /// The car drive with parked minutes around it, epoch by epoch, `shift` seconds added to the
    /// time of the epochs `shifted` selects.
    static func epochs(shift: TimeInterval, _ shifted: (Int) -> Bool) throws -> [String] {
        let drive = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
        let (first, last) = (try #require(drive.first), try #require(drive.last))
        let parkedBefore = (1...6).reversed().map { (first, first.time.addingTimeInterval(Double(-10 * $0))) }
        let parkedAfter = (1...42).map { (last, last.time.addingTimeInterval(Double(10 * $0))) }
        return (parkedBefore + drive.map { ($0, $0.time) } + parkedAfter).enumerated().map { index, epoch in
            let time = shifted(index) ? epoch.1.addingTimeInterval(shift) : epoch.1
            return NMEALogWriter.rmc(epoch.0, time: time) + NMEALogWriter.gga(epoch.0, time: time)
        }
    }

    /// What the sqlite3 shell prints for `query` on `database`.
    static func sqlite(_ database: String, _ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database, query]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The issue's repro: one track point of the bus ride dated 6 h or 30 min ahead. It alone is
    /// rejected; the ride is one trip, as without it (600 accepted and 1544 rejected before).
    @Test(arguments: ["2019-02-18T14:05:41Z", "2019-02-18T08:35:41Z"])
    func aGPXWithOneTrackPointDatedAheadLosesOnlyIt(date: String) throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let gpx = state.url.appendingPathComponent("shifted.gpx").path
        let text = try String(contentsOfFile: DaemonReplayTests.bus, encoding: .utf8)
        #expect(text.contains("2019-02-18T08:05:41Z"))
        try text.replacingOccurrences(of: "2019-02-18T08:05:41Z", with: date)
            .write(toFile: gpx, atomically: true, encoding: .utf8)
        let (summary, trips) = try DaemonReplayTests.imported(gpx, in: state)
        #expect(
            summary.contains("2144 fixes read, 2143 accepted, 1 rejected (1 time-jump); 1 trip found"),
            "\(summary)"
        )
        let other = try DaemonReplayTests.StateDirectory()
        defer { other.remove() }
        let (_, clean) = try DaemonReplayTests.imported(DaemonReplayTests.bus, in: other)
        #expect(
            trips.map { "\($0["start"] ?? "-") \($0["end"] ?? "-")" }
                == clean.map { "\($0["start"] ?? "-") \($0["end"] ?? "-")" }
        )
    }

    /// Live on a pty, one epoch mid-drive dated 6 h ahead, the daemon stopped just after it and
    /// started again: the saved resume point is not the outlier, the outlier is dropped and said,
    /// and the drive is stored as the clean log imports it.
    @Test func oneEpochDatedAheadLiveAndAcrossARestartCostsOneEpoch() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let clean = try Self.epochs(shift: 0) { _ in false }
        let outlier = clean.count / 3
        let epochs = try Self.epochs(shift: 6 * 3600) { $0 == outlier }
        let receiver = try PTYReceiver()
        var daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(epochs[...outlier].joined())
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        usleep(500_000)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let saved = try Self.sqlite(state.database, "SELECT snapshot FROM engine_state")
        let lastAccepted = try #require(
            (try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: Any])?["lastAccepted"]
                as? [String: Any]
        )
        let outlierTime = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)[outlier - 6].time
            .addingTimeInterval(6 * 3600)
        #expect((lastAccepted["t"] as? Int).map { $0 < Int(outlierTime.timeIntervalSince1970 * 1000) } == true)

        daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(epochs[(outlier + 1)...].joined())
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("was dropped (time-jump)"), "\(daemon.output)")
        #expect(daemon.output.contains("1 time-jump"), "\(daemon.output)")
        let log = state.url.appendingPathComponent("clean.nmea").path
        try clean.joined().write(toFile: log, atomically: true, encoding: .utf8)
        let (_, expected) = try DaemonReplayTests.imported(log, in: state)
        let stored = try ImportCommandTests.trips(state.database)
        let ends = { (trips: [[String: Any]]) in trips.map { "\($0["start"] ?? "-") \($0["end"] ?? "-")" } }
        #expect(expected.count == 1)
        #expect(ends(stored) == ends(expected))
    }

    /// The daemon on a real pty fed `epochs` at once, stopped once two trips have ended.
    static func twoTripsLive(_ epochs: [String], state: DaemonReplayTests.StateDirectory) throws -> DaemonProcess {
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(epochs.joined())
        #expect(daemon.waitForLines(containing: "trip ended", count: 2), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        return daemon
    }

    /// Live on a pty, GPS time steps back by 30 s or an hour mid-drive and stays there: one
    /// warning says so, the trip ends there (`time-step`), and the rest of the drive is tracked.
    @Test(arguments: [-30.0, -3600])
    func aLastingStepBackLiveIsFollowedAndSaid(step: Double) throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let clean = try Self.epochs(shift: 0) { _ in false }
        let epochs = try Self.epochs(shift: step) { $0 >= clean.count / 3 }
        let daemon = try Self.twoTripsLive(epochs, state: state)
        let warnings = daemon.output.split(separator: "\n").filter { $0.contains("GPS time stepped back") }
        #expect(warnings.count == 1, "\(daemon.output)")
        // The fixture's epochs are 5 s apart: the step is measured from the last epoch before it
        // (3 595 s reads 1 h 00 min: minutes are rounded to the nearest, as everywhere).
        #expect(warnings.first?.contains(step == -30 ? "by 25 s" : "by 1 h 00 min") == true, "\(warnings)")
        // Nothing rejected: every fix read was accepted.
        let summary = try #require(daemon.output.split(separator: "\n").first { $0.contains("this run: ") })
        let counts = summary.split(separator: " ").compactMap { Int($0) }
        // (Stopped once the second trip ended: the last parked minutes may be unread.)
        #expect(counts.count >= 2 && counts[0] == counts[1] && counts[0] > epochs.count - 20, "\(summary)")
        #expect(summary.contains("1 step back of GPS time"), "\(summary)")
        let stored = try ImportCommandTests.trips(state.database)
        #expect(stored.map { "\($0["end_reason"] ?? "-")" }.sorted() == ["parked", "time-step"])
    }

    /// Live on a pty, the drive and then the same drive 200 days later, as a receiver whose date
    /// was wrong before (or another receiver) gives it to a daemon that kept running: the first
    /// epochs of the later drive are `in-future`, then the run is followed, said once, and both
    /// drives are trips.
    @Test func aLaterDriveDatedMonthsAheadLiveIsFollowedAndSaid() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let later = 200 * 86_400.0
        let epochs = try Self.epochs(shift: 0) { _ in false } + Self.epochs(shift: later) { _ in true }
        let daemon = try Self.twoTripsLive(epochs, state: state)
        let warnings = daemon.output.split(separator: "\n").filter { $0.contains("GPS time moved ahead") }
        #expect(warnings.count == 1, "\(daemon.output)")
        #expect(warnings.first?.contains("by 199 days 23 h") == true, "\(warnings)")
        let summary = try #require(daemon.output.split(separator: "\n").first { $0.contains("this run: ") })
        #expect(summary.contains("(9 in-future)"), "\(summary)")
        let stored = try ImportCommandTests.trips(state.database)
        #expect(stored.map { "\($0["end_reason"] ?? "-")" } == ["parked", "parked"])
    }

    /// Live on a pty at a receiver's pace, parked: GPS time moves 200 days ahead for good. The
    /// system clock did not step, so none is reported (its offset is measured again on the new
    /// time, as after a step back), and no ClockStepped event is raised.
    @Test func timeMovedAheadIsNoStepOfTheSystemClock() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let spot = NMEALogWriter.Point(time: Date(), latitude: 45.27345, longitude: 13.71387)
        let before = 16_082_712_000  // 2020-12-18T06:00:00Z, in deciseconds
        let after = before + 200 * 864_000
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        // Epochs as far apart in GPS time as on the line, so the samples agree with each other.
        for (base, count) in [(before, 12), (after, 20)] {  // 20: twice the run the filter follows
            for index in 0..<count {
                receiver.write(Self.epoch(spot, deciseconds: base + 2 * index))
                usleep(200_000)
            }
        }
        #expect(daemon.waitForLine(containing: "GPS time moved ahead") != nil, "\(daemon.output)")
        usleep(500_000)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let measured = daemon.output.split(separator: "\n").filter { $0.contains("system clock is") }
        #expect(measured.count == 2, "\(daemon.output)")
        #expect(!daemon.output.contains("clock stepped"), "\(daemon.output)")
    }

    /// A 10 Hz epoch (RMC + GGA) at `deciseconds` since 1970, standing at `p`.
    static func epoch(_ p: NMEALogWriter.Point, deciseconds: Int) -> String {
        let time = Date(timeIntervalSince1970: Double(deciseconds / 10))
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        let hms = String(format: "%02d%02d%02d.%d0", c.hour!, c.minute!, c.second!, deciseconds % 10)
        let date = String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
        let position =
            "\(NMEALogWriter.angle(p.latitude, 2, "N", "S")),\(NMEALogWriter.angle(p.longitude, 3, "E", "W"))"
        return NMEALogWriter.sentence("GPRMC,\(hms),A,\(position),,,\(date),,,A")
            + NMEALogWriter.sentence("GPGGA,\(hms),\(position),1,08,1.0,20.0,M,50.0,M,,")
    }

    /// A 10 Hz receiver, its serial device reopened: the 5 s of epochs made meanwhile are read
    /// at once, then the feed is real time again. The backlog is no step of the system clock
    /// (it was reported as one, forward by about 5 s).
    @Test func aBacklogReadAfterAReopenIsNoClockStep() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let point = try #require(try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car).first)
        let receiver = try PTYReceiver()
        var sent = 0
        var last = 0
        func now() -> Int { Int(Date().timeIntervalSince1970 * 10) }
        func realTime(for seconds: Int) {
            let end = now() + seconds * 10
            while last < end {
                usleep(10_000)
                let current = now()
                guard current > last else { continue }
                last = current
                receiver.write(Self.epoch(point, deciseconds: current))
                sent += 1
            }
        }
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        realTime(for: 3)
        #expect(daemon.waitForLine(containing: "system clock is") != nil, "\(daemon.output)")
        receiver.unplug()
        #expect(daemon.waitForLine(containing: "source disconnected") != nil, "\(daemon.output)")
        // What the receiver said while the device was away, queued: read at once.
        usleep(5_000_000)
        try receiver.plugIn()
        #expect(daemon.waitForLines(containing: "source connected", count: 2), "\(daemon.output)")
        let backlog = (last + 1)..<now()
        receiver.write(backlog.map { Self.epoch(point, deciseconds: $0) }.joined())
        sent += backlog.count
        last = backlog.upperBound - 1
        realTime(for: 3)
        usleep(300_000)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        // All but the epoch the decoder may still hold open at the stop (the backlog was read).
        let summary = try #require(daemon.output.split(separator: "\n").first { $0.contains("this run: ") })
        let read = summary.split(separator: " ").compactMap { Int($0) }.first ?? 0
        #expect(read >= sent - 1, "\(summary), \(sent) sent")
        #expect(!daemon.output.contains("clock stepped"), "\(daemon.output)")
    }
}
