import Foundation
import TestSupport
import Testing

/// `serial://…?baud=auto` against a receiver that only makes sense at 38400 baud: a pty whose
/// far end reads the rate the daemon set (a pty's master sees its slave's termios) and sends
/// NMEA at 38400, garbage at any other rate, as a real line at the wrong rate would read.
@Suite struct DaemonAutoBaudTests {
    static let receiver = #"""
        import os, random, sys, termios, time
        link, epochs = sys.argv[1], open(sys.argv[2], "rb").read().split(b"\n")
        master, slave = os.openpty()
        os.symlink(os.ttyname(slave), link)
        random.seed(7)
        index = 0
        while True:
            if termios.tcgetattr(master)[4] == termios.B38400:
                os.write(master, epochs[index % len(epochs)] + b"\n")
                index += 1
            else:
                os.write(master, bytes(random.randrange(256) for _ in range(120)))
            time.sleep(0.1)
        """#

    @Test func findsTheRateTheReceiverTalksAt() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let epochs = try DaemonGPSDTests.Drive().epochs.flatMap { $0.split(separator: "\r\n").map { $0 + "\r" } }
        let log = state.url.appendingPathComponent("epochs.nmea").path
        try epochs.joined(separator: "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let device = state.url.appendingPathComponent("gps0").path
        let receiver = try TestProcesses.launch("/usr/bin/python3", ["-c", Self.receiver, device, log])
        defer {
            receiver.terminate()
            receiver.waitUntilExit()
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: device) { usleep(10_000) }

        let daemon = try DaemonProcess(
            ["run", "--config", state.config, "--db", state.database, "--source", "serial://\(device)?baud=auto"]
        )
        let connected = daemon.waitForLine(containing: "source connected")
        #expect(connected?.hasSuffix("serial://\(device)?baud=auto, found 38400 baud") == true, "\(daemon.output)")
        #expect(daemon.waitForLine(containing: "fix acquired") != nil, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }
}
