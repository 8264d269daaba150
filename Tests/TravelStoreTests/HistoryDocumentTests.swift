import TestSupport
import Testing
import TravelCore
import TravelFormats
import TravelMessages
import TravelStore

/// The messages and documents `travelctl --db` prints and the daemon's control socket sends, from one builder.
@Suite struct HistoryDocumentTests {
    @Test func theJourneyMessagesAreTheRecordsAsTheyTravel() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        _ = try database.addNote("Coffee", at: HistoryStoreTests.morning.adding(seconds: 4.5))
        let rules = HistoryStoreTests.rules
        let filter = JourneyFilter(type: .day)

        let journeys = try database.journeys(filter, zone: rules.timeZone)
        #expect(journeys.count == 3)
        let messages = journeys.map { $0.message(zone: rules.timeZone) }
        #expect(messages.map(\.distance) == journeys.map { ($0.distance * 10).rounded() / 10 })
        #expect(messages.map(\.tripIDs) == journeys.map(\.tripIDs))
        #expect(try database.homeIsKnown(rules: rules) && database.hasTrips())
        // The fast --json path writes the same bytes, newline-terminated.
        let bytes = try database.journeysJSON(filter, zone: rules.timeZone)
        #expect(bytes == JSONValue.array(messages.map(\.json)).serialized() + Array("\n".utf8))
        // What is written reads back as it was.
        #expect(try messages.map { try JourneyMessage(JSONFields($0.json)) } == messages)

        let first = try #require(journeys.first)
        let show = try #require(try database.journeyDetail(id: first.id, zone: rules.timeZone))
        #expect(show.journey.id == first.id)
        #expect(show.trips.count == 2)
        #expect(show.notes.map(\.text) == ["Coffee"])
        #expect(show.photos == [])
        #expect(try JourneyDetailMessage(JSONFields(show.json)) == show)
        #expect(try database.journeyDetail(id: 99, zone: .utc) == nil)
    }

    @Test func anEmptyHistoryHasNoTripsAndNoHome() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        #expect(try database.journeys(JourneyFilter(), zone: .utc) == [])
        #expect(try !database.hasTrips() && !database.homeIsKnown(rules: JourneyRules()))
        #expect(try database.homeMessage(rules: JourneyRules()) == HomeMessage(places: 0, nightsRecorded: 0, home: nil))
        let configured = try database.homeMessage(rules: HistoryStoreTests.rules)
        #expect(configured.home?.source == .configured && configured.home?.confidence == 1)
        #expect(try HomeMessage(JSONFields(configured.json)) == configured)
        #expect(try database.plans() == [] && database.zoneRecords() == [])
        #expect(try database.poiRecords(category: nil, near: nil, radius: 5_000) == [])
        #expect(try database.placeEventMessages(since: nil, through: nil, zone: nil, kind: nil) == .success([]))
        // A filter naming a place that does not exist fails instead of listing nothing.
        #expect(
            try database.placeEventMessages(since: nil, through: nil, zone: "Nope", kind: nil)
                == .failure(.zone("Nope"))
        )
        #expect(
            try database.placeEventMessages(since: nil, through: nil, zone: nil, poi: "Nope", kind: nil)
                == .failure(.poi("Nope"))
        )
        #expect("\(UnknownPlace.poi("Nope"))" == "no POI named Nope")
    }

    @Test func theRouteCursorHandsOutEachSelectedTripWithItsOwnRoute() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        let all = try database.trips()
        #expect(all.count == 6)
        // Every other trip: the points of those left out are skipped.
        let selected = all.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        var cursor = try database.routeCursor(of: selected)
        var handedOut: [Int64] = []
        while let next = try cursor.next() {
            let (trip, route) = next
            handedOut.append(trip.id)
            let stored = try database.routePoints(tripID: trip.id)
            #expect(route.map(\.time) == stored.map(\.time), "trip \(trip.id)")
            #expect(route.map(\.coordinate) == stored.map(\.coordinate), "trip \(trip.id)")
            #expect(route.count == 10)
        }
        #expect(handedOut == selected.map(\.id))
        #expect(try cursor.next() == nil)
        var empty = try database.routeCursor(of: [])
        #expect(try empty.next() == nil)
    }

    @Test func anExportWrittenPieceByPieceIsTheWholeDocument() throws {
        let (directory, database) = try HistoryStoreTests.threeDays()
        _ = directory
        var steps: [[UInt8]] = []
        var export = try HistoryExport(database, format: .geojson, selection: .journey(1), zone: .utc) {
            steps.append($0)
        }
        var calls = 0
        while try export.writeNextPiece() { calls += 1 }
        // Per trip of the journey a call for its start and one for its 10 points and its end, and
        // one to end the document.
        #expect(calls == 5)
        var whole: [[UInt8]] = []
        var again = try HistoryExport(database, format: .geojson, selection: .journey(1), zone: .utc) {
            whole.append($0)
        }
        try again.writeAll()
        #expect(Array(steps.joined()) == Array(whole.joined()))
        let text = String(decoding: Array(steps.joined()), as: UTF8.self)
        #expect(text.contains("TravelCompanion: journey 1 to"))
        #expect(try JSONValue(parsing: text)["features"]?.arrayValue?.isEmpty == false)

        #expect(throws: ExportSelectionError.noTrip(99)) {
            _ = try HistoryExport(database, format: .gpx, selection: .trip(99), zone: .utc) { _ in }
        }
        #expect(throws: ExportSelectionError.noJourney(99)) {
            _ = try HistoryExport(database, format: .gpx, selection: .journey(99), zone: .utc) { _ in }
        }
    }
}
