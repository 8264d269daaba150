import Foundation

/// A serial NMEA receiver made of a socat pty pair: `device` is what a reader (the daemon, gpsd)
/// opens, and the test writes what the receiver says. Unplugging ends socat, so the device
/// vanishes as a pulled USB receiver does.
final class PTYReceiver {
    let directory: String
    private var socat: Process?
    private var feeder: FileHandle?

    var device: String { "\(directory)/gps0" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-pty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // gpsd drops root for its own user, which must reach the pty.
        chmod(directory, 0o755)
        try plugIn()
    }

    /// A new pty pair behind the same names.
    func plugIn() throws {
        socat = try Self.launch(
            "/usr/bin/socat",
            ["pty,raw,echo=0,link=\(device),perm=0666", "pty,raw,echo=0,link=\(directory)/feeder"]
        )
        let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
        while !FileManager.default.fileExists(atPath: "\(directory)/feeder")
            || !FileManager.default.fileExists(
                atPath: device
            ), Date() < deadline
        {
            usleep(10_000)
        }
        feeder = FileHandle(forWritingAtPath: "\(directory)/feeder")
    }

    func unplug() {
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

    func write(_ text: String) {
        feeder?.write(Data(text.utf8))
    }

    deinit {
        unplug()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `executable` without what Foundation's `Process` passes on from the runner: its blocked
    /// signal mask (gpsd and socat would ignore SIGTERM) and its pipes (gpsd would hold the stderr
    /// of a daemon another test waits on). The socket `Process` watches the child by is kept.
    static func launch(
        _ executable: String,
        _ arguments: [String],
        output: FileHandle = FileHandle.nullDevice
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                """
                import os, signal, stat, sys
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                for fd in map(int, os.listdir("/proc/self/fd")):
                    try:
                        if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                            os.close(fd)
                    except OSError:
                        pass
                os.execv(sys.argv[1], sys.argv[1:])
                """,
                executable,
            ] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
