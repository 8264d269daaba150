/// Distances from one point to points near it, for the tracking hot path: the WGS84 radii of
/// curvature at the point's latitude turn degree differences into metres with one square root.
///
/// Each fix is compared with a few nearby references (last fix, parking spot, stop centre), so the
/// trigonometry is paid once per fix instead of once per comparison. Within 1 km the error is below
/// 1e-4 of the distance up to 89° of latitude (a fraction of a millimetre at 10 m hops); the
/// detector's thresholds are metres, so this is far below what matters. Use `Geodesy.distance` or
/// `Geodesy.fastDistance` for anything longer or anything stored.
package struct LocalFrame: Sendable {
    package let origin: Coordinate
    private let metresPerDegreeLatitude: Double
    private let metresPerDegreeLongitude: Double

    package init(at origin: Coordinate) {
        self.origin = origin
        let (sinLatitude, cosLatitude) = Degrees.sinCos(origin.latitude)
        let wSquared = 1 - WGS84.eccentricitySquared * sinLatitude * sinLatitude
        let w = wSquared.squareRoot()
        let primeVertical = WGS84.equatorialRadius / w
        let meridional = WGS84.equatorialRadius * (1 - WGS84.eccentricitySquared) / (wSquared * w)
        metresPerDegreeLatitude = meridional * Degrees.radiansPerDegree
        metresPerDegreeLongitude = primeVertical * cosLatitude * Degrees.radiansPerDegree
    }

    /// Metres from the origin to `point`, for points within a kilometre or so.
    @inline(__always)
    package func distance(to point: Coordinate) -> Double {
        let north = (point.latitude - origin.latitude) * metresPerDegreeLatitude
        var east = point.longitude - origin.longitude
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        east *= metresPerDegreeLongitude
        return (north * north + east * east).squareRoot()
    }
}
