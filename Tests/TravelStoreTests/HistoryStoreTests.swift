import TestSupport
import Testing
import TravelCore
import TravelMessages
import TravelStore

/// Plans, journeys started by hand, notes and photos in a real database file.
@Suite struct HistoryStoreTests {
    static let home = JourneyStoreTests.home
    static let faraway = JourneyStoreTests.faraway
    static let rules = JourneyRules(home: home)
    static let morning = SampleDrive.morning  // 2026-11-21 08:00 UTC

    /// A drive of ten 1 Hz points on the straight line from `from` to `to`, parked at the end.
    static func drive(from: Coordinate, to: Coordinate, at start: UTCTime) -> [TrackingEvent] {
        let route = (0..<10).map { index in
            RoutePoint(
                time: start.adding(seconds: Double(index)),
                coordinate: Coordinate(
                    latitude: from.latitude + (to.latitude - from.latitude) * Double(index) / 9,
                    longitude: from.longitude + (to.longitude - from.longitude) * Double(index) / 9
                )
            )
        }
        var summary = TripSummary(startTime: start, endTime: start, start: from, end: from)
        let started = TrackingEvent.tripStarted(summary)
        summary.endTime = start.adding(seconds: 9)
        summary.end = to
        summary.distance = Geodesy.fastDistance(from, to)
        summary.pointCount = 10
        summary.endReason = .parked
        return [started] + route.map { .routePoint(tripStart: start, $0) } + [.tripEnded(summary)]
    }

    /// Out from home at 08:00 each day to 111 km north, back at 16:00: days 0, 1 and 2.
    static func threeDays() throws -> (TemporaryDirectory, TravelDatabase) {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        for day in 0..<3 {
            let out = morning.adding(seconds: Double(day) * 86_400)
            try JourneyStoreTests.record(drive(from: home, to: faraway, at: out), in: database)
            let back = out.adding(seconds: 8 * 3600)
            try JourneyStoreTests.record(drive(from: faraway, to: home, at: back), in: database)
        }
        try database.regroupJourneys(rules: rules)
        return (directory, database)
    }

    static func date(_ text: String) throws -> LocalDate { try #require(LocalDate(parsing: text)) }

    @Test func thePlanTakesTheTripsOfItsDatesAndShowsATypeMismatch() throws {
        let (directory, database) = try Self.threeDays()
        _ = directory
        #expect(try database.journeys(zone: .utc).count == 3)

        let plan = try database.addPlan(
            destination: "Rostock",
            from: try Self.date("2026-11-22"),
            through: try Self.date("2026-11-23"),
            type: .day
        )
        try database.regroupJourneys(rules: Self.rules)
        let journeys = try database.journeys(zone: .utc)
        #expect(journeys.map(\.tripIDs) == [[1, 2], [3, 4, 5, 6]])
        let planned = journeys[1]
        #expect(planned.destination == "Rostock")
        #expect(planned.plan?.planID == plan.id)
        #expect(planned.type == .multiDay)
        #expect(planned.typeMismatch == .day, "planned a day out, it took two days")
        #expect(journeys[0].plan == nil && journeys[0].typeMismatch == nil)
        #expect(try database.trips().map(\.journeyID) == [1, 1, 2, 2, 2, 2].map { journeys[$0 - 1].id })
        let listed = try #require(try database.plans().first)
        #expect(listed.journeyID == planned.id)
        #expect(listed.tripCount == 4)

        // Overlapping dates are refused; removing the plan gives the trips back to automatic grouping.
        #expect(throws: HistoryError.self) {
            try database.addPlan(
                destination: "Hamburg",
                from: try Self.date("2026-11-23"),
                through: try Self.date("2026-11-30"),
                type: .multiDay
            )
        }
        try database.removePlan(id: plan.id)
        #expect(throws: HistoryError.self) { try database.removePlan(id: plan.id) }
        try database.regroupJourneys(rules: Self.rules)
        #expect(try database.journeys(zone: .utc).map(\.tripIDs) == [[1, 2], [3, 4], [5, 6]])
        #expect(try database.journeys(zone: .utc).allSatisfy { $0.plan == nil })
    }

    @Test func aJourneyStartedByHandTakesItsTripsAndOnlyOneIsOpen() throws {
        let (directory, database) = try Self.threeDays()
        _ = directory
        let start = Self.morning.adding(seconds: 3600)  // after day 0's drive out
        let id = try database.startJourney(destination: "Baltic coast", at: start)
        #expect(throws: HistoryError.self) { try database.startJourney(destination: "Again", at: start) }
        try database.regroupJourneys(rules: Self.rules)
        var byHand = try #require(try database.journey(id: id))
        #expect(byHand.isManual && byHand.isOpen)
        #expect(byHand.tripIDs == [2, 3, 4, 5, 6], "open: every later trip")
        #expect(byHand.destination == "Baltic coast")

        #expect(throws: HistoryError.self) { try database.stopJourney(at: start) }
        _ = try database.stopJourney(at: Self.morning.adding(seconds: 86_400 + 12 * 3600))
        #expect(throws: HistoryError.self) { try database.stopJourney(at: start.adding(seconds: 1)) }
        try database.regroupJourneys(rules: Self.rules)
        byHand = try #require(try database.journey(id: id))
        #expect(!byHand.isOpen)
        #expect(byHand.tripIDs == [2, 3, 4])
        #expect(byHand.type == .multiDay)
        let all = try database.journeys(zone: .utc)
        #expect(all.map(\.tripIDs) == [[1], [2, 3, 4], [5, 6]])
        // A new start inside the closed one's window is refused; after it, it is fine.
        #expect(throws: HistoryError.self) {
            try database.startJourney(destination: "X", at: start.adding(seconds: 60))
        }
        _ = try database.startJourney(destination: "Later", at: Self.morning.adding(seconds: 3 * 86_400))
    }

    @Test func notesAndPhotosArePlacedOnTheRouteOrAtTheStopAndJoinTheirJourney() throws {
        let (directory, database) = try Self.threeDays()
        _ = directory
        // 4.5 s into a 9 s drive 1° north: half-way, between the fifth and the sixth point.
        let note = try database.addNote("Coffee", at: Self.morning.adding(seconds: 4.5))
        let position = try #require(note.coordinate)
        #expect(abs(position.latitude - (Self.home.latitude + 0.5)) < 1e-9)
        #expect(abs(position.longitude - Self.home.longitude) < 1e-9)
        #expect(note.journeyID == (try database.journeys(zone: .utc).first?.id))

        // Parked away at noon: where the trip out ended.
        let noon = try database.addNote("Lunch", at: Self.morning.adding(seconds: 4 * 3600))
        #expect(noon.coordinate == (try database.trip(id: 1)?.summary.end))
        // Before the history starts: no position, no journey.
        let before = try database.addNote("Packing", at: Self.morning.adding(seconds: -86_400))
        #expect(before.coordinate == nil && before.journeyID == nil)

        let photo = try #require(try database.addPhoto(path: "/photos/a.jpg", sha256: "ab12", at: Self.morning))
        #expect(photo.coordinate == Self.home)
        #expect(try database.addPhoto(path: "/elsewhere/copy.jpg", sha256: "ab12", at: Self.morning) == nil)
        let first = try #require(try database.journeys(zone: .utc).first)
        let moments = try database.moments(journeyID: first.id)
        #expect(moments.map(\.kind) == [.photo, .note, .note])
        #expect(moments.map(\.text) == ["/photos/a.jpg", "Coffee", "Lunch"])

        // A plan over day 0 takes the day's trips, and its notes follow.
        _ = try database.addPlan(
            destination: "Rostock",
            from: try Self.date("2026-11-21"),
            through: try Self.date("2026-11-21"),
            type: .day
        )
        try database.regroupJourneys(rules: Self.rules)
        let planned = try #require(try database.journeys(zone: .utc).first { $0.plan != nil })
        #expect(try database.moments(journeyID: planned.id).map(\.text) == ["/photos/a.jpg", "Coffee", "Lunch"])
        #expect(try database.moments(from: Self.morning, through: Self.morning.adding(seconds: 10)).count == 2)
    }
}
