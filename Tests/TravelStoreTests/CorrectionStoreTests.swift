import TestSupport
import Testing
import TravelCore
import TravelFormats
import TravelMessages
import TravelStore

/// Imports linked to their trips, and trips, imports, notes and photos removed, in a real file.
@Suite struct CorrectionStoreTests {
    static let home = JourneyStoreTests.home
    static let faraway = JourneyStoreTests.faraway
    static let rules = HistoryStoreTests.rules
    static let morning = SampleDrive.morning
    static let shaA = String(repeating: "a1", count: 32)
    static let shaB = String(repeating: "b2", count: 32)

    /// Day 0 out and back recorded as import A, day 1 out as import B, day 2 out live.
    static func history() throws -> (TemporaryDirectory, TravelDatabase) {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let day = 86_400.0
        let out0 = morning
        let back0 = morning.adding(seconds: 8 * 3600)
        database.importMark = "pending a.nmea"
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: home, to: faraway, at: out0), in: database)
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: faraway, to: home, at: back0), in: database)
        database.recordImport(sha256: shaA, path: "a.nmea", bytes: 10, fixes: 20, trips: 2)
        try database.flush()
        database.importMark = "pending b.nmea"
        let out1 = morning.adding(seconds: day)
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: home, to: faraway, at: out1), in: database)
        // B also found day 0's first trip (an overlapping log): A stored it, A keeps it.
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: home, to: faraway, at: out0), in: database)
        database.recordImport(sha256: shaB, path: "b.nmea", bytes: 5, fixes: 10, trips: 2)
        try database.flush()
        database.importMark = nil
        let out2 = morning.adding(seconds: 2 * day)
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: home, to: faraway, at: out2), in: database)
        try database.flush()
        try database.regroupJourneys(rules: rules)
        return (directory, database)
    }

    @Test func importsListTheTripsTheyFoundAndClaimedFirst() throws {
        let (directory, database) = try Self.history()
        _ = directory
        let files = try database.importedFiles()
        #expect(files.map(\.path) == ["a.nmea", "b.nmea"])
        #expect(files.map(\.tripsStored) == [2, 1])
        #expect(files.map(\.tripsFound) == [2, 2])
        #expect(files[0].id == String(repeating: "a1", count: 6))
        #expect(try database.importedFile("a.nmea").sha256 == Self.shaA)
        #expect(try database.importedFile("b2b2b2").sha256 == Self.shaB)
        #expect(try database.importedFile("whatever", sha256: Self.shaA).path == "a.nmea")
        #expect(throws: HistoryError.self) { try database.importedFile("c.nmea") }
        #expect(throws: HistoryError.self) { try database.importedFile("a1b") }  // too short to be an id
    }

    @Test func removingAnImportRemovesItsTripsPointsAndStopsOnly() throws {
        let (directory, database) = try Self.history()
        _ = directory
        #expect(try database.trips().count == 4)
        let (file, removed) = try database.removeImport("a.nmea", rules: Self.rules)
        #expect(file.sha256 == Self.shaA && removed == 2)
        let left = try database.trips()
        #expect(
            left.map(\.summary.startTime) == [
                Self.morning.adding(seconds: 86_400), Self.morning.adding(seconds: 2 * 86_400),
            ]
        )
        #expect(try database.routePoints(after: UTCTime(milliseconds: 0)).count == 20)
        // Day 0's stops went with its trips; the stop day 1 ended at is still there.
        #expect(try database.stops(between: Self.morning, and: Self.morning.adding(seconds: 86_000)).isEmpty)
        #expect(
            try !database.stops(
                between: Self.morning.adding(seconds: 86_400),
                and: Self.morning.adding(seconds: 3 * 86_400)
            ).isEmpty
        )
        #expect(try database.importedFiles().map(\.path) == ["b.nmea"])
        #expect(try database.hasImported(sha256: Self.shaA) == false)
        // Every trip left is in a journey again.
        #expect(try database.trips().allSatisfy { $0.journeyID != nil })
    }

    @Test func removingAnImportDepartsTheStopItLeftByTheNextTripAgain() throws {
        // Fails before the fix: the live stop kept the removed trip's departure and no next trip.
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let (home, faraway, morning) = (Self.home, Self.faraway, Self.morning)
        let (day0, day1, day2) = (morning, morning.adding(seconds: 86_400), morning.adding(seconds: 2 * 86_400))
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: home, to: faraway, at: day0), in: database)
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: faraway, to: home, at: day2), in: database)
        let everything = (UTCTime(milliseconds: 0), day2.adding(seconds: 86_400))
        let recorded = try database.stops(between: everything.0, and: everything.1)
        // A log of day 1 fills the gap between the live trips: it leaves day 0's stop.
        database.importMark = "pending day1.nmea"
        try JourneyStoreTests.record(HistoryStoreTests.drive(from: faraway, to: home, at: day1), in: database)
        database.recordImport(sha256: Self.shaA, path: "day1.nmea", bytes: 10, fixes: 10, trips: 1)
        try database.flush()
        let filled = try database.stops(between: everything.0, and: everything.1)
        #expect(filled.first?.departure == day1)
        _ = try database.removeImport("day1.nmea", rules: Self.rules)
        // As they were, but for the name regrouping gives home.
        func links(_ stops: [StopRecord]) -> [String] {
            stops.map {
                "\($0.id) \($0.arrival) \(String(describing: $0.departure)) \($0.tripBefore ?? 0) \($0.tripAfter ?? 0)"
            }
        }
        #expect(links(try database.stops(between: everything.0, and: everything.1)) == links(recorded))
    }

    @Test func aTripIsRemovedUnlessItIsStillBeingRecorded() throws {
        let (directory, database) = try Self.history()
        _ = directory
        let first = try #require(try database.trips().first)
        let removed = try database.removeTrip(id: first.id, rules: Self.rules)
        #expect(removed.id == first.id)
        #expect(try database.trip(id: first.id) == nil)
        #expect(try database.routePoints(tripID: first.id).isEmpty)
        #expect(throws: HistoryError.self) { try database.removeTrip(id: first.id, rules: Self.rules) }
        // A trip started and not ended.
        let start = Self.morning.adding(seconds: 5 * 86_400)
        let drive = HistoryStoreTests.drive(from: Self.home, to: Self.faraway, at: start)
        try JourneyStoreTests.record(Array(drive.dropLast()), in: database)
        let ongoing = try #require(try database.trips().last)
        #expect(ongoing.isOngoing)
        do {
            _ = try database.removeTrip(id: ongoing.id, rules: Self.rules)
            Issue.record("the trip in progress was removed")
        } catch let error as HistoryError {
            #expect("\(error)" == "trip \(ongoing.id) is still being recorded; it can be removed once it has ended")
        }
        #expect(try database.trip(id: ongoing.id) != nil)
    }

    @Test func notesAndPhotosAreListedEvenOutsideEveryJourneyAndRemoved() throws {
        let (directory, database) = try Self.history()
        _ = directory
        let early = try database.addNote("before anything", at: UTCTime(year: 2010, month: 1, day: 1)!)
        #expect(early.journeyID == nil && early.coordinate == nil)
        let onTheWay = try database.addNote("on the way", at: Self.morning.adding(seconds: 4))
        let photo = try #require(
            try database.addPhoto(
                path: "/p.jpg",
                sha256: Self.shaA,
                at: Self.morning.adding(seconds: 4),
                coordinate: Coordinate(latitude: 1, longitude: 2)
            )
        )
        #expect(photo.coordinate == Coordinate(latitude: 1, longitude: 2), "its own GPS position wins")
        #expect(try database.moments(.note).map(\.text) == ["before anything", "on the way"])
        let journey = try #require(onTheWay.journeyID)
        #expect(try database.moments(.note, journeyID: journey).count == 1)
        #expect(try database.moments(.note, since: Self.morning).count == 1)
        #expect(try database.moments(.photo).first?.sha256 == Self.shaA)
        #expect(try database.removeMoment(.note, id: early.id).text == "before anything")
        #expect(throws: HistoryError.self) { try database.removeMoment(.note, id: early.id) }
        #expect(try database.removeMoment(.photo, id: photo.id).text == "/p.jpg")
        #expect(try database.moments(.photo).isEmpty)
    }
}
