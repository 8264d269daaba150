import Foundation

/// A serial NMEA receiver made of a socat pty pair: `device` is what a reader (the daemon, its
/// serial source, gpsd) opens, and the test writes what the receiver says. Unplugging ends socat,
/// so the device vanishes as a pulled USB receiver does; plugging in again brings it back under
/// the same name.
package final class PTYReceiver {
    package let directory: String
    private var socat: Process?
    private var feeder: FileHandle?

    package var device: String { "\(directory)/gps0" }

    package init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-pty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // gpsd drops root for its own user, which must reach the pty.
        chmod(directory, 0o755)
        try plugIn()
    }

    /// A new pty pair behind the same names.
    package func plugIn() throws {
        socat = try TestProcesses.launch(
            "/usr/bin/socat",
            ["pty,raw,echo=0,link=\(device),perm=0666", "pty,raw,echo=0,link=\(directory)/feeder"]
        )
        // socat makes the links once both ptys exist.
        let deadline = Date(timeIntervalSinceNow: TestProcesses.hangLimit)
        while !FileManager.default.fileExists(atPath: "\(directory)/feeder")
            || !FileManager.default.fileExists(atPath: device), Date() < deadline
        {
            usleep(10_000)
        }
        feeder = FileHandle(forWritingAtPath: "\(directory)/feeder")
    }

    package func unplug() {
        try? feeder?.close()
        feeder = nil
        if let socat {
            if socat.isRunning { socat.terminate() }
            socat.waitUntilExit()
        }
        socat = nil
        try? FileManager.default.removeItem(atPath: device)
        try? FileManager.default.removeItem(atPath: "\(directory)/feeder")
    }

    package func write(_ text: String) {
        feeder?.write(Data(text.utf8))
    }

    deinit {
        unplug()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
