package import Foundation

/// What the test targets that start real programs (gpsd, socat, mosquitto, hooks, the daemon) share.
package enum TestProcesses {
    /// How long a test waits for a program that should answer at once before calling it a hang.
    package static let hangLimit: TimeInterval = 120

    /// A TCP port free on both 127.0.0.1 and ::1: gpsd binds both, and only ::1 when the other is taken.
    package static func freePort() -> Int {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin6_port))
    }

    /// A prefix for a server's command line that clears the signal mask it would inherit from
    /// the test process (whose threads block some), so SIGTERM and SIGINT stop it.
    package static let unblockingSignals = [
        "/usr/bin/python3", "-c",
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
    ]

    /// Runs `executable` without what Foundation's `Process` passes on from the runner: its blocked
    /// signal mask (gpsd and socat would ignore SIGTERM) and its pipes (gpsd would hold the stderr
    /// of a daemon another test waits on). The socket `Process` watches the child by is kept.
    package static func launch(
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

    /// Whether process `id` has ended: gone, or a zombie its new parent has yet to reap. Waits
    /// for that up to ten seconds: a killed process dies soon, not at once.
    package static func hasEnded(_ id: Int32) -> Bool {
        for _ in 0..<1000 {
            guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8) else { return true }
            if stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return true }
            usleep(10_000)
        }
        return false
    }
}
