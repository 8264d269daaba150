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

    /// The town whose extent holds `coordinate` nearest for its size, by looking at every place.
    static func bruteForceTown(_ coordinate: Coordinate) -> (place: GazetteerPlace, score: Double, runnerUp: Double)? {
        var scores: [(place: GazetteerPlace, score: Double)] = []
        for place in places {
            let distance = Geodesy.fastDistance(coordinate, place.coordinate)
            guard distance <= Gazetteer.maximumTownRadius else { continue }
            scores.append((place, distance / Gazetteer.townRadius(population: place.population)))
        }
        scores.sort { $0.score < $1.score }
        guard let best = scores.first, best.score <= 1 else { return nil }
        return (best.place, best.score, scores.dropFirst().first?.score ?? .infinity)
    }

    @Test func labelsByTheTownHoldingAPointElseByDistanceAndDirectionFromTheNearest() throws {
        var random = SplitMix64(seed: 1000)
        var inTown = 0
        var outside = 0
        for _ in 0..<60 {
            let base = Self.places[Int.random(in: 0..<Self.places.count, using: &random)].coordinate
            let query = Geodesy.direct(from: base, azimuth: 0, distance: Double.random(in: 0..<20_000, using: &random))
            let label = try #require(Self.gazetteer.label(for: query))
            let town = Self.bruteForceTown(query)
            // Ties within the float vectors' and the sphere's error are left out.
            if let town, town.score < 0.995, town.runnerUp > town.score * 1.005 {
                let place = town.place
                let region = place.region.isEmpty || place.region == place.name ? place.country : place.region
                #expect(label == "\(place.name), \(region)", "\(query)")
                inTown += 1
            } else if town == nil {
                let (place, distance) = Self.bruteForceNearest(query)
                let bearing = Geodesy.inverse(place.coordinate, query).initialAzimuth
                let expected =
                    "\(Int((distance / 1000).rounded())) km \(Gazetteer.compassPoint(bearing)) of \(place.name)"
                #expect(label == expected)
                outside += 1
            }
        }
        #expect(inTown > 5 && outside > 5)
    }

    /// Issue 26: in a city of 19 million the nearest GeoNames points are districts of no recorded
    /// people; they named the city: before, these read "4 km N of Jinrongjie", "4 km E of Haidian"
    /// and "4 km SE of Haidian".
    @Test(arguments: [
        (Coordinate(latitude: 39.9489, longitude: 116.3544), "Beijing, China"),
        (Coordinate(latitude: 40.0, longitude: 116.33), "Beijing, China"),
        (Coordinate(latitude: 39.97568, longitude: 116.33054), "Beijing, China"),
        // The bus ride's ends, as the README shows them: Limerick is 3.6 km from the end, Castletroy 1.2 km.
        (Coordinate(latitude: 52.629151, longitude: -8.661746), "Limerick, Munster"),
        (Coordinate(latitude: 52.672777, longitude: -8.570741), "Castletroy, Munster"),
        // 45 km from Beijing's point, beyond its 30 km: the nearest place names it.
        (Coordinate(latitude: 40.31, longitude: 116.40), "16 km NE of Chengbei"),
    ])
    func namesTheCityAroundAPoint(coordinate: Coordinate, expected: String) {
        #expect(Self.gazetteer.label(for: coordinate) == expected)
    }

    @Test func nothingNamesTheMiddleOfTheOcean() {
        let pacific = Coordinate(latitude: -40, longitude: -130)
        #expect(Self.gazetteer.label(for: pacific) == nil)
        #expect(Self.bruteForceNearest(pacific).distance > Gazetteer.labelLimit)
    }

    @Test func compassPoints() {
        #expect(
            [0, 44, 46, 90, 135, 180, -179, -90, -46, 359].map(Gazetteer.compassPoint) == [
                "N", "NE", "NE", "E", "SE", "S", "S", "W", "NW", "N",
            ]
        )
    }

    @Test func refusesAFileThatIsNotAGazetteer() throws {
        #expect(throws: GazetteerError.notAGazetteer) { try Gazetteer(copying: Array("not a gazetteer file".utf8)) }
        let whole = Array(try Data(contentsOf: Self.file))
        #expect(throws: GazetteerError.truncated(expected: whole.count, actual: whole.count - 10)) {
            try Gazetteer(copying: Array(whole.dropLast(10)))
        }
    }
}
