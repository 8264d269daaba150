import TestSupport
import Testing
import TravelCore
import TravelFormats
import TravelStore

/// The report's data, from a real database file.
@Suite struct ReportDocumentTests {
    /// The page shows the durations `trips` shows (`HumanText.duration`), not minutes of its own rounding.
    @Test func durationsAreTheTextTripsShows() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        for event in SampleDrive.trip(startingAt: SampleDrive.morning, from: JourneyStoreTests.home) {
            database.record(event)
        }
        try database.flush()
        let stored = try #require(try database.trips().first)
        let document = try ReportDocument(database, selection: .all, rules: JourneyRules(home: nil))
        let data = try JSONValue(parsing: String(decoding: document.bytes, as: UTF8.self))
        let shown = HumanText.duration(stored.summary.duration)
        #expect(data["trips"]?.arrayValue?.first?["duration"] == .string(shown), "\(data["trips"] ?? .null)")
        #expect(data["totals"]?["duration"] == .string(shown))
    }
}
