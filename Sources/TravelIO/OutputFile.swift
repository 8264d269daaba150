internal import TravelFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
/// A file written in large blocks, with errors (full disk, closed pipe) reported, not ignored.
package final class OutputFile {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    /// The name used in error messages.
    package let path: String
    package private(set) var bytesWritten = 0

    /// Creates or truncates `path`.
    package init(path: String) throws(OutputError) {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw .cannotWrite(path: path, reason: systemErrorText()) }
        fd = opened
        self.path = path
        buffer.reserveCapacity(1 << 16)
    }

    package func write(_ bytes: [UInt8]) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    package func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        let ok = buffer.withUnsafeBufferPointer { writeAll(fd: fd, $0) }
        guard ok else { throw .cannotWrite(path: path, reason: systemErrorText()) }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; a failure here (e.g. a full disk discovered late) is an error too.
    package func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        try flush()
        #if canImport(Glibc)
        let result = Glibc.close(fd)
        #elseif canImport(Musl)
        let result = Musl.close(fd)
        #else
        let result = Darwin.close(fd)
        #endif
        guard result == 0 else { throw .cannotWrite(path: path, reason: systemErrorText()) }
    }

    deinit {
        if !closed { try? close() }
    }
}

/// Why output could not be written.
package enum OutputError: Error, Sendable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
