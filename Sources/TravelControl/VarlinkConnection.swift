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
    /// What it is doing: the rules of its calls, idleness and limits.
    var state: VarlinkConnectionState
    /// Where its calls' work goes, once it has had any: a task of `VarlinkServer.run()` runs each
    /// as a child, and cancels what still runs when this is finished (the connection closed).
    var calls: VarlinkServer.Calls.Continuation?
    private(set) var output: [UInt8] = []
    private var outputOffset = 0

    init(fd: Int32, serial: UInt64, peer: PeerCredentials, maximumMessageSize: Int, now: ContinuousClock.Instant) {
        self.fd = fd
        self.serial = serial
        self.peer = peer
        self.reader = VarlinkFrameReader(maximumMessageSize: maximumMessageSize)
        self.state = VarlinkConnectionState(openedAt: now)
    }

    /// Whether a oneway call waits: worth running even for a client that hung up.
    var hasOnewayQueued: Bool {
        queue.contains {
            if case .call(let call) = $0 { call.oneway } else { false }
        }
    }

    /// Bytes not yet written to the socket.
    var pendingOutput: Int { output.count - outputOffset }

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
