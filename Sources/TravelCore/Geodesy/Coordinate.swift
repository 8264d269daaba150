/// A point on the WGS84 ellipsoid, in degrees, as receivers report it.
package struct Coordinate: Sendable, Hashable {
    /// Geodetic latitude, degrees north, in [−90, 90]; values outside make geodesy return NaN.
    package var latitude: Double
    /// Longitude, degrees east; any value is accepted and only its value modulo 360 matters.
    package var longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
