import Foundation
import InMemoryLogging
import Logging
import TestSupport
import Testing
import TravelConfiguration
import TravelCore
import TravelStore

@testable import TravelDaemon

/// The pipeline in process, on a real SQLite file, fed by the real replay source.
@Suite struct TrackingPipelineTests {
    static let bus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tracks/limerick-bus-304-2019-02-18.gpx").path

    /// A directory for one test's database, removed afterwards.
    static func pipeline(
        in scratch: TemporaryDirectory
    ) throws -> (TrackingPipeline, InMemoryLogHandler, TravelConfiguration) {
        var configuration = TravelConfiguration()
        configuration.storage.database = scratch.path + "/travel.sqlite"
        let handler = InMemoryLogHandler()
        let pipeline = try TrackingPipeline(
            configuration: configuration,
            logger: Logger(label: "test") { _ in handler }
        )
        return (pipeline, handler, configuration)
    }

    static func messages(_ handler: InMemoryLogHandler) -> [String] { handler.entries.map(\.message.description) }

    @Test func aReplayedDriveIsLoggedAndStored() async throws {
        let scratch = try TemporaryDirectory()
        let (pipeline, handler, configuration) = try Self.pipeline(in: scratch)
        try await ReplaySource(path: Self.bus, speed: 0).run { await pipeline.handle($0) }
        await pipeline.endOfInput()
        try await pipeline.flush()

        let messages = Self.messages(handler)
        #expect(messages.first == "source connected: file://\(Self.bus)")
        #expect(messages.contains("fix acquired at 2019-02-18 07:45"))
        #expect(messages.contains("trip started at 2019-02-18 07:50 from 52.62928, -8.66150"))
        #expect(
            messages.contains(
                "trip ended at 2019-02-18 09:00 at 52.67269, -8.57132: 13.9 km in 1 h 10 min (end-of-input)"
            )
        )
        let trips = try TravelDatabase(path: configuration.storage.database, readOnly: true).trips()
        #expect(trips.map(\.summary.startTime.iso8601) == ["2019-02-18T07:50:08.000Z"])
        #expect(trips.first?.summary.endReason == .endOfInput)
    }

    @Test func aLostSourceLosesTheFixAndAReconnectionIsLogged() async throws {
        let scratch = try TemporaryDirectory()
        let (pipeline, handler, _) = try Self.pipeline(in: scratch)
        let fix = Fix(time: UTCTime(year: 2026, month: 5, day: 1), mode: .threeD, latitude: 52.6, longitude: -8.6)
        await pipeline.handle(.connected(description: "gpsd://127.0.0.1:2947"))
        await pipeline.handle(.fix(fix))
        await pipeline.handle(.disconnected(reason: "connection closed"))
        await pipeline.handle(.connected(description: "gpsd://127.0.0.1:2947"))
        #expect(
            Self.messages(handler) == [
                "source connected: gpsd://127.0.0.1:2947", "fix acquired at 2026-05-01 00:00",
                "source disconnected: connection closed", "fix lost", "source connected: gpsd://127.0.0.1:2947",
            ]
        )
    }

    @Test(arguments: [(0.0, "0 m"), (849.6, "850 m"), (13_939, "13.9 km"), (1000, "1.0 km")])
    func distancesReadAsPeopleSayThem(metres: Double, text: String) {
        #expect(HumanText.distance(metres) == text)
    }

    /// One format for logs, tables and exports (the tables' own).
    @Test(arguments: [
        (45.0, "45 s"), (200, "3 min"), (180, "3 min"), (4211, "1 h 10 min"), (3900, "1 h 05 min"), (0, "0 s"),
    ])
    func durationsReadAsPeopleSayThem(seconds: Double, text: String) {
        #expect(HumanText.duration(seconds) == text)
    }
}
