import Testing

@testable import TravelCore

/// The user's own names come after zones and before POIs and towns; `places` groups stops by label.
@Suite struct NamedPlaceTests {
    static let yard = Coordinate(latitude: 52.6727, longitude: -8.5713)

    @Test func aNamedPlaceComesAfterZonesAndBeforePOIsAndTheGazetteer() throws {
        let gazetteer = GazetteerTests.gazetteer
        let town = try #require(GazetteerTests.places.first { $0.population > 5_000 })
        let pois = POIIndex([POI(id: 1, name: "Fuel", coordinate: town.coordinate)])
        let work = NamedPlace(id: 1, name: "Work", coordinate: town.coordinate, radius: 150)
        let zone = Zone(id: 1, name: "Gate", shape: .circle(center: town.coordinate, radius: 20))
        let named = PlaceLabeler(zones: [], namedPlaces: [work], pois: pois, gazetteer: gazetteer)
        #expect(named.label(for: town.coordinate) == "Work")
        #expect(PlaceLabeler(zones: [zone], namedPlaces: [work], pois: pois).label(for: town.coordinate) == "Gate")
        let outside = Geodesy.direct(from: town.coordinate, azimuth: 90, distance: 160)
        #expect(named.label(for: outside) == gazetteer.label(for: outside))
        #expect(PlaceLabeler(zones: [], pois: pois).label(for: town.coordinate) == "Fuel")
    }

    @Test func theUsersNameWinsOverTheLearnedHomeAndTheNearestCentreOverAFarther() {
        let near = Geodesy.direct(from: Self.yard, azimuth: 0, distance: 40)
        let home = NamedPlace(id: 1, name: "Home", coordinate: Self.yard, radius: 200, isLearned: true)
        let garage = NamedPlace(id: 2, name: "Garage", coordinate: near, radius: 100)
        let shed = NamedPlace(id: 3, name: "Shed", coordinate: Self.yard, radius: 100)
        #expect([home, garage].name(at: Self.yard) == "Garage")
        #expect([home].name(at: Self.yard) == "Home")
        #expect([garage, shed].name(at: Self.yard) == "Shed")
        #expect([garage, shed].name(at: near) == "Garage")
        #expect([home].name(at: Geodesy.direct(from: Self.yard, azimuth: 0, distance: 250)) == nil)
    }

    @Test func visitsNightsAndTimeAddUpPerLabelLongestFirst() {
        let rules = JourneyRules()
        let day = UTCTime(iso8601: "2019-02-18T00:00:00Z")!
        func stay(_ from: Double, _ to: Double?, leftFrom: Coordinate = Self.yard) -> Stay {
            Stay(
                coordinate: Self.yard,
                arrival: day.adding(seconds: from),
                departure: to.map { day.adding(seconds: $0) },
                departureCoordinate: leftFrom
            )
        }
        let elsewhere = Geodesy.direct(from: Self.yard, azimuth: 90, distance: 5_000)
        let places = VisitedPlace.summarize(
            [
                ("Work", stay(9 * 3600, 17 * 3600)),
                ("Home", stay(18 * 3600, 32 * 3600)),  // over the night: 03:00 the next day
                ("Work", stay(33 * 3600, 41 * 3600)),
                ("Shop", stay(42 * 3600, 43 * 3600)),
                // The receiver lost the drive here; the next trip started 5 km away, a night later:
                // a visit, but neither the hours nor the night were spent here.
                ("Garage", stay(43.5 * 3600, 60 * 3600, leftFrom: elsewhere)),
                ("Home", stay(61 * 3600, nil)),  // still there: a visit, no time
            ],
            rules: rules
        )
        #expect(places.map(\.label) == ["Work", "Home", "Shop", "Garage"])
        #expect(places.map(\.visits) == [2, 2, 1, 1])
        #expect(places.map(\.nights) == [0, 1, 0, 0])
        #expect(places.map(\.seconds) == [16 * 3600, 14 * 3600, 3600, 0])
        #expect(places[1].lastArrival == day.adding(seconds: 61 * 3600))
    }
}
