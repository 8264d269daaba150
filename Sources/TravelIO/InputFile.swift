internal import TravelFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
/// A file or standard input read in chunks with POSIX `read`.
package struct InputFile: ~Copyable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// The name used in error messages (`-` is standard input).
    package let name: String

    /// Opens `path`, or standard input for `-`.
    package init(path: String) throws(InputError) {
        name = path
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .cannotOpen(path: path, reason: systemErrorText()) }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw .cannotOpen(path: path, reason: "is a directory")
            }
            fd = opened
            ownsDescriptor = true
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Calls `body` with each chunk read until end of file.
    package func forEachChunk(
        size: Int = 1 << 16,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { storage.deallocate() }
        while true {
            let n = read(fd, storage.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.readFailed(path: name, reason: systemErrorText())
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: storage[0..<n]))
        }
    }

    /// The file's size in bytes (0 for a pipe or terminal).
    package func size() throws(InputError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .readFailed(path: name, reason: systemErrorText()) }
        return (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
    }

    /// Reads the whole input into memory.
    package func readAll() throws -> [UInt8] {
        var all: [UInt8] = []
        try forEachChunk { all.append(contentsOf: $0) }
        return all
    }
}

/// Why an input could not be read.
package enum InputError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
