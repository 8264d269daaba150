import Foundation
import SeededRandom
import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// The shipped gazetteer (data/gazetteer/gazetteer.bin), checked against its own rows: every
/// expectation is computed from the places in the file, not from names written here.
@Suite struct GazetteerTests {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/gazetteer/gazetteer.bin")
    static let gazetteer: Gazetteer = {
        do { return try Gazetteer(copying: Array(try Data(contentsOf: file))) } catch { fatalError("\(error)") }
    }()
    static let places = (0..<gazetteer.count).map(gazetteer.place(at:))

    /// The nearest place by looking at every one, as the k-d tree must find it.
    static func bruteForceNearest(_ coordinate: Coordinate) -> (place: GazetteerPlace, distance: Double) {
        var best: (place: GazetteerPlace, distance: Double)?
        for place in places {
            let distance = Geodesy.fastDistance(coordinate, place.coordinate)
            if distance < best?.distance ?? .infinity { best = (place, distance) }
        }
        return best!
    }

    @Test func holdsEveryTownOfAThousandPeopleWithItsRegionAndCountry() {
        #expect(Self.gazetteer.count > 150_000)
        let named = Self.places.filter { !$0.name.isEmpty && !$0.country.isEmpty }
        #expect(named.count == Self.places.count)
        #expect(Self.places.filter { !$0.region.isEmpty }.count > Self.places.count * 99 / 100)
    }

    @Test func eachPlaceIsFoundAtItsOwnCoordinates() throws {
        for index in stride(from: 0, to: Self.gazetteer.count, by: 499) {
            let place = Self.places[index]
            let match = try #require(Self.gazetteer.nearest(to: place.coordinate, within: 1_000))
            #expect(match.distance < 1, "\(place.name)")
            #expect(match.place.coordinate == place.coordinate || match.distance < 1)
        }
    }

    @Test func theTreeFindsTheSamePlaceAsLookingAtEveryOne() throws {
        var random = SplitMix64(seed: 15)
        for _ in 0..<60 {
            // Near a random place (where people drive), up to 30 km off it.
            let base = Self.places[Int.random(in: 0..<Self.places.count, using: &random)].coordinate
            let query = Geodesy.direct(
                from: base,
                azimuth: Double.random(in: -180..<180, using: &random),
                distance: Double.random(in: 0..<30_000, using: &random)
            )
            let expected = Self.bruteForceNearest(query)
            let match = try #require(Self.gazetteer.nearest(to: query, within: Gazetteer.labelLimit))
            #expect(
                abs(match.distance - expected.distance) < 1,
                "\(query): \(match.place.name) vs \(expected.place.name)"
            )
        }
    }

    @Test func labelsATownByItsRegionAndElsewhereByDistanceAndDirection() throws {
        var random = SplitMix64(seed: 1000)
        var inTown = 0
        var outside = 0
        for _ in 0..<60 {
            let base = Self.places[Int.random(in: 0..<Self.places.count, using: &random)].coordinate
            let query = Geodesy.direct(from: base, azimuth: 0, distance: Double.random(in: 0..<20_000, using: &random))
            let (place, distance) = Self.bruteForceNearest(query)
            let label = try #require(Self.gazetteer.label(for: query))
            if distance <= Gazetteer.townRadius(population: place.population) - 1 {
                let region = place.region.isEmpty || place.region == place.name ? place.country : place.region
                #expect(label == "\(place.name), \(region)")
                inTown += 1
            } else if distance > Gazetteer.townRadius(population: place.population) + 1 {
                let bearing = Geodesy.inverse(place.coordinate, query).initialAzimuth
                let expected =
                    "\(Int((distance / 1000).rounded())) km \(Gazetteer.compassPoint(bearing)) of \(place.name)"
                #expect(label == expected)
                outside += 1
            }
        }
        #expect(inTown > 5 && outside > 5)
    }

    @Test func nothingNamesTheMiddleOfTheOcean() {
        let pacific = Coordinate(latitude: -40, longitude: -130)
        #expect(Self.gazetteer.label(for: pacific) == nil)
        #expect(Self.bruteForceNearest(pacific).distance > Gazetteer.labelLimit)
    }

    @Test func compassPointsAndTownRadii() {
        #expect(
            [0, 44, 46, 90, 135, 180, -179, -90, -46, 359].map(Gazetteer.compassPoint) == [
                "N", "NE", "NE", "E", "SE", "S", "S", "W", "NW", "N",
            ]
        )
        #expect(Gazetteer.townRadius(population: 0) == 2_000)
        #expect(Gazetteer.townRadius(population: 94_192) > 4_000)
        #expect(Gazetteer.townRadius(population: 10_000_000) == 10_000)
    }

    @Test func refusesAFileThatIsNotAGazetteer() throws {
        #expect(throws: GazetteerError.notAGazetteer) { try Gazetteer(copying: Array("not a gazetteer file".utf8)) }
        let whole = Array(try Data(contentsOf: Self.file))
        #expect(throws: GazetteerError.truncated(expected: whole.count, actual: whole.count - 10)) {
            try Gazetteer(copying: Array(whole.dropLast(10)))
        }
    }
}
