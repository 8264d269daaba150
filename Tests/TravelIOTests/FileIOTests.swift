import Foundation
import TestSupport
import Testing
import TravelConfiguration
import TravelCore

@testable import TravelIO

/// The executables' file edges on real files: chunked reads, atomic-free plain writes whose
/// failures are reported, and the configuration loader's drop-in order.
@Suite struct FileIOTests {
    @Test func readsAFileInChunksOfTheAskedSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("log").path
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try InputFile(path: path)
        #expect(try input.size() == bytes.count)
        var chunks: [Int] = []
        var read: [UInt8] = []
        try input.forEachChunk(size: 4096) { chunk in
            chunks.append(chunk.count)
            read.append(contentsOf: chunk)
        }
        #expect(read == bytes)
        #expect(chunks.dropLast().allSatisfy { $0 == 4096 })
    }

    @Test func namesWhatCannotBeRead() {
        #expect(throws: InputError.self) { _ = try InputFile(path: "/nonexistent/log") }
        do {
            _ = try InputFile(path: "/")
            Issue.record("a directory opened as a log")
        } catch {
            #expect("\(error)" == "cannot open /: is a directory")
        }
    }

    @Test func aFullDiskIsAnErrorNotASilentLoss() throws {
        // /dev/full accepts the open and fails every write with ENOSPC.
        let output = try OutputFile(path: "/dev/full")
        try output.write([UInt8](repeating: 65, count: 10))
        #expect(throws: OutputError.self) { try output.close() }
    }

    @Test func dropInsApplyInLexicalOrderAfterTheMainFile() throws {
        let directory = try TemporaryDirectory()
        let main = directory.url.appendingPathComponent("travel-companion.conf")
        try "[Tracking]\nStopRadiusMeters=40\nDepartureRadiusMeters=90\n".write(
            to: main,
            atomically: true,
            encoding: .utf8
        )
        let dropIns = directory.url.appendingPathComponent("travel-companion.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try "[Tracking]\nStopRadiusMeters=60\n".write(
            to: dropIns.appendingPathComponent("20-later.conf"),
            atomically: true,
            encoding: .utf8
        )
        try "[Tracking]\nStopRadiusMeters=30\n".write(
            to: dropIns.appendingPathComponent("10-earlier.conf"),
            atomically: true,
            encoding: .utf8
        )
        try "not a drop-in".write(to: dropIns.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        let loaded = try ConfigurationLoader.load(path: main.path)
        #expect(loaded.configuration.tracking.stopRadius == 60)
        #expect(loaded.configuration.tracking.departureRadius == 90)
        #expect(loaded.dropIns.map { ($0 as NSString).lastPathComponent } == ["10-earlier.conf", "20-later.conf"])
    }
}
