#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
internal import TravelFormats
internal import TravelDecoding
internal import TravelConfiguration
/// `gpsd://HOST:PORT`: fixes from a running gpsd, over its JSON protocol. gpsd comes and goes
/// (restarts, upgrades, a socket-activated gpsd stopping when idle), so an outage is an event, not
/// an error: the source reconnects with a capped backoff for as long as the daemon runs.
package struct GPSDSource: FixProvider {
    package let host: String
    package let port: Int
    /// The longest pause between attempts (`[Source] ReconnectMaxSec`).
    package let reconnectMaximum: Duration
    /// How long a connection may go without a fix-bearing TPV before the fix counts as lost. gpsd
    /// says nothing when its receiver is unplugged or loses the sky; receivers report at least
    /// once a second, so five seconds is an outage and not jitter.
    package let fixTimeout: Duration
    /// How long gpsd must be quiet after a TPV before its epoch is complete: gpsd sends one TPV
    /// per epoch once it knows the receiver's cycle, several within milliseconds before that.
    package let quietGap: Duration
    /// How long one connection attempt may take: a host that drops packets would otherwise hold
    /// the source for the kernel's two minutes.
    package let connectTimeout: Duration
    private let logger: Logger

    package init(
        host: String,
        port: Int,
        reconnectMaximum: Duration,
        fixTimeout: Duration = .seconds(5),
        quietGap: Duration = .milliseconds(50),
        connectTimeout: Duration = .seconds(5),
        logger: Logger
    ) {
        self.host = host
        self.port = port
        self.reconnectMaximum = reconnectMaximum
        self.fixTimeout = fixTimeout
        self.quietGap = quietGap
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    /// The request for every report as JSON; gpsd answers with DEVICES and WATCH, then TPV/SKY.
    static let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8)

    private var url: String { SourceURL.gpsd(host: host, port: port).description }

    package func run(deliver: (SourceEvent) async -> Void) async throws {
        let poll = try InterruptiblePoll()
        var backoff = Backoff(maximum: reconnectMaximum)
        // The last failure logged, so a gpsd that stays away is one line, not one per attempt.
        var reported: String?
        while true {
            do {
                let socket = try await makeConnection(poll)
                defer { close(socket) }
                let reason = try await session(on: socket, poll: poll, backoff: &backoff, deliver: deliver)
                await deliver(.disconnected(reason: "\(url): \(reason)"))
                reported = nil
            } catch let error as SourceIOError {
                if error.description != reported {
                    logger.warning(
                        "cannot use gpsd at \(url): \(error); retrying, at most every \(reconnectMaximum.logText)"
                    )
                    reported = error.description
                }
            }
            let pause = backoff.next()
            logger.debug("next attempt to reach gpsd in \(pause.logText)")
            try await Task.sleep(for: pause)
        }
    }

    /// Reads one connection until gpsd goes away, and says why it went. Throws `SourceIOError` when
    /// the peer never became a usable gpsd (no VERSION, a protocol this daemon does not speak).
    private func session(
        on socket: Int32,
        poll: InterruptiblePoll,
        backoff: inout Backoff,
        deliver: (SourceEvent) async -> Void
    ) async throws -> String {
        let sent = Self.watch.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == Self.watch.count else { throw SourceIOError("cannot send ?WATCH: \(systemErrorText())") }
        var reader = LiveReader(GPSDDecoder(), quietGap: quietGap, fixTimeout: fixTimeout, bufferSize: 1 << 14)
        var isConnected = false
        var lastError: String?
        let reason = try await reader.run(
            socket,
            poll: poll,
            inspect: { decoder in
                if !isConnected {
                    // gpsd greets every client with VERSION before anything else.
                    guard let version = decoder.version else { return }
                    guard version.isSupported else {
                        throw SourceIOError("\(version) is not supported, only protocols 3.14 to 16.x")
                    }
                    isConnected = true
                    backoff.reset()
                    await deliver(.connected(description: "\(version) at \(url)"))
                }
                if let error = decoder.lastError, error != lastError {
                    logger.warning("gpsd at \(url) reports an error: \(error)")
                    lastError = error
                }
            },
            deliver: deliver
        )
        guard isConnected else { throw SourceIOError(reason) }
        return reason == "end of input" ? "gpsd closed the connection" : reason
    }

    /// A connected, non-blocking TCP socket to gpsd: every address of `host` in turn.
    private func makeConnection(_ poll: InterruptiblePoll) async throws -> Int32 {
        let addresses = try await Self.resolve(host: host, port: port, poll: poll)
        var failure = SourceIOError("\(host) has no address")
        for address in addresses {
            let fd = socket(address.family, address.type | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                failure = SourceIOError("cannot create a socket: \(systemErrorText())")
                continue
            }
            var connected = false
            defer { if !connected { close(fd) } }
            let result = address.bytes.withUnsafeBytes {
                connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
            if result != 0 {
                guard errno == EINPROGRESS else {
                    failure = SourceIOError(systemErrorText())
                    continue
                }
                guard try await poll.wait(for: fd, events: Int16(POLLOUT), timeout: connectTimeout) != 0 else {
                    failure = SourceIOError("no answer within \(connectTimeout.logText)")
                    continue
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else {
                    failure = SourceIOError(systemErrorText(error))
                    continue
                }
            }
            connected = true
            return fd
        }
        throw failure
    }

    private struct Address: Sendable {
        var family: Int32
        var type: Int32
        var bytes: [UInt8]
    }

    /// The addresses of `host` (a name, an IPv4 or an IPv6 literal), looked up off the cooperative
    /// pool since a name may need DNS.
    private static func resolve(
        host: String,
        port: Int,
        poll: InterruptiblePoll
    ) async throws(SourceIOError)
        -> [Address]
    {
        let result: Result<[Address], SourceIOError> = await poll.perform {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0 else { return .failure(SourceIOError(String(cString: gai_strerror(status)))) }
            defer { freeaddrinfo(list) }
            var addresses: [Address] = []
            var entry = list
            while let info = entry?.pointee {
                entry = info.ai_next
                guard let address = info.ai_addr else { continue }
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
                addresses.append(Address(family: info.ai_family, type: info.ai_socktype, bytes: bytes))
            }
            return .success(addresses)
        }
        return try result.get()
    }
}
