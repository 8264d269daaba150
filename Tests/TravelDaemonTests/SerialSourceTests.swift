import Foundation
import Logging
import TestSupport
import Testing
import TravelCore
import TravelDecoding

@testable import TravelDaemon

/// `SerialSource` in process on a real pty pair made by socat: the test writes into one end what
/// a receiver would send, the source reads the other.
@Suite struct SerialSourceTests {
    static let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd-nmea/quectel.log").path

    /// Runs `source` in a task of its own; its events arrive on the stream, which ends with the task.
    static func start(_ source: SerialSource) -> (Task<Void, any Error>, AsyncStream<SourceEvent>.Iterator) {
        let (stream, continuation) = AsyncStream.makeStream(of: SourceEvent.self)
        let task = Task {
            defer { continuation.finish() }
            try await source.run { continuation.yield($0) }
        }
        Task {
            try await Task.sleep(for: GPSDSourceTests.hangLimit)
            task.cancel()
        }
        return (task, stream.makeAsyncIterator())
    }

    static func source(_ pty: PTYReceiver) -> SerialSource {
        SerialSource(
            path: pty.device,
            baud: 4800,
            reconnectMaximum: .seconds(1),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    /// The log's epochs with a position, as our NMEA decoder reads the file.
    static func expectedPositions() throws -> [String] {
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
        bytes.withUnsafeBytes { decoder.decode($0) { fixes.append($0) } }
        decoder.finish { fixes.append($0) }
        return GPSDSourceTests.positions(fixes)
    }

    @Test func junkOnTheLineCostsNothingButTheJunk() async throws {
        let pty = try PTYReceiver()
        let (task, iterator) = Self.start(Self.source(pty))
        var events = iterator
        guard case .connected(let description) = await events.next() else {
            Issue.record("no connection")
            return
        }
        #expect(description == "serial://\(pty.device)?baud=4800")
        let junk = "\u{00}\u{FF}garbage$GPGGA,12345*ZZ\r\n$GPRMC,trunc"
        let lines = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n")
        pty.write(junk + lines.map { "\($0)\r\n\(junk)" }.joined() + "\r\n")
        // The last epoch is complete when the next one starts; it has none.
        let expected = try Self.expectedPositions().dropLast()
        var fixes: [Fix] = []
        while GPSDSourceTests.positions(fixes).count < expected.count, let event = await events.next() {
            if case .fix(let fix) = event { fixes.append(fix) }
        }
        task.cancel()
        #expect(GPSDSourceTests.positions(fixes) == Array(expected))
    }

    @Test func reopensWhenTheDeviceGoesAndComesBack() async throws {
        let pty = try PTYReceiver()
        let (task, iterator) = Self.start(Self.source(pty))
        var events = iterator
        var kinds: [String] = []
        let lines = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n")
        let sentences = lines.map { "\($0)\r\n" }.joined()
        while kinds.count < 5, let event = await events.next() {
            switch event {
            case .connected:
                kinds.append("connected")
                pty.write(sentences)
            case .disconnected:
                kinds.append("disconnected")
                try pty.plugIn()
            case .fix(let fix) where fix.hasPosition:
                guard kinds.last != "fix" else { break }
                kinds.append("fix")
                // The receiver is unplugged once it has been heard.
                if kinds.count == 2 { pty.unplug() }
            case .fix, .fixTimedOut: break
            }
        }
        task.cancel()
        #expect(kinds == ["connected", "fix", "disconnected", "connected", "fix"])
    }
}
