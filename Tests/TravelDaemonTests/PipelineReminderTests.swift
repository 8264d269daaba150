import Foundation
import InMemoryLogging
import Logging
import TestSupport
import Testing
import TravelConfiguration
import TravelCore
import TravelStore

@testable import TravelDaemon

/// Reminders through the pipeline, on a real database: delivered as events, recorded, and not
/// repeated by a restarted pipeline.
@Suite struct PipelineReminderTests {
    static let rules = ReminderRules(noTripDays: 7, planReminders: true, secondOfDay: 9 * 3600, timeZone: .utc)

    static func pipeline(_ scratch: TemporaryDirectory) throws -> (TrackingPipeline, InMemoryLogHandler) {
        var configuration = TravelConfiguration()
        configuration.storage.database = scratch.path + "/travel.sqlite"
        let handler = InMemoryLogHandler()
        let pipeline = try TrackingPipeline(
            configuration: configuration,
            isLive: false,
            logger: Logger(label: "test") { _ in handler }
        )
        return (pipeline, handler)
    }

    /// The reminder events logged: message and `message_id`.
    static func reminders(_ handler: InMemoryLogHandler) -> [(message: String, id: String)] {
        handler.entries.compactMap { entry in
            guard let id = entry.metadata["message_id"].map({ "\($0)" }),
                id == EventKind.noTripReminder.messageID || id == EventKind.planReminder.messageID
            else { return nil }
            return (entry.message.description, id)
        }
    }

    @Test func dueRemindersAreLoggedAsEventsOnceAcrossARestart() async throws {
        let scratch = try TemporaryDirectory()
        do {
            let (pipeline, handler) = try Self.pipeline(scratch)
            try await ReplaySource(path: TrackingPipelineTests.bus, speed: 0).run { await pipeline.handle($0) }
            await pipeline.endOfInput()
            try await pipeline.flush()
            let database = try TravelDatabase(path: scratch.path + "/travel.sqlite")
            _ = try database.addPlan(
                destination: "Trieste",
                from: LocalDate(parsing: "2019-02-27")!,
                through: LocalDate(parsing: "2019-03-02")!,
                type: .multiDay
            )
            // The trip ended 2019-02-18T09:00:19Z: seven days are up 02-25 09:00:19, after 09:00.
            await pipeline.deliverReminders(at: UTCTime(iso8601: "2019-02-26T08:59:00Z")!, Self.rules)
            #expect(Self.reminders(handler).isEmpty)
            await pipeline.deliverReminders(at: UTCTime(iso8601: "2019-02-26T09:00:00Z")!, Self.rules)
            await pipeline.deliverReminders(at: UTCTime(iso8601: "2019-02-26T09:00:30Z")!, Self.rules)
            let delivered = Self.reminders(handler)
            #expect(
                delivered.map(\.message).sorted() == [
                    "no trip logged since 2019-02-18T09:00:19.000Z, 7 days or more",
                    "planned journey 1 to Trieste starts tomorrow, 2019-02-27",
                ]
            )
            #expect(Set(delivered.map(\.id)) == [EventKind.noTripReminder.messageID, EventKind.planReminder.messageID])
        }
        // A restarted daemon on the same database: nothing again.
        let (restarted, handler) = try Self.pipeline(scratch)
        await restarted.deliverReminders(at: UTCTime(iso8601: "2019-02-26T09:05:00Z")!, Self.rules)
        #expect(Self.reminders(handler).isEmpty)
    }

    /// One day is "1 day or more", not "1 days or more" (issue 26).
    @Test func oneDayIsSingular() throws {
        let end = try #require(UTCTime(iso8601: "2019-02-18T09:00:19Z"))
        #expect(
            TrackingPipeline.text(of: .noTrip(lastTripEnd: end, days: 1))
                == "no trip logged since 2019-02-18T09:00:19.000Z, 1 day or more"
        )
        #expect(TrackingPipeline.text(of: .noTrip(lastTripEnd: end, days: 2)).hasSuffix(", 2 days or more"))
    }

    @Test func beforeTheFirstLiveFixNothingIsDueWhateverTheSystemClockSays() async throws {
        let scratch = try TemporaryDirectory()
        let (pipeline, handler) = try Self.pipeline(scratch)
        try await ReplaySource(path: TrackingPipelineTests.bus, speed: 0).run { await pipeline.handle($0) }
        await pipeline.endOfInput()
        try await pipeline.flush()
        // The system clock is years past the trip, but a replay never sets GPS time carried forward.
        await pipeline.deliverDueReminders(Self.rules)
        #expect(Self.reminders(handler).isEmpty)
    }
}
