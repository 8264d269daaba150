/// One client of a `VarlinkServer`, owned by the server's thread alone.
final class VarlinkConnection {
    /// What the connection read, in order: calls, or a framing violation that ends it.
    enum Item {
        case call(VarlinkCall)
        case violation(VarlinkError)
    }

    let fd: Int32
    /// Tells this connection from a later one that reuses its descriptor.
    let serial: UInt64
    let peer: PeerCredentials
    var reader: VarlinkFrameReader
    var queue: [Item] = []
    /// A `.later` call is running; the next calls wait for its reply.
    var busy = false
    /// The running `.later` call is oneway: its client wants the work done, not a reply.
    var onewayRunning = false
    var subscribed = false
    /// The producer of a `.stream` call's replies while more are to come; the call counts as busy.
    var stream: (@Sendable () async -> VarlinkReply)?
    /// A reply of `stream` is being produced.
    var awaitingStreamReply = false
    /// The peer has shut down its side: finish what was asked, then close.
    var inputEnded = false
    /// After a violation: send what is queued, then close.
    var closeWhenFlushed = false
    /// It let more output pile up than the limit: closed without sending the rest.
    var cutOff = false
    var lastActivity: ContinuousClock.Instant
    private(set) var output: [UInt8] = []
    private var outputOffset = 0

    init(fd: Int32, serial: UInt64, peer: PeerCredentials, maximumMessageSize: Int, now: ContinuousClock.Instant) {
        self.fd = fd
        self.serial = serial
        self.peer = peer
        self.reader = VarlinkFrameReader(maximumMessageSize: maximumMessageSize)
        self.lastActivity = now
    }

    /// Whether a oneway call runs or waits: worth finishing even for a client that hung up.
    var hasOnewayWork: Bool {
        onewayRunning
            || queue.contains {
                if case .call(let call) = $0 { call.oneway } else { false }
            }
    }

    /// Bytes not yet written to the socket.
    var pendingOutput: Int { output.count - outputOffset }

    /// Whether nothing is asked, running or unsent.
    var isIdle: Bool { queue.isEmpty && !busy && pendingOutput == 0 }

    /// Queues `frame`; false when the client has let more than `limit` bytes pile up unread.
    func enqueue(_ frame: [UInt8], limit: Int) -> Bool {
        if pendingOutput > 0 && pendingOutput + frame.count > limit { return false }
        // What was written goes once it is no smaller than what is left: a stream or a busy
        // subscriber that never drains completely would otherwise keep every byte it was sent.
        if outputOffset > 0 && outputOffset >= pendingOutput {
            output.removeFirst(outputOffset)
            outputOffset = 0
        }
        output.append(contentsOf: frame)
        return true
    }

    /// Writes what the socket takes now; false when the peer is gone.
    func flush(write: (Int32, UnsafeRawBufferPointer) -> Int) -> Bool {
        while pendingOutput > 0 {
            let written = output[outputOffset...].withUnsafeBytes { write(fd, $0) }
            if written < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            outputOffset += written
        }
        output.removeAll(keepingCapacity: output.capacity <= 65_536)
        outputOffset = 0
        return true
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
