import TestSupport
import Testing
import TravelCore
import TravelStore

/// Regrouping journeys in a real database file: ids, trips' `journey_id`, filters.
@Suite struct JourneyStoreTests {
    static let home = Coordinate(latitude: 52.512_34, longitude: 13.401_23)
    static let faraway = Coordinate(latitude: 53.512_34, longitude: 13.401_23)

    static func record(_ events: [TrackingEvent], in database: TravelDatabase) throws {
        for event in events { database.record(event) }
        try database.flush()
    }

    /// Before issue 26 an open journey was named after the latest point of its trip under way, a
    /// place the trips never name (`trips` shows no end for it).
    @Test func aJourneyWhoseOnlyTripIsUnderWayHasNoDestinationYet() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        try Self.record(Array(SampleDrive.trip(from: Self.faraway).dropLast()), in: database)
        try database.regroupJourneys(rules: JourneyRules(home: Self.home))
        let journeys = try database.journeys(zone: .utc)
        #expect(journeys.map(\.isOpen) == [true])
        #expect(journeys.map(\.destination) == [""])
        #expect(try database.trips().map(\.endPlace) == [nil])
    }

    @Test func regroupingKeepsIdsAndClosesAJourneyWhenTheVehicleIsHomeAgain() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let rules = JourneyRules(home: Self.home)
        let morning = SampleDrive.morning
        try Self.record(SampleDrive.trip(startingAt: morning, from: Self.home), in: database)
        try Self.record(SampleDrive.trip(startingAt: morning.adding(seconds: 7200), from: Self.faraway), in: database)
        let home = try database.regroupJourneys(rules: rules)
        #expect(home?.source == .configured)

        let first = try database.journeys(zone: .utc)
        #expect(first.map(\.tripIDs) == [[1], [2]])
        #expect(first.map(\.isOpen) == [false, true])
        #expect(first.map(\.type) == [.local, .day])
        #expect(first[0].destination == "Home")
        #expect(first[1].destination == "53.51324, 13.40213", "the place where the trip stopped")
        #expect(try database.trips().map(\.journeyID) == first.map(\.id))

        // The next day the vehicle leaves from home again: the open journey ended unrecorded.
        try Self.record(SampleDrive.trip(startingAt: morning.adding(seconds: 86_400), from: Self.home), in: database)
        try database.regroupJourneys(rules: rules)
        let second = try database.journeys(zone: .utc)
        #expect(second.map(\.id).prefix(2) == first.map(\.id)[...])
        #expect(second.map(\.isOpen) == [false, false, false])
        #expect(try database.journey(id: second[2].id)?.tripIDs == [3])
        #expect(try database.trips(journeyID: second[1].id).map(\.id) == [2])

        // Without a home each trip stands alone, and a journey that no longer exists is removed.
        try database.regroupJourneys(rules: JourneyRules())
        let alone = try database.journeys(zone: .utc)
        #expect(alone.map(\.tripIDs) == [[1], [2], [3]])
        #expect(alone.map(\.id) == second.map(\.id))
    }

    @Test func filtersMatchDestinationTypeDatesAndWordsInAnyCase() {
        let journey = JourneyRecord(
            id: 1,
            start: UTCTime(year: 2026, month: 7, day: 1, hour: 23)!,
            end: UTCTime(year: 2026, month: 7, day: 3, hour: 10)!,
            isOpen: false,
            type: .multiDay,
            destination: "Poreč harbour",
            tripIDs: [4, 5],
            distance: 90_000,
            placeLabels: ["45.22710, 13.59480", "Motovun"]
        )
        let plusOne = LocalTimeZone.fixed(UTCOffset(parsing: "+01:00")!)
        #expect(JourneyFilter(destination: "POREČ").matches(journey, zone: .utc))
        #expect(!JourneyFilter(destination: "rovinj").matches(journey, zone: .utc))
        #expect(JourneyFilter(type: .multiDay).matches(journey, zone: .utc))
        #expect(!JourneyFilter(type: .day).matches(journey, zone: .utc))
        #expect(JourneyFilter(search: "motovun harbour").matches(journey, zone: .utc))
        #expect(!JourneyFilter(search: "motovun rovinj").matches(journey, zone: .utc))
        #expect(JourneyFilter(search: "2026-07-02").matches(journey, zone: plusOne), "local start date")
        #expect(!JourneyFilter(search: "2026-07-02").matches(journey, zone: .utc))
        #expect(!JourneyFilter(since: UTCTime(year: 2026, month: 7, day: 2)).matches(journey, zone: .utc))
        #expect(JourneyFilter().isEmpty && !JourneyFilter(search: "x").isEmpty)
    }
}
