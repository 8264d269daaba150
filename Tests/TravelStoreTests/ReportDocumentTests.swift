import Testing
import TravelCore
import TravelFormats
import TravelMessages
import TravelStore

/// The data of `travelctl report`'s page: the trips with their drawn routes, the time spent per
/// place, the journeys and the stats bars, from one builder for the daemon and `--db`.
@Suite struct ReportDocumentTests {
    @Test func theDocumentHoldsEveryTripItsRouteTheTimeSpentAndTheStatsOfItsYears() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        _ = try database.addNote("Coffee", at: HistoryStoreTests.morning.adding(seconds: 4.5))
        let rules = HistoryStoreTests.rules
        let bytes = try ReportDocument(database, selection: .all, rules: rules).bytes
        // Nothing in it depends on when it is made.
        #expect(try ReportDocument(database, selection: .all, rules: rules).bytes == bytes)
        let document = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        let trips = try database.trips()
        #expect(document["trips"]?.arrayValue?.map { $0["id"] } == trips.map { .integer($0.id) })
        for (trip, drawn) in zip(trips, document["trips"]?.arrayValue ?? []) {
            // A straight drive is drawn as its two ends, from integers of 1e-5° as differences.
            let route = drawn["route"]?.arrayValue?.compactMap(\.intValue) ?? []
            #expect(route.count == 4, "\(route)")
            let (latitude, longitude) = (Double(route[0]) / 1e5, Double(route[1]) / 1e5)
            let (endLatitude, endLongitude) = (latitude + Double(route[2]) / 1e5, longitude + Double(route[3]) / 1e5)
            #expect(abs(latitude - trip.summary.start.latitude) <= 0.5e-5)
            #expect(abs(endLongitude - trip.summary.end.longitude) <= 0.5e-5)
            #expect(
                abs(endLatitude - trip.summary.end.latitude) <= 0.5e-5
                    && abs(longitude - trip.summary.start.longitude) <= 0.5e-5
            )
            #expect(drawn["type"] == "day" && drawn["distance_m"] == trip.message.json["distance_m"])
        }
        // Every second from the first departure to the last arrival: driving and parked.
        let first = try #require(trips.first).summary.startTime
        let last = try #require(trips.last).summary.endTime
        let cells = document["heat"]?["cells"]?.arrayValue?.compactMap(\.intValue) ?? []
        let seconds = stride(from: 2, to: cells.count, by: 3).reduce(0) { $0 + cells[$1] }
        let period = Int(last.seconds(since: first))
        #expect(abs(seconds - period) <= cells.count / 3, "\(seconds) of \(period)")
        #expect(document["heat"]?["cell_deg"] == .double(TimeHeatmap.finestCell))
        // The bars are stats --json's.
        let year = rules.timeZone.local(first).components.year
        #expect(
            document["stats"] == [
                StatsMessage(try #require(try database.monthlyTotals(year: year, zone: rules.timeZone))).json
            ]
        )
        #expect(document["journeys"]?.arrayValue?.count == 3)
        #expect(document["notes"]?.arrayValue?.map { $0["text"] } == ["Coffee"])
        #expect(document["totals"]?["trips"] == 6 && document["totals"]?["route_points"] == 60)
        #expect(document["totals"]?["drawn_points"] == 12)
        #expect(document["from"] == .string(first.iso8601) && document["until"] == .string(last.iso8601))
    }

    @Test func aJourneysReportHoldsItsTripsOnly() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        let journey = try #require(try database.journeys(zone: .utc).last)
        let bytes = try ReportDocument(database, selection: .journey(journey.id), rules: HistoryStoreTests.rules).bytes
        let document = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        #expect(document["trips"]?.arrayValue?.map { $0["id"] } == journey.tripIDs.map(JSONValue.integer))
        #expect(document["journeys"]?.arrayValue?.map { $0["id"] } == [.integer(journey.id)])
        #expect(throws: ExportSelectionError.noJourney(99)) {
            _ = try ReportDocument(database, selection: .journey(99), rules: HistoryStoreTests.rules)
        }
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
        let range = try Self.document(database, .range(since: october, through: december))
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
