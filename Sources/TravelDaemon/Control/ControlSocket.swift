#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Logging
internal import TravelControl
internal import TravelConfiguration
/// The control socket's listening descriptor: passed by systemd (socket activation), or bound
/// here at the configured path with mode 0660 and the configured group.
struct ControlSocket: Sendable {
    let fd: Int32
    let path: String
    /// Bound here, so unlinked at the end; a socket systemd passed is never unlinked (systemd
    /// owns it and keeps it across our restarts).
    let ownsPath: Bool

    /// The socket systemd passed (`LISTEN_FDS`/`LISTEN_PID`), or a new one bound at `path`.
    static func open(path: String, group: String, logger: Logger) throws(ControlSocketError) -> ControlSocket {
        if let passed = passedBySystemd() {
            logger.info("control socket passed by systemd (fd \(passed))")
            return ControlSocket(fd: passed, path: path, ownsPath: false)
        }
        try makeParentDirectory(of: path)
        try removeStaleSocket(at: path)
        let fd = UnixSocket.stream()
        guard fd >= 0 else { throw .init(path, "cannot create a socket: \(UnixSocket.lastError())") }
        // Created 0600 so no one else can connect before the group and mode are set.
        let previousMask = umask(0o177)
        let bound = UnixSocket.bind(fd, to: path)
        umask(previousMask)
        guard let bound else {
            Glibc.close(fd)
            throw .init(path, "the path is longer than a socket address holds (\(UnixSocket.maximumPathLength) bytes)")
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = UnixSocket.lastError()
            Glibc.close(fd)
            throw .init(path, reason)
        }
        if let gid = groupID(group) {
            if chown(path, uid_t.max, gid) != 0 {
                logger.warning(
                    "cannot give the control socket to group \(ConfigurationError.echo(group)): \(UnixSocket.lastError())"
                )
            }
        } else if !group.isEmpty {
            logger.warning(
                "group \(ConfigurationError.echo(group)) does not exist: the control socket is open to root only"
            )
        }
        _ = chmod(path, 0o660)
        return ControlSocket(fd: fd, path: path, ownsPath: true)
    }

    /// Closes the descriptor and removes the path if it was bound here.
    func close() {
        _ = Glibc.close(fd)
        if ownsPath { unlink(path) }
    }

    /// The group's id; `nil` when there is no such group.
    static func groupID(_ name: String) -> UInt32? {
        guard !name.isEmpty else { return nil }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The first descriptor systemd passed (`LISTEN_PID` is us, `LISTEN_FDS` ≥ 1, from fd 3),
    /// if it is a listening stream socket; the variables are removed so no child inherits them.
    private static func passedBySystemd() -> Int32? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
            let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1
        else { return nil }
        let fd: Int32 = 3
        var type: Int32 = 0
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            return nil
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting == 1 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    private static func makeParentDirectory(of path: String) throws(ControlSocketError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        var prefix = ""
        for component in path[..<slash].split(separator: "/") {
            prefix += "/\(component)"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .init(path, "cannot create \(prefix): \(UnixSocket.lastError())")
            }
        }
    }

    /// A socket file nobody listens on is left by a daemon that died; one somebody listens on
    /// belongs to a running daemon, and anything that is not a socket is not ours to delete.
    private static func removeStaleSocket(at path: String) throws(ControlSocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw .init(path, "the path exists and is not a socket")
        }
        let probe = UnixSocket.stream()
        defer { Glibc.close(probe) }
        if UnixSocket.connect(probe, to: path) == 0 {
            throw .init(path, "another travel-companiond is listening there")
        }
        unlink(path)
    }
}

/// The control socket could not be set up; the daemon does not start without it.
package struct ControlSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    package var description: String

    init(_ path: String, _ reason: String) {
        description = "control socket \(path): \(reason)"
    }
}
