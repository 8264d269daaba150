import Foundation
import Logging
import TestSupport
import Testing
import TravelCore
import TravelDecoding

@testable import TravelDaemon

/// `GPSDSource` in process against a real gpsd reading a socat pty, each test on a fresh port.
@Suite struct GPSDSourceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd-nmea")
    /// A Quectel module's log of 2020: gpsd 3.22 dates it right (its week-rollover guess shifts
    /// logs before 2017), so what it sends matches the `.chk` written in regression mode.
    static let log = fixtures.appendingPathComponent("quectel.log").path

    /// A test waiting longer than this for an event has found a hang: the source is cancelled so
    /// its stream ends. Not a timing assertion.
    static let hangLimit = Duration.seconds(120)

    /// Runs `source` in a task of its own; its events arrive on the stream, which ends with the task.
    static func start(_ source: GPSDSource) -> (Task<Void, any Error>, AsyncStream<SourceEvent>.Iterator) {
        let (stream, continuation) = AsyncStream.makeStream(of: SourceEvent.self)
        let task = Task {
            defer { continuation.finish() }
            try await source.run { continuation.yield($0) }
        }
        Task {
            try await Task.sleep(for: hangLimit)
            task.cancel()
        }
        return (task, stream.makeAsyncIterator())
    }

    static func source(port: Int, fixTimeout: Duration = .seconds(5)) -> GPSDSource {
        GPSDSource(
            host: "127.0.0.1",
            port: port,
            reconnectMaximum: .seconds(1),
            fixTimeout: fixTimeout,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    /// `time lat lon` of the epochs with a position, to micro-degrees.
    static func positions(_ fixes: [Fix]) -> [String] {
        fixes.filter(\.hasPosition).map { fix in
            let microdegrees = [fix.latitude!, fix.longitude!].map { String(Int(($0 * 1e6).rounded())) }
            return "\(fix.time.map { "\($0)" } ?? "-") \(microdegrees.joined(separator: " "))"
        }
    }

    /// The log as a receiver sends it, CRLF.
    static func sentences() throws -> String {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { "\($0)\r\n" }.joined()
    }

    @Test func deliversTheVersionEveryEpochTheSilenceAndTheEnd() async throws {
        let pty = try PTYReceiver()
        let gpsd = try GPSD(reading: pty.device)
        defer { gpsd.kill() }
        let (task, iterator) = Self.start(Self.source(port: gpsd.port, fixTimeout: .seconds(1)))
        var events = iterator
        var received: [SourceEvent] = []
        while let event = await events.next() {
            received.append(event)
            switch event {
            // The receiver talks once gpsd has a client, so no epoch goes unheard.
            case .connected: pty.write(try Self.sentences())
            // The log is over: gpsd goes.
            case .fixTimedOut: gpsd.kill()
            case .fix: break
            case .disconnected: task.cancel()
            }
        }

        guard case .connected(let description) = received.first else {
            Issue.record("first event: \(String(describing: received.first))")
            return
        }
        #expect(
            description.contains(/^gpsd \d+\.\d+.* \(protocol 3\.\d+\) at gpsd:\/\/127\.0\.0\.1:\d+$/),
            "\(description)"
        )
        #expect(received.last == .disconnected(reason: "gpsd://127.0.0.1:\(gpsd.port): gpsd closed the connection"))
        // The log's last epoch comes after the silence: an epoch is complete when the next one
        // starts, or when the stream ends.
        let positioned = received.indices.filter {
            if case .fix(let fix) = received[$0] { fix.hasPosition } else { false }
        }
        let silence = try #require(received.firstIndex(of: .fixTimedOut(after: .seconds(1))))
        #expect(silence > positioned.dropLast().last ?? received.endIndex)

        // Every epoch gpsd decoded from the log, as in the `.chk` it wrote in regression mode.
        let fixes = received.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
        let expected = Self.positions(
            GPSDDecoder.decodeAll(try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.log + ".chk"))))
        )
        #expect(expected.count > 10)
        #expect(Self.positions(fixes) == expected)
    }

    @Test func reconnectsWhenGpsdComesBackOnTheSamePort() async throws {
        let pty = try PTYReceiver()
        var gpsd = try GPSD(reading: pty.device)
        defer { gpsd.kill() }
        let (task, iterator) = Self.start(Self.source(port: gpsd.port))
        var events = iterator
        var kinds: [String] = []
        while kinds.count < 5, let event = await events.next() {
            switch event {
            case .connected:
                kinds.append("connected")
                pty.write(try Self.sentences())
            case .disconnected:
                kinds.append("disconnected")
                gpsd = try GPSD(reading: pty.device, port: gpsd.port)
            case .fix(let fix) where fix.hasPosition:
                guard kinds.last != "fix" else { break }
                kinds.append("fix")
                if kinds.count == 2 { gpsd.kill() }
            case .fix, .fixTimedOut: break
            }
        }
        task.cancel()
        #expect(kinds == ["connected", "fix", "disconnected", "connected", "fix"])
        #expect(await task.result.isCancellation)
    }

    @Test func cancellationEndsAWaitOnASilentGpsd() async throws {
        let gpsd = try GPSD(reading: nil)
        defer { gpsd.kill() }
        // No device and no fix timeout: only the cancellation can end the wait for data.
        let (task, iterator) = Self.start(Self.source(port: gpsd.port, fixTimeout: .seconds(3600)))
        var events = iterator
        let first = await events.next()
        task.cancel()
        guard case .connected = first else {
            Issue.record("first event: \(String(describing: first))")
            return
        }
        #expect(await task.result.isCancellation)
    }

    @Test func aTimeoutLosesTheFixOnceInThePipelineLog() async throws {
        let scratch = try TemporaryDirectory()
        let (pipeline, handler, _) = try TrackingPipelineTests.pipeline(in: scratch)
        let fix = Fix(time: UTCTime(year: 2026, month: 5, day: 1), mode: .threeD, latitude: 52.6, longitude: -8.6)
        await pipeline.handle(.fix(fix))
        await pipeline.handle(.fixTimedOut(after: .seconds(5)))
        await pipeline.handle(.fixTimedOut(after: .seconds(5)))
        #expect(
            TrackingPipelineTests.messages(handler) == [
                "fix acquired at 2026-05-01 00:00", "fix lost (no position for 5 s)",
            ]
        )
    }

    @Test func backoffDoublesUpToItsMaximumAndStartsOverAfterAConnection() {
        var backoff = Backoff(first: .milliseconds(250), maximum: .seconds(3))
        let pauses = (0..<6).map { _ in backoff.next() }
        #expect(pauses == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(250))
    }

    @Test func aSourceOnThisMachineIsTriedAtLeastTwiceASecond() {
        #expect(Backoff.maximum(configured: .seconds(30), sourceIsLocal: true) == .milliseconds(500))
        #expect(Backoff.maximum(configured: .seconds(30), sourceIsLocal: false) == .seconds(30))
        #expect(Backoff.maximum(configured: .milliseconds(200), sourceIsLocal: true) == .milliseconds(200))
        var backoff = Backoff(maximum: Backoff.maximum(configured: .seconds(30), sourceIsLocal: true))
        let pauses = (0..<5).map { _ in backoff.next() }
        #expect(
            pauses == [
                .milliseconds(250), .milliseconds(500), .milliseconds(500), .milliseconds(500), .milliseconds(500),
            ]
        )
    }
}

extension Result where Failure == any Error {
    var isCancellation: Bool {
        if case .failure(let error) = self { error is CancellationError } else { false }
    }
}
