import Testing

@testable import TravelCore

/// The labelling rule on made-up places: the place whose extent holds a point names it, the one
/// nearest for its size where several do; the nearest place is only the fallback outside them all.
@Suite struct GazetteerLabelTests {
    static let centre = Coordinate(latitude: 40, longitude: 116)

    static func place(_ name: String, _ population: Int, azimuth: Double, distance: Double) -> GazetteerPlace {
        GazetteerPlace(
            name: name,
            region: "Metropolis",
            country: "Utopia",
            coordinate: Geodesy.direct(from: centre, azimuth: azimuth, distance: distance),
            population: population
        )
    }

    /// A city of 19 million (a 30 km extent) with districts of no recorded people around it.
    static let city = [
        place("Metropolis", 19_000_000, azimuth: 0, distance: 0),
        place("Old Gate", 0, azimuth: 315, distance: 1_800),
        place("Riverside", 0, azimuth: 300, distance: 10_000),
        place("Far Hills", 0, azimuth: 0, distance: 60_000),
    ]

    @Test func aBigCityNamesItsAreaOverTheDistrictsNearer() throws {
        let gazetteer = try GazetteerBuilder.gazetteer(Self.city)
        // 4 km NW of the centre, 2.2 km from Old Gate (outside its 2 km): before, "2 km NW of Old Gate".
        let fourKilometres = Geodesy.direct(from: Self.centre, azimuth: 315, distance: 4_000)
        #expect(gazetteer.label(for: fourKilometres) == "Metropolis, Utopia")
        // 3 km from Riverside, 12 km from the centre: before, "3 km N of Riverside".
        let north = Geodesy.direct(
            from: Self.place("", 0, azimuth: 300, distance: 10_000).coordinate,
            azimuth: 0,
            distance: 3_000
        )
        #expect(gazetteer.label(for: north) == "Metropolis, Utopia")
        // 25 km out, still inside the city's 30 km.
        #expect(
            gazetteer.label(for: Geodesy.direct(from: Self.centre, azimuth: 180, distance: 25_000))
                == "Metropolis, Utopia"
        )
        #expect(Gazetteer.townRadius(population: 19_000_000) > 25_000)
    }

    @Test func aDistrictWhoseCentreIsCloseStillNamesItsOwnSmallArea() throws {
        let gazetteer = try GazetteerBuilder.gazetteer(Self.city)
        let riverside = Self.city[2].coordinate
        // 500 m from Riverside (0.25 of its 2 km), 10 km from the centre (0.34 of 30 km).
        #expect(
            gazetteer.label(for: Geodesy.direct(from: riverside, azimuth: 90, distance: 500)) == "Riverside, Metropolis"
        )
        // 1 km from it (0.5) the city is the nearer for its size.
        #expect(
            gazetteer.label(for: Geodesy.direct(from: riverside, azimuth: 90, distance: 1_000)) == "Metropolis, Utopia"
        )
    }

    @Test func outsideEveryExtentTheNearestPlaceGivesDistanceAndDirection() throws {
        let gazetteer = try GazetteerBuilder.gazetteer(Self.city)
        // 36 km N of the centre: outside the city, 24 km S of Far Hills, the nearer place.
        let between = Geodesy.direct(from: Self.centre, azimuth: 0, distance: 36_000)
        #expect(gazetteer.label(for: between) == "24 km S of Far Hills")
        #expect(gazetteer.label(for: Geodesy.direct(from: Self.centre, azimuth: 180, distance: 150_000)) == nil)
    }

    /// A town of 40 000 (4 km) with a village of 1500 (2 km) 3 km east of it.
    static let town = [
        GazetteerPlace(name: "Town", region: "Shire", country: "Utopia", coordinate: centre, population: 40_000),
        GazetteerPlace(
            name: "Village",
            region: "",
            country: "Utopia",
            coordinate: Geodesy.direct(from: centre, azimuth: 90, distance: 3_000),
            population: 1_500
        ),
    ]

    @Test func aTownAndTheVillageNextToItEachNameTheirOwnSide() throws {
        let gazetteer = try GazetteerBuilder.gazetteer(Self.town)
        func east(_ metres: Double) -> String? {
            gazetteer.label(for: Geodesy.direct(from: Self.centre, azimuth: 90, distance: metres))
        }
        #expect(Gazetteer.townRadius(population: 40_000) == 4_000)
        #expect(east(1_000) == "Town, Shire")
        // 1.5 km from each: 0.375 of the town's radius, 0.75 of the village's.
        #expect(east(1_500) == "Town, Shire")
        // 600 m from the village (0.3), 2.4 km from the town (0.6).
        #expect(east(2_400) == "Village, Utopia")
        #expect(east(4_500) == "Village, Utopia")
        // Beyond both: named after the nearest.
        #expect(east(5_600) == "3 km E of Village")
        #expect(gazetteer.label(for: Geodesy.direct(from: Self.centre, azimuth: 270, distance: 3_900)) == "Town, Shire")
        #expect(
            gazetteer.label(for: Geodesy.direct(from: Self.centre, azimuth: 270, distance: 4_200)) == "4 km W of Town"
        )
    }

    @Test func townRadiiGrowWithThePeopleAndSlowerForBigCities() {
        #expect(Gazetteer.townRadius(population: 0) == 2_000)
        #expect(Gazetteer.townRadius(population: 10_000) == 2_000)
        #expect(abs(Gazetteer.townRadius(population: 94_192) - 6_138) < 1)
        #expect(Gazetteer.townRadius(population: 250_000) == 10_000)
        #expect(abs(Gazetteer.townRadius(population: 1_000_000) - 14_142) < 1)
        #expect(abs(Gazetteer.townRadius(population: 18_960_744) - 29_510) < 10)
        #expect(Gazetteer.townRadius(population: Int(UInt32.max)) == Gazetteer.maximumTownRadius)
        let radii = stride(from: 0, through: 30_000_000, by: 10_000).map(Gazetteer.townRadius)
        #expect(zip(radii, radii.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
