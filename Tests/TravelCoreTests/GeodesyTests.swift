import Foundation
import Testing

@testable import TravelCore

/// Checks the WGS84 geodesy against GeographicLib on the 2,950 pairs of
/// Fixtures/geodesic/wgs84-inverse.csv (made by scripts/make-geodesic-fixture.py).
@Suite struct GeodesyTests {
    /// One solved pair from the fixture.
    struct Reference: CustomStringConvertible {
        var start: Coordinate
        var end: Coordinate
        var distance: Double
        var initialAzimuth: Double
        var finalAzimuth: Double

        var description: String {
            "(\(start.latitude), \(start.longitude)) → (\(end.latitude), \(end.longitude))"
        }

        /// Whether the shortest path is one of several, so its azimuths are a convention rather than a fact:
        /// coincident points have no direction at all; two equatorial points more than 180°(1 − f) apart are
        /// joined by a path north of the equator and by its mirror image south of it; and points (φ, λ₁) and
        /// (−φ, λ₂) by a path and its image under the half-turn that swaps them, unless the path is its own image.
        var azimuthsAmbiguous: Bool {
            let longitudeDifference = abs((end.longitude - start.longitude).remainder(dividingBy: 360))
            let beyondEquatorialCut =
                start.latitude == 0 && end.latitude == 0 && longitudeDifference > 180 * (1 - WGS84.flattening)
            // A path that is its own image under the half-turn has equal azimuths at both ends. Exact antipodes,
            // joined over either pole, are one such asymmetric pair.
            let asymmetricMirroredPair =
                start.latitude == -end.latitude && initialAzimuth != finalAzimuth
            return distance == 0 || beyondEquatorialCut || asymmetricMirroredPair
        }

        /// How far the azimuths may differ from GeographicLib's, in degrees. Rounding moves each point by up to
        /// a nanometre, which turns a line of length s by up to 1 nm / s radians: short hops get more room.
        var azimuthTolerance: Double {
            1e-9 + 1e-9 / distance * Degrees.degreesPerRadian
        }
    }

    static func loadReferences() throws -> [Reference] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic/wgs84-inverse.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var references: [Reference] = []
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") && !line.hasPrefix("lat1") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            try #require(fields.count == 7, "bad fixture line: \(line)")
            references.append(
                Reference(
                    start: Coordinate(latitude: fields[0], longitude: fields[1]),
                    end: Coordinate(latitude: fields[2], longitude: fields[3]),
                    distance: fields[4],
                    initialAzimuth: fields[5],
                    finalAzimuth: fields[6]
                )
            )
        }
        return references
    }

    /// |a − b| for azimuths, modulo 360° (−180 and 180 are the same direction).
    static func azimuthError(_ a: Double, _ b: Double) -> Double {
        abs((a - b).remainder(dividingBy: 360))
    }

    @Test func inverseAgreesWithGeographicLib() throws {
        let references = try Self.loadReferences()
        #expect(references.count > 2_900)
        var maxDistanceError = 0.0
        var maxAzimuthError = 0.0
        var azimuthsChecked = 0
        for reference in references {
            let solution = Geodesy.inverse(reference.start, reference.end)
            let distanceError = abs(solution.distance - reference.distance)
            maxDistanceError = max(maxDistanceError, distanceError)
            // Both are accurate to 15 nm; a micrometre (the requirement is a millimetre) leaves room for the
            // rounding of other platforms' libm.
            #expect(distanceError < 1e-6, "distance off by \(distanceError) m for \(reference)")
            #expect(Geodesy.distance(reference.start, reference.end) == solution.distance)
            if reference.azimuthsAmbiguous { continue }
            let azimuthError = max(
                Self.azimuthError(solution.initialAzimuth, reference.initialAzimuth),
                Self.azimuthError(solution.finalAzimuth, reference.finalAzimuth)
            )
            maxAzimuthError = max(maxAzimuthError, azimuthError)
            azimuthsChecked += 1
            #expect(azimuthError < reference.azimuthTolerance, "azimuth off by \(azimuthError)° for \(reference)")
        }
        print(
            "Geodesy.inverse vs GeographicLib: max distance error \(maxDistanceError) m,"
                + " max azimuth error \(maxAzimuthError)° over the \(azimuthsChecked) pairs with a unique path"
        )
    }

    @Test func directReachesTheFixtureEndPoints() throws {
        let references = try Self.loadReferences()
        var maxMiss = 0.0
        for reference in references {
            let end = Geodesy.direct(
                from: reference.start,
                azimuth: reference.initialAzimuth,
                distance: reference.distance
            )
            let miss = Geodesy.distance(end, reference.end)
            maxMiss = max(maxMiss, miss)
            #expect(miss < 1e-6, "direct missed by \(miss) m for \(reference)")
            #expect((-180...180).contains(end.longitude))
        }
        print("Geodesy.direct vs GeographicLib: max miss \(maxMiss) m")
    }

    /// The documented bound of `fastDistance`: within 1e-8 of the distance plus 5 nm for hops up to 10 km.
    @Test func fastDistanceStaysWithinItsDocumentedBound() throws {
        let references = try Self.loadReferences().filter { $0.distance > 0 && $0.distance <= 10_000 }
        #expect(references.count > 700)
        var maxRelativeError = 0.0
        var maxAbsoluteError = 0.0
        for reference in references {
            let error = abs(Geodesy.fastDistance(reference.start, reference.end) - reference.distance)
            maxAbsoluteError = max(maxAbsoluteError, error)
            // Below a metre, nanometres of rounding dominate (near the poles a degree of latitude is
            // only resolved to 1.6 nm), so the relative figure is for longer hops.
            if reference.distance >= 1 {
                maxRelativeError = max(maxRelativeError, error / reference.distance)
            }
            #expect(error < 1e-8 * reference.distance + 5e-9, "fastDistance off by \(error) m for \(reference)")
        }
        print(
            "Geodesy.fastDistance vs GeographicLib, hops up to 10 km: max relative error \(maxRelativeError)"
                + " (hops of 1 m or more), max absolute error \(maxAbsoluteError) m"
        )
    }

    @Test func swappingThePointsReversesThePath() throws {
        for reference in try Self.loadReferences() where !reference.azimuthsAmbiguous {
            let forward = Geodesy.inverse(reference.start, reference.end)
            let backward = Geodesy.inverse(reference.end, reference.start)
            #expect(abs(forward.distance - backward.distance) < 1e-9, "\(reference)")
            let tolerance = reference.azimuthTolerance
            #expect(Self.azimuthError(backward.initialAzimuth, forward.finalAzimuth + 180) < tolerance, "\(reference)")
            #expect(Self.azimuthError(backward.finalAzimuth, forward.initialAzimuth + 180) < tolerance, "\(reference)")
            #expect(
                Geodesy.fastDistance(reference.start, reference.end)
                    == Geodesy.fastDistance(reference.end, reference.start)
            )
        }
    }

    @Test(arguments: [
        Coordinate(latitude: 0, longitude: 0),
        Coordinate(latitude: 90, longitude: 0),
        Coordinate(latitude: -90, longitude: -135),
        Coordinate(latitude: 52.6638, longitude: -8.6267),
        Coordinate(latitude: -33.9, longitude: 180),
        Coordinate(latitude: 1e-300, longitude: -1e-300),
    ])
    func aPointIsAtZeroDistanceFromItself(_ point: Coordinate) {
        let solution = Geodesy.inverse(point, point)
        #expect(solution.distance == 0 && solution.distance.sign == .plus)
        #expect(Geodesy.fastDistance(point, point) == 0)
        #expect(Geodesy.distance(Geodesy.direct(from: point, azimuth: 37, distance: 0), point) < 1e-9)
    }

    @Test func longitudesAreTakenModulo360() {
        let east = Coordinate(latitude: 12.5, longitude: 180)
        let west = Coordinate(latitude: 12.5, longitude: -180)
        #expect(Geodesy.distance(east, west) == 0)
        #expect(Geodesy.fastDistance(east, west) == 0)
        // −73.75 and 286.25 are exact in binary, so these are exactly the same point.
        let a = Coordinate(latitude: 40.6, longitude: -73.75)
        let aWrapped = Coordinate(latitude: 40.6, longitude: 286.25)
        let b = Coordinate(latitude: 49.01666667, longitude: 2.55)
        #expect(Geodesy.inverse(aWrapped, b) == Geodesy.inverse(a, b))
        // fastDistance subtracts the longitudes before reducing them: equal to rounding.
        #expect(abs(Geodesy.fastDistance(aWrapped, b) - Geodesy.fastDistance(a, b)) < 1e-8)
    }

    @Test func latitudesBeyondThePolesGiveNaN() {
        let valid = Coordinate(latitude: 10, longitude: 20)
        let invalid = Coordinate(latitude: 90.5, longitude: 20)
        #expect(Geodesy.distance(valid, invalid).isNaN)
        #expect(Geodesy.inverse(invalid, valid).initialAzimuth.isNaN)
        #expect(Geodesy.direct(from: invalid, azimuth: 0, distance: 1).latitude.isNaN)
        #expect(Geodesy.distance(valid, Coordinate(latitude: 0, longitude: .nan)).isNaN)
    }
}
