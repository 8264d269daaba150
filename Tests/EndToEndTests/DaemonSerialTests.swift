import Foundation
import TestSupport
import Testing

/// `travel-companiond run --source serial://…` on a real pty: a drive with junk on the line stored
/// as its import stores it, and the receiver unplugged and plugged back in mid-drive.
@Suite struct DaemonSerialTests {
    /// Power-up noise, a bad checksum and a truncated sentence, between every epoch.
    static let junk = "\u{00}\u{FF}noise$GPGGA,1234*ZZ\r\n$GPRMC,063"

    static func daemon(_ receiver: PTYReceiver, state: DaemonReplayTests.StateDirectory) throws -> DaemonProcess {
        try DaemonProcess(
            [
                "run", "--config", state.config, "--db", state.database, "--source",
                "serial://\(receiver.device)?baud=38400",
            ]
        )
    }

    /// `epochs` as the receiver sends them.
    static func line(_ epochs: ArraySlice<String>) -> String {
        epochs.map { junk + $0 }.joined()
    }

    /// What `travelctl import` makes of `text` and what the daemon stored, trip by trip.
    static func trips(
        of text: String,
        state: DaemonReplayTests.StateDirectory
    ) throws -> (
        expected: [[String: Any]], stored: [[String: Any]]
    ) {
        let log = state.url.appendingPathComponent("receiver.nmea").path
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let (_, expected) = try DaemonReplayTests.imported(log, in: state)
        #expect(expected.count == 1)
        return (expected, try ImportCommandTests.trips(state.database))
    }

    @Test func aDriveWithJunkOnTheLineIsStoredAsItsImportStoresIt() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try DaemonGPSDTests.Drive()
        let receiver = try PTYReceiver()
        let daemon = try Self.daemon(receiver, state: state)
        let connected = try #require(daemon.waitForLine(containing: "source connected"), "\(daemon.output)")
        #expect(connected.hasSuffix("serial://\(receiver.device)?baud=38400"))

        let text = Self.line(drive.epochs[...])
        receiver.write(text)
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let (expected, stored) = try Self.trips(of: text, state: state)
        #expect(DaemonReplayTests.essentials(stored) == DaemonReplayTests.essentials(expected))
    }

    @Test func theReceiverUnpluggedMidDriveAndPluggedBackInKeepsTheTrip() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let drive = try DaemonGPSDTests.Drive()
        let receiver = try PTYReceiver()
        let daemon = try Self.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")

        let middle = drive.epochs.count / 2
        receiver.write(Self.line(drive.epochs[..<middle]))
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        receiver.unplug()
        #expect(daemon.waitForLine(containing: "source disconnected") != nil, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "cannot use serial://") != nil, "\(daemon.output)")

        try receiver.plugIn()
        #expect(daemon.waitForLines(containing: "source connected", count: 2), "\(daemon.output)")
        receiver.write(Self.line(drive.epochs[middle...]))
        #expect(daemon.waitForLine(containing: "trip ended") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        // What the daemon had not read when the receiver was pulled out is gone with it; the trip
        // is one, from its departure to its arrival.
        let (expected, stored) = try Self.trips(of: Self.line(drive.epochs[...]), state: state)
        let ends = { (trips: [[String: Any]]) in trips.map { "\($0["start"] ?? "-") \($0["end"] ?? "-")" } }
        #expect(ends(stored) == ends(expected))
    }
}
