/// A local tangent plane: degrees to metres east and north of an origin, with the WGS84 radii of
/// curvature at the origin's latitude. Zones are tested in it, so a polygon's edges are straight
/// lines in metres and distances to them need no trigonometry per fix.
///
/// Accurate to about 0.1 % of the offset within 50 km of the origin; zones are smaller than that.
package struct PlanarFrame: Sendable, Hashable {
    package let origin: Coordinate
    /// Metres per degree of latitude and of longitude at the origin.
    package let metresPerDegreeLatitude: Double
    package let metresPerDegreeLongitude: Double

    package init(at origin: Coordinate) {
        self.origin = origin
        let (sinLatitude, cosLatitude) = Degrees.sinCos(origin.latitude)
        let wSquared = 1 - WGS84.eccentricitySquared * sinLatitude * sinLatitude
        let w = wSquared.squareRoot()
        metresPerDegreeLatitude =
            WGS84.equatorialRadius * (1 - WGS84.eccentricitySquared) / (wSquared * w) * Degrees.radiansPerDegree
        metresPerDegreeLongitude = WGS84.equatorialRadius / w * cosLatitude * Degrees.radiansPerDegree
    }

    /// `point` in metres east and north of the origin.
    @inline(__always)
    package func project(_ point: Coordinate) -> PlanarPoint {
        var east = point.longitude - origin.longitude
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        return PlanarPoint(
            x: east * metresPerDegreeLongitude,
            y: (point.latitude - origin.latitude) * metresPerDegreeLatitude
        )
    }

    /// The coordinate `point` metres east and north of the origin.
    package func unproject(_ point: PlanarPoint) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + point.y / metresPerDegreeLatitude,
            longitude: origin.longitude + point.x / max(metresPerDegreeLongitude, 1e-9)
        )
    }
}

/// Metres east (`x`) and north (`y`) in a `PlanarFrame`.
package struct PlanarPoint: Sendable, Hashable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
