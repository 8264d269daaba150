import Foundation

/// What the test targets that start real servers (gpsd, mosquitto, HTTP) share.
package enum TestProcesses {
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
}
