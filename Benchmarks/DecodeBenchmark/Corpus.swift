#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TravelIO
import TravelFormats

/// A benchmark failure worth one line on standard error.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// `message` followed by the text of the current `errno`.
    static func system(_ message: String) -> BenchmarkError {
        BenchmarkError("\(message): \(systemErrorText())")
    }
}

/// One copy of the receiver bytes a benchmark input is made of; `write` repeats it.
struct Corpus {
    /// Bytes of one copy; every line, the last included, ends in a line feed.
    let bytes: [UInt8]
    /// What the copy is made of, for the report.
    let summary: String

    /// `Tests/Fixtures` of the source tree this file was compiled from.
    static let defaultFixturesDirectory: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Benchmarks/DecodeBenchmark/Corpus.swift
        return (components + ["Tests", "Fixtures"]).joined(separator: "/")
    }()

    /// Every `gpsd-nmea/*.log` in name order, without its `#` comment lines, so a peer decoder
    /// sees only what receivers sent.
    static func nmea(fixtures: String) throws -> Corpus {
        let paths = try sortedPaths(matching: "\(fixtures)/gpsd-nmea/*.log")
        var bytes: [UInt8] = []
        for path in paths {
            bytes += withoutCommentLines(try InputFile(path: path).readAll())
        }
        return Corpus(bytes: bytes, summary: "\(paths.count) gpsd-nmea logs without '#' lines")
    }

    /// The gpsd 3.22 JSON sample (`gpspipe -w` output).
    static func gpsdJSON(fixtures: String) throws -> Corpus {
        let path = "\(fixtures)/gpsd-json/sample-from-gpsd-3.22.jsonl"
        var bytes = try InputFile(path: path).readAll()
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return Corpus(bytes: bytes, summary: "sample-from-gpsd-3.22.jsonl")
    }

    /// Writes as many whole copies as it takes to reach `byteCount` bytes (at least one).
    func write(to path: String, atLeast byteCount: Int) throws {
        guard !bytes.isEmpty else { throw BenchmarkError("the corpus is empty") }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchmarkError.system("cannot create \(path)") }
        let copies = max(1, (byteCount + bytes.count - 1) / bytes.count)
        for _ in 0..<copies {
            guard bytes.withUnsafeBufferPointer({ writeAll(fd: fd, $0) }) else {
                let error = BenchmarkError.system("cannot write \(path)")
                close(fd)
                throw error
            }
        }
        guard close(fd) == 0 else { throw BenchmarkError.system("cannot write \(path)") }
        print("wrote \(path): \(copies * bytes.count) bytes, \(copies) copies of \(summary) (\(bytes.count) bytes)")
    }

    /// The paths matching a shell pattern, sorted bytewise (glob sorts; this program keeps the C locale).
    private static func sortedPaths(matching pattern: String) throws -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { throw BenchmarkError("no file matches \(pattern)") }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// `bytes` without the lines that start with `#`, ending in a line feed.
    private static func withoutCommentLines(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count + 1)
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            if bytes[lineStart] != UInt8(ascii: "#") { kept += bytes[lineStart..<lineEnd] }
            lineStart = lineEnd
        }
        if let last = kept.last, last != UInt8(ascii: "\n") { kept.append(UInt8(ascii: "\n")) }
        return kept
    }
}
