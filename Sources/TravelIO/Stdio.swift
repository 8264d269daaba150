#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `message` and a newline to standard error, unbuffered.
package func printError(_ message: String) {
    var line = message
    line.append("\n")
    _ = line.withUTF8 { writeAll(fd: 2, $0) }
}

/// Writes every byte of `buffer` to `fd`, retrying on short writes and EINTR.
/// Returns `false` when the descriptor is closed or broken (e.g. EPIPE on `| head`).
@discardableResult
package func writeAll(fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard var p = buffer.baseAddress else { return true }
    var left = buffer.count
    while left > 0 {
        let n = write(fd, p, left)
        if n < 0 {
            if errno == EINTR { continue }
            return false
        }
        p += n
        left -= n
    }
    return true
}

/// A byte buffer for standard output, flushed in large writes.
package final class BufferedOutput {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let flushThreshold: Int
    /// Set once a write failed (reader gone); further output is dropped.
    package private(set) var isBroken = false

    package init(fd: Int32 = 1, flushThreshold: Int = 1 << 16) {
        self.fd = fd
        self.flushThreshold = flushThreshold
        buffer.reserveCapacity(flushThreshold + 1024)
    }

    package func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { flush() }
    }

    package func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= flushThreshold { flush() }
    }

    package func flush() {
        if !isBroken, !buffer.isEmpty {
            isBroken = !buffer.withUnsafeBufferPointer { writeAll(fd: fd, $0) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Ends the process with `status`. (`ParsableCommand` has an `exit(withError:)` of its own that
/// shadows the C library's `exit` inside commands.)
package func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
