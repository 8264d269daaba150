import Foundation
import TestSupport
import Testing
import TravelCore
import TravelFormats

@testable import TravelStore

@Suite struct TravelDatabaseRecorderTests {
    @Test func eventsBecomeTripsAndPointsOnlyWhenFlushed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let database = try TravelDatabase(path: path)
        let reader = try TravelDatabase(path: path, readOnly: true)
        let events = SampleDrive.trip(points: 10)
        for event in events { database.record(event) }
        database.record(.fixRejected(time: nil, reason: .noTime))

        #expect(database.pendingCount == events.count)
        #expect(try database.trips().isEmpty)
        #expect(try reader.trips().isEmpty)
        #expect(try count("route_points", in: path) == 0)

        try database.flush()
        #expect(database.pendingCount == 0)
        let trips = try reader.trips()
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        guard case .tripEnded(let summary) = events.last else {
            Issue.record("no trip end")
            return
        }
        #expect(trip.summary == summary)
        #expect(trip.summary.averageSpeed == summary.distance / 9)
        #expect(trip.startPlace == "52.51234, 13.40123")
        #expect(trip.endPlace == "52.51324, 13.40213")
        #expect(trip.journeyID == nil)
        #expect(try reader.trip(id: trip.id) == trip)
        #expect(try reader.trip(id: trip.id + 1) == nil)

        let points = try reader.routePoints(tripID: trip.id)
        let recorded: [RoutePoint] = events.compactMap {
            if case .routePoint(_, let point) = $0 { RouteUnits.rounded(point) } else { nil }
        }
        #expect(points == recorded)
    }

    /// A database that cannot be written (a full disk) makes the buffer grow until the limit:
    /// then every other route point goes, counted, and the trips' starts and ends stay.
    @Test func aBufferPastItsLimitDropsEveryOtherRoutePointAndKeepsTheTrips() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let database = try TravelDatabase(path: path)
        database.bufferLimit = 40
        let events =
            SampleDrive.trip(points: 100)
            + SampleDrive.trip(startingAt: SampleDrive.morning.adding(seconds: 3600), points: 50)
        // While flushes succeed, nothing is dropped, however many points come at once.
        for event in events.prefix(60) { database.record(event) }
        #expect(database.pendingCount == 60)
        #expect(database.droppedRoutePoints == 0)
        try database.flush()
        // The database is full (SQLite's page limit): each flush fails and the buffer stays bounded.
        let pages = try #require(try database.connection.scalarText("PRAGMA page_count"))
        try database.connection.execute("PRAGMA max_page_count = \(pages)")
        var largest = 0
        for (index, event) in events.dropFirst(60).enumerated() {
            database.record(event)
            largest = max(largest, database.pendingCount)
            if index.isMultiple(of: 10) { try? database.flush() }
        }
        #expect(largest <= 41)
        #expect(database.droppedRoutePoints > 30)
        try database.connection.execute("PRAGMA max_page_count = 1000000")
        try database.flush()

        let trips = try database.trips()
        let ends: [TripSummary] = events.compactMap { if case .tripEnded(let trip) = $0 { trip } else { nil } }
        #expect(trips.map(\.summary) == ends)
        let stored = try trips.flatMap { try database.routePoints(tripID: $0.id) }
        #expect(stored.count == 150 - database.droppedRoutePoints)
        let recorded: [RoutePoint] = events.compactMap {
            if case .routePoint(_, let point) = $0 { RouteUnits.rounded(point) } else { nil }
        }
        #expect(stored.prefix(58) == recorded.prefix(58))
        // What is kept is what was recorded, in order, and the newest point is never dropped.
        #expect(stored.allSatisfy(recorded.contains))
        #expect(stored.last == recorded.last)
        #expect(try database.routePoints(tripID: trips[1].id).count >= 10)
    }

    @Test func recordingTheSameEventsAgainAddsNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let events =
            SampleDrive.trip(points: 20, trailing: 4)
            + SampleDrive.trip(startingAt: SampleDrive.morning.adding(seconds: 3600), points: 15)
        let database = try TravelDatabase(path: path)
        for event in events { database.record(event) }
        try database.flush()
        let before = try database.trips()

        // A re-import, split over two flushes, through a new connection as `travelctl import` would.
        let again = try TravelDatabase(path: path)
        for event in events.prefix(17) { again.record(event) }
        try again.flush()
        for event in events.dropFirst(17) { again.record(event) }
        try again.flush()

        #expect(try again.trips() == before)
        #expect(try count("trips", in: path) == 2)
        #expect(try count("route_points", in: path) == 35)
        #expect(try count("stops", in: path) == 2)
    }

    @Test func tripEndTrimsThePointsAfterArrival() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let events = SampleDrive.trip(points: 12, trailing: 5)
        // The trailing points are flushed while the trip still looks ongoing (the recorder writes
        // its totals so far with them); the end comes later.
        for event in events.dropLast() { database.record(event) }
        let started = try #require(events.first.flatMap { if case .tripStarted(let trip) = $0 { trip } else { nil } })
        var soFar = started
        soFar.pointCount = 17
        soFar.endTime = SampleDrive.morning.adding(seconds: 16)
        database.recordOngoing(soFar)
        try database.flush()
        let ongoing = try #require(try database.trips().first)
        #expect(ongoing.isOngoing)
        #expect(ongoing.summary.pointCount == 17)
        #expect(ongoing.summary.endTime == SampleDrive.morning.adding(seconds: 16))

        database.record(try #require(events.last))
        try database.flush()
        let ended = try #require(try database.trips().first)
        #expect(ended.summary.endReason == .parked)
        #expect(ended.summary.pointCount == 12)
        let points = try database.routePoints(tripID: ended.id)
        #expect(points.count == 12)
        #expect(points.last?.time == ended.summary.endTime)
    }

    @Test func stopsLinkConsecutiveTrips() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let secondStart = SampleDrive.morning.adding(seconds: 7200)
        for event in SampleDrive.trip(points: 10) + SampleDrive.trip(startingAt: secondStart, points: 10) {
            database.record(event)
        }
        try database.flush()
        let trips = try database.trips()
        let stops = try database.stops(between: SampleDrive.morning, and: secondStart.adding(seconds: 86_400))
        #expect(stops.count == 2)
        #expect(stops[0].arrival == trips[0].summary.endTime)
        #expect(stops[0].departure == secondStart)
        #expect(stops[0].coordinate == trips[0].summary.end)
        #expect(stops[0].place == trips[0].endPlace)
        #expect(stops[0].tripBefore == trips[0].id)
        #expect(stops[0].tripAfter == trips[1].id)
        #expect(stops[1].departure == nil)
        #expect(stops[1].tripAfter == nil)

        // Overlap: a window inside the first stop finds it; one after the first departure does not.
        let insideFirst = try database.stops(between: secondStart.adding(seconds: -60), and: secondStart)
        #expect(insideFirst.map(\.id) == [stops[0].id])
        let afterwards = try database.stops(
            between: secondStart.adding(seconds: 3600),
            and: secondStart.adding(seconds: 7200)
        )
        #expect(afterwards.map(\.id) == [stops[1].id])
    }

    @Test func anOlderLogImportedLaterSlotsIntoTheStops() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let early = SampleDrive.trip(points: 10)
        let middle = SampleDrive.trip(startingAt: SampleDrive.morning.adding(seconds: 3600), points: 10)
        let late = SampleDrive.trip(startingAt: SampleDrive.morning.adding(seconds: 7200), points: 10)
        for event in early + late { database.record(event) }
        try database.flush()
        for event in middle { database.record(event) }
        try database.flush()

        let trips = try database.trips()
        let stops = try database.stops(between: SampleDrive.morning, and: SampleDrive.morning.adding(seconds: 86_400))
        #expect(stops.map(\.tripBefore) == trips.map(\.id))
        #expect(stops.map(\.tripAfter) == [trips[1].id, trips[2].id, nil])
        #expect(stops.map(\.departure) == [trips[1].summary.startTime, trips[2].summary.startTime, nil])
    }

    @Test func engineStateRoundTripsAndTheLatestWins() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let database = try TravelDatabase(path: path)
        #expect(try database.loadEngineState() == nil)

        let first: JSONValue = ["state": "parked", "since": 1_763_712_000_000]
        let latest: JSONValue = [
            "state": "moving", "trip": ["start": 1_763_712_000_000, "distance": 1234.5], "n": nil,
        ]
        database.saveEngineState(snapshot: first, counters: ["accepted": 1])
        database.saveEngineState(snapshot: latest, counters: ["accepted": 3600, "rejected.inaccurate": 12])
        #expect(database.pendingCount == 1)
        try database.flush()

        let restored = try #require(try TravelDatabase(path: path, readOnly: true).loadEngineState())
        #expect(restored.snapshot == latest)
        #expect(restored.counters == ["accepted": 3600, "rejected.inaccurate": 12])
    }

    @Test func anImportCountsOnceItsLastFlushCommits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let database = try TravelDatabase(path: path)
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(try !database.hasImported(sha256: digest))
        database.recordImport(sha256: digest, path: "/logs/a.nmea", bytes: 1_000, fixes: 20, trips: 1)
        #expect(try database.hasImported(sha256: digest))
        #expect(try !TravelDatabase(path: path, readOnly: true).hasImported(sha256: digest))
        try database.flush()
        #expect(try TravelDatabase(path: path, readOnly: true).hasImported(sha256: digest))

        database.recordImport(sha256: digest, path: "/logs/copy-of-a.nmea", bytes: 1_000, fixes: 20, trips: 1)
        try database.flush()
        let connection = try SQLiteDatabase(path: path, readOnly: true)
        #expect(
            try connection.scalarText("SELECT path || ' ' || bytes || ' ' || fixes FROM imported_files")
                == "/logs/a.nmea 1000 20"
        )
    }

    @Test func aPointOfATripNeverSeenStartingOpensIt() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        for event in SampleDrive.trip(points: 5).dropFirst() { database.record(event) }
        try database.flush()
        let trip = try #require(try database.trips().first)
        #expect(trip.summary.startTime == SampleDrive.morning)
        #expect(trip.summary.endReason == .parked)
        #expect(try database.routePoints(tripID: trip.id).count == 5)
    }

    @Test func aFailedFlushKeepsTheBufferForTheNextAttempt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        _ = try TravelDatabase(path: path)
        let reader = try TravelDatabase(path: path, readOnly: true)
        for event in SampleDrive.trip(points: 5) { reader.record(event) }
        let pending = reader.pendingCount
        let error = #expect(throws: StoreError.self) { try reader.flush() }
        #expect(error?.description.hasPrefix("database error: attempt to write a readonly database (in ") == true)
        #expect(reader.pendingCount == pending)
        #expect(try reader.trips().isEmpty)
    }

    @Test func tripsFilterByStartTime() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let starts = (0..<4).map { SampleDrive.morning.adding(seconds: Double($0) * 86_400) }
        for start in starts { for event in SampleDrive.trip(startingAt: start) { database.record(event) } }
        try database.flush()
        #expect(try database.trips().map(\.summary.startTime) == starts)
        #expect(try database.trips(since: starts[1]).map(\.summary.startTime) == Array(starts[1...]))
        #expect(try database.trips(until: starts[1]).map(\.summary.startTime) == [starts[0]])
        #expect(
            try database.trips(since: starts[1], until: starts[3]).map(\.summary.startTime) == [starts[1], starts[2]]
        )
    }

    @Test func readOnlyOpenOfAMissingFileSaysSoInOneLine() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nothing-here.sqlite")
        let error = #expect(throws: StoreError.self) { try TravelDatabase(path: path, readOnly: true) }
        #expect(error?.description == "no database at \(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsAnOpenError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notes.txt")
        try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        for readOnly in [true, false] {
            let error = #expect(throws: StoreError.self) { try TravelDatabase(path: path, readOnly: readOnly) }
            #expect(error?.description == "cannot open database \(path): file is not a database")
        }
    }

    @Test(arguments: [
        (Coordinate(latitude: 52.512_344, longitude: 13.401_226), "52.51234, 13.40123"),
        (Coordinate(latitude: -33.867_85, longitude: 151.207_32), "-33.86785, 151.20732"),
        (Coordinate(latitude: 0.000_004, longitude: -0.000_004), "0.00000, 0.00000"),
        (Coordinate(latitude: 0.5, longitude: -179.999_999), "0.50000, -180.00000"),
    ])
    func coordinateLabelsHaveFiveDecimals(coordinate: Coordinate, label: String) {
        #expect(coordinate.coordinateLabel == label)
    }
}

/// Rows in `table`, counted through a separate read-only connection: what another process sees.
func count(_ table: String, in path: String) throws -> Int {
    Int(try SQLiteDatabase(path: path, readOnly: true).scalarText("SELECT count(*) FROM \(table)") ?? "") ?? -1
}
