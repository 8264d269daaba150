/// Splits a Varlink byte stream into messages: each is a JSON object followed by a NUL byte.
///
/// Bytes are appended as they arrive; complete frames come out in order. A frame longer than
/// `maximumMessageSize` is an error, so a client that never sends a NUL cannot grow our memory.
package struct VarlinkFrameReader: Sendable {
    package let maximumMessageSize: Int
    private var pending: [UInt8] = []

    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Appends received bytes and returns every message they completed.
    package mutating func append(_ bytes: some Sequence<UInt8>) throws(VarlinkFramingError) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for byte in bytes {
            if byte == 0 {
                frames.append(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                guard pending.count < maximumMessageSize else {
                    throw .messageTooLarge(limit: maximumMessageSize)
                }
                pending.append(byte)
            }
        }
        return frames
    }
}

/// A framing violation by the peer; the connection is closed after it.
package enum VarlinkFramingError: Error, Sendable, Equatable, CustomStringConvertible {
    case messageTooLarge(limit: Int)

    package var description: String {
        switch self {
        case .messageTooLarge(let limit): "message exceeds the \(limit)-byte limit without a NUL terminator"
        }
    }
}
