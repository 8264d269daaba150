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
}
