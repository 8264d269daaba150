import Foundation

/// A real gpsd (3.22 on Debian 12) on a port of its own, never the system gpsd: reading a device
/// at a set speed and framing from its start (`-n`, no probing that drops input), or without a
/// device, when it greets and says nothing, ever.
package final class GPSD {
    package let port: Int
    private let process: Process
    private let controlSocket = FileManager.default.temporaryDirectory
        .appendingPathComponent("tc-gpsd-\(UUID().uuidString)").path

    package init(reading device: String?, port: Int = TestProcesses.freePort()) throws {
        self.port = port
        let reading = device.map { ["-n", "-b", "-s", "38400", "-f", "8N1", $0] } ?? []
        process = try TestProcesses.launch("/usr/sbin/gpsd", ["-N", "-S", "\(port)", "-F", controlSocket] + reading)
    }

    /// gpsd dies as in a crash.
    package func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: controlSocket)
    }

    deinit { kill() }
}
