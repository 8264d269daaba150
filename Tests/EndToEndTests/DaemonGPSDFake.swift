import Foundation
import TestSupport
import Testing

/// A real gpsd (3.22 on Debian 12) reading a receiver that is a socat pty pair, on a port of its
/// own so no system gpsd is used or disturbed. The test writes the receiver's sentences itself,
/// after the daemon is watching, so no epoch is sent before anyone listens.
final class GPSDDevice {
    let port = TestProcesses.freePort()
    let receiver: PTYReceiver
    private var gpsd: GPSD?

    init() throws {
        receiver = try PTYReceiver()
        try startGPSD()
    }

    /// gpsd at a known speed and framing, reading at once (`-n`): no probing that drops input.
    func startGPSD() throws {
        gpsd = try GPSD(reading: receiver.device, port: port)
    }

    /// gpsd dies as in a crash; the pty stays, as a receiver stays plugged in.
    func killGPSD() {
        gpsd?.kill()
        gpsd = nil
    }

    /// What the receiver says.
    func write(_ text: String) {
        receiver.write(text)
    }

    /// `gpspipe -w` into `path`, watching once this returns: what gpsd sends its clients, for
    /// `travelctl import` to read. It ends when gpsd goes.
    func record(to path: String) throws -> Process {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let gpspipe = try TestProcesses.launch("/usr/bin/gpspipe", ["-w", "127.0.0.1:\(port)"], output: output)
        #expect(Self.wait(for: #""class":"WATCH""#, in: path))
        return gpspipe
    }

    /// Waits until the file at `path` contains `text`; false after the hang limit.
    static func wait(for text: String, in path: String) -> Bool {
        let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
        while Date() < deadline {
            if let content = try? String(contentsOfFile: path, encoding: .utf8), content.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    deinit {
        killGPSD()
    }
}

extension DaemonProcess {
    /// Waits until `count` lines contain `text` (a reconnection logs what the first connection
    /// logged); false after `hangLimit`.
    func waitForLines(containing text: String, count: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.hangLimit)
        while Date() < deadline {
            let output = output
            if output.components(separatedBy: "\n").filter({ $0.contains(text) }).count >= count { return true }
            usleep(20_000)
        }
        return false
    }
}
