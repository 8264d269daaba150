#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX socket calls the Varlink client and server share.
package enum UnixSocket {
    /// The longest path a `sockaddr_un` holds, without its terminating NUL.
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with `path` as a socket address; `nil` when the path does not fit.
    static func withAddress<Result>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result? {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.isEmpty else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `bind(2)` to `path`; `nil` when the path is too long for a socket address.
    package static func bind(_ fd: Int32, to path: String) -> Int32? {
        withAddress(path) { Glibc.bind(fd, $0, $1) }
    }

    /// `connect(2)` to `path`; `nil` when the path is too long for a socket address.
    package static func connect(_ fd: Int32, to path: String) -> Int32? {
        withAddress(path) { Glibc.connect(fd, $0, $1) }
    }

    /// A stream socket bound to `path` and listening; `nil` with `errno` set when that fails.
    package static func listening(at path: String, backlog: Int32 = 128) -> Int32? {
        let fd = stream()
        guard fd >= 0 else { return nil }
        guard bind(fd, to: path) == 0, listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            errno = code
            return nil
        }
        return fd
    }

    /// A new stream socket, close-on-exec.
    package static func stream() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on `fd`.
    package static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// `strerror(errno)`.
    package static func lastError() -> String { String(cString: strerror(errno)) }
}
