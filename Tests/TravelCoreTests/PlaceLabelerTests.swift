import Testing

@testable import TravelCore

/// Place labels come from zones (the smallest that holds the place), then the nearest POI.
@Suite struct PlaceLabelerTests {
    static let house = Coordinate(latitude: 45.2831, longitude: 13.7212)

    @Test func theSmallestZoneThenTheNearestPOIThenNothing() {
        let town = Zone(id: 1, name: "Višnjan", shape: .circle(center: Self.house, radius: 2_000))
        let home = Zone(id: 2, name: "home", role: "home", shape: .circle(center: Self.house, radius: 50))
        let near = Geodesy.direct(from: Self.house, azimuth: 0, distance: 5_000)
        let pois = POIIndex([
            POI(id: 1, name: "Far Cafe", coordinate: Geodesy.direct(from: near, azimuth: 90, distance: 90)),
            POI(id: 2, name: "Near Fuel", coordinate: Geodesy.direct(from: near, azimuth: 90, distance: 30)),
        ])
        let labeler = PlaceLabeler(zones: [town, home], pois: pois)
        #expect(labeler.label(for: Self.house) == "home")
        #expect(labeler.label(for: Geodesy.direct(from: Self.house, azimuth: 0, distance: 500)) == "Višnjan")
        #expect(labeler.label(for: near) == "Near Fuel")
        #expect(labeler.label(for: Geodesy.direct(from: near, azimuth: 270, distance: 500)) == nil)
    }

    /// The gazetteer names what no zone or POI does, and never wins over either.
    @Test func zonesAndPOIsComeBeforeTheGazetteer() throws {
        let gazetteer = GazetteerTests.gazetteer
        let town = try #require(GazetteerTests.places.first { $0.population > 5_000 && !$0.region.isEmpty })
        let zone = Zone(id: 1, name: "Work", shape: .circle(center: town.coordinate, radius: 100))
        let poiPlace = Geodesy.direct(from: town.coordinate, azimuth: 90, distance: 500)
        let pois = POIIndex([POI(id: 1, name: "Fuel", coordinate: poiPlace)])
        let labeler = PlaceLabeler(zones: [zone], pois: pois, gazetteer: gazetteer)
        #expect(labeler.label(for: town.coordinate) == "Work")
        #expect(labeler.label(for: poiPlace) == "Fuel")
        let elsewhere = Geodesy.direct(from: town.coordinate, azimuth: 270, distance: 300)
        #expect(labeler.label(for: elsewhere) == gazetteer.label(for: elsewhere))
        #expect(labeler.label(for: elsewhere) != nil)
        #expect(PlaceLabeler(zones: [], pois: POIIndex([])).label(for: elsewhere) == nil)
    }
}
