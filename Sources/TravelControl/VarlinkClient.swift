#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import TravelFormats

/// A blocking Varlink client over a Unix socket: what `travelctl` and the tests talk through.
package final class VarlinkClient {
    private let fd: Int32
    private var reader = VarlinkFrameReader(maximumMessageSize: VarlinkClient.maximumReplySize)
    private var frames: [[UInt8]] = []

    /// Replies carry whole trip lists; this only stops a broken server from filling memory.
    package static let maximumReplySize = 256 << 20

    /// Connects to the socket at `path`.
    package init(path: String) throws(VarlinkClientError) {
        let fd = UnixSocket.stream()
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: UnixSocket.lastError(), errno: errno) }
        let status = UnixSocket.connect(fd, to: path)
        guard let status else {
            close(fd)
            throw .cannotConnect(path: path, reason: "path too long for a socket", errno: ENAMETOOLONG)
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw .cannotConnect(path: path, reason: String(cString: strerror(code)), errno: code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Calls `method` and returns its one reply's parameters; an error reply is thrown.
    package func call(_ method: String, _ parameters: JSONValue = [:]) throws(VarlinkClientError) -> JSONValue {
        try send(VarlinkCall(method: method, parameters: parameters))
        let reply = try nextReply()
        if let error = reply.varlinkError { throw .reply(error) }
        return reply.parameters
    }

    /// Sends a call without waiting for its reply (for pipelining, `oneway` and `more`). When the
    /// server has already closed the connection, the error it sent before closing (a refusal
    /// such as `TooManyConnections`) is thrown rather than the broken pipe it left.
    package func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        do {
            try write(call.frame)
        } catch {
            if let refusal = pendingErrorReply() { throw .reply(refusal) }
            throw error
        }
    }

    /// An error reply the server sent before closing, if one is waiting unread.
    private func pendingErrorReply() -> VarlinkError? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard count > 0, let frame = try? reader.append(buffer[..<count]).first,
            let reply = try? VarlinkReply(frame: frame)
        else { return nil }
        return reply.varlinkError
    }

    /// Writes raw bytes: the tests' hostile clients.
    package func write(_ bytes: [UInt8]) throws(VarlinkClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { sendWithoutSignal(fd, $0) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(UnixSocket.lastError())
            }
            offset += written
        }
    }

    /// The next reply, waiting for it; throws `.connectionLost` when the server closes first.
    package func nextReply() throws(VarlinkClientError) -> VarlinkReply {
        while frames.isEmpty {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK, let replyTimeout { throw .noAnswer(seconds: replyTimeout) }
                throw .connectionLost(UnixSocket.lastError())
            }
            if count == 0 { throw .connectionLost("the daemon closed the connection") }
            do {
                frames += try reader.append(buffer[..<count])
            } catch {
                throw .connectionLost("\(error)")
            }
        }
        do {
            return try VarlinkReply(frame: frames.removeFirst())
        } catch {
            throw .reply(error)
        }
    }

    /// Whether the server has closed the connection, waiting for it; replies still pending are read and dropped.
    package func waitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 && errno != EINTR { return errno == ECONNRESET }
        }
    }

    /// How long `nextReply` waits for the server before it throws `.noAnswer`; `nil` waits forever.
    package private(set) var replyTimeout: Int?

    /// Makes a reply that takes longer than `seconds` (`nil`: no limit) fail with `.noAnswer`
    /// instead of hanging: a daemon that accepted (or whose socket unit queued) the connection
    /// but never answers, such as one failing at every start under socket activation.
    package func setReceiveTimeout(seconds: Int?) {
        replyTimeout = seconds
        var limit = timeval(tv_sec: seconds ?? 0, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The descriptor, for tests that need to poll it.
    package var descriptor: Int32 { fd }
}

/// What can go wrong talking to the daemon.
package enum VarlinkClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection: `errno` tells a missing daemon (`ENOENT`, `ECONNREFUSED`) from a refusal (`EACCES`).
    case cannotConnect(path: String, reason: String, errno: Int32)
    case connectionLost(String)
    /// No reply within the client's reply timeout.
    case noAnswer(seconds: Int)
    /// The daemon answered with an error.
    case reply(VarlinkError)

    package var description: String {
        switch self {
        case .cannotConnect(let path, let reason, _): "cannot connect to \(path): \(reason)"
        case .connectionLost(let reason): "connection to the daemon lost: \(reason)"
        case .noAnswer(let seconds): "the daemon did not answer within \(seconds) s"
        case .reply(let error): "\(error)"
        }
    }

    /// The socket is absent or nobody listens on it: the daemon is not running.
    package var meansDaemonNotRunning: Bool {
        if case .cannotConnect(_, _, let code) = self { code == ENOENT || code == ECONNREFUSED } else { false }
    }
}
