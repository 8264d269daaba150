import TestSupport
import Testing
import TravelCore
import TravelStore

/// Named places in a real database: they rename trips, stops and journey destinations when read,
/// home is stored as "Home" by the regroup, and a user's "Home" replaces it.
@Suite struct NamedPlaceStoreTests {
    @Test func aNameGivenLaterRenamesTripsStopsAndJourneyDestinationsWhenRead() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let rules = JourneyRules(home: JourneyStoreTests.home)
        try JourneyStoreTests.record(
            SampleDrive.trip(startingAt: SampleDrive.morning, from: JourneyStoreTests.faraway),
            in: database
        )
        try database.regroupJourneys(rules: rules)
        let trip = try #require(try database.trips().first)
        let stored = try #require(trip.endPlace)
        #expect(try database.journeys(zone: .utc).first?.destination == "53.51324, 13.40213")

        let id = try #require(try database.addNamedPlace(name: "Cabin", at: trip.summary.end, radius: 150))
        #expect(try database.addNamedPlace(name: "Cabin", at: trip.summary.start, radius: 150) == nil)
        #expect(try database.trips().first?.endPlace == "Cabin")
        #expect(try database.journeys(zone: .utc).first?.destination == "Cabin")
        #expect(try database.journey(id: 1)?.destination == "Cabin")
        #expect(try database.labelledStays().map(\.label) == ["Cabin"])

        #expect(try database.removeNamedPlace("\(id)")?.name == "Cabin")
        #expect(try database.removeNamedPlace("Cabin") == nil)
        #expect(try database.trips().first?.endPlace == stored)
        #expect(try database.journeys(zone: .utc).first?.destination == "53.51324, 13.40213")
    }

    @Test func homeIsStoredAsHomeUntilTheUserNamesAHomeOfTheirOwn() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let home = JourneyStoreTests.home
        try database.regroupJourneys(rules: JourneyRules())
        #expect(try database.namedPlaces().isEmpty, "no home known, no Home")
        try database.regroupJourneys(rules: JourneyRules(home: home))
        let learned = try #require(try database.namedPlaces().first)
        #expect(learned.name == "Home" && learned.isLearned && learned.coordinate == home && learned.radius == 200)

        let own = Coordinate(latitude: home.latitude + 0.01, longitude: home.longitude)
        #expect(try database.addNamedPlace(name: "Home", at: own, radius: 50) != nil)
        try database.regroupJourneys(rules: JourneyRules(home: home))
        let places = try database.namedPlaces()
        #expect(places.map(\.coordinate) == [own] && places.map(\.isLearned) == [false])
        try database.regroupJourneys(rules: JourneyRules())
        #expect(try database.namedPlaces().map(\.coordinate) == [own], "the user's Home stays")
    }
}
