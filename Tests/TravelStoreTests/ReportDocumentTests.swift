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

    /// The document of `selection` in the three days' history, parsed.
    static func document(_ database: TravelDatabase, _ selection: ExportSelection) throws -> JSONValue {
        let bytes = try ReportDocument(database, selection: selection, rules: HistoryStoreTests.rules).bytes
        return try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// Fails on the code before issue 26: a journey's report charted every journey of its year
    /// (three in November, twelve months), not its own.
    @Test func aJourneysOrRangesReportChartsItsOwnJourneysInItsMonthsOnly() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        let journeys = try database.journeys(zone: .utc)
        let journey = try #require(journeys.last)
        let distance = JSONValue.double((journey.distance * 10).rounded() / 10)
        let one = try Self.document(database, .journey(journey.id))
        #expect(
            one["stats"] == [
                [
                    "year": 2026, "journeys": 1, "distance_m": distance,
                    "months": [["month": 11, "journeys": 1, "distance_m": distance]],
                ]
            ]
        )
        // A range charts its months, from its first day to its last, with the journeys it selects.
        let (october, december) = (UTCTime(milliseconds: 1_790_812_800_000), UTCTime(milliseconds: 1_798_761_599_000))
        let range = try Self.document(database, .range(since: .instant(october), through: .instant(december)))
        let stats = try #require(range["stats"]?.arrayValue?.first)
        #expect(range["stats"]?.arrayValue?.count == 1 && stats["journeys"] == 3, "\(stats)")
        #expect(stats["months"]?.arrayValue?.compactMap { $0["month"]?.intValue } == [10, 11, 12], "\(stats)")
        #expect(stats["months"]?.arrayValue?.compactMap { $0["journeys"]?.intValue } == [0, 3, 0], "\(stats)")
        // The whole history's is stats --year's: twelve months, every journey.
        let all = try Self.document(database, .all)
        #expect(all["stats"]?.arrayValue?.first?["months"]?.arrayValue?.count == 12)
    }

    /// Fails on the code before issue 26: the page had no zones or POIs to draw.
    @Test func theDocumentHoldsTheZonesAndThePOIsAlongItsRoutesOnly() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        let (home, faraway) = (HistoryStoreTests.home, HistoryStoreTests.faraway)
        _ = try database.addZone(
            name: "Home <img src=x onerror=alert(1)>",
            role: "home",
            shape: .circle(center: home, radius: 300)
        )
        let square = [(0.0, 0.0), (0.0, 0.01), (0.01, 0.01), (0.01, 0.0), (0.0, 0.0)].map {
            Coordinate(latitude: faraway.latitude + $0.0, longitude: faraway.longitude + $0.1)
        }
        _ = try database.addZone(name: "Square", role: nil, shape: .polygons([[square]]))
        // Halfway along the straight drive (its drawn route is its two ends, 111 km apart), 1 km
        // off it; and one 30 km off.
        let halfway = (home.latitude + faraway.latitude) / 2
        _ = try database.addPOIs(
            [
                POIDraft(
                    name: "Fuel",
                    category: "fuel",
                    coordinate: Coordinate(latitude: halfway, longitude: home.longitude + 0.015)
                ),
                POIDraft(
                    name: "Elsewhere",
                    category: nil,
                    coordinate: Coordinate(latitude: halfway, longitude: home.longitude + 0.45)
                ),
            ],
            source: "pois.csv"
        )
        let document = try Self.document(database, .all)
        let zones = document["zones"]?.arrayValue ?? []
        #expect(zones.map { $0["name"] } == ["Home <img src=x onerror=alert(1)>", "Square"])
        #expect(
            zones.first?["kind"] == "circle" && zones.first?["radius_m"] == .double(300)
                && zones.first?["inside"] == nil
        )
        #expect(zones.last?["kind"] == "polygon" && zones.last?["geometry"]?["type"] == "MultiPolygon", "\(zones)")
        let pois = document["pois"]?.arrayValue ?? []
        #expect(pois.map { $0["name"] } == ["Fuel"] && pois.first?["category"] == "fuel", "\(pois)")
        #expect(abs((pois.first?["lat"]?.doubleValue ?? 0) - halfway) < 1e-9, "\(pois)")
        #expect(document["totals"]?["pois_in_area"] == 1)
    }
}
