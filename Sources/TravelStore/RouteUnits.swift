package import TravelCore

/// The integer units a route point is stored in, in the database (`route_points_packed`,
/// docs/schema.md) and in the route spool: tenths of a microdegree (1.1 cm), centimetres,
/// centimetres per second and hundredths of a degree.
///
/// Why: a REAL is 8 bytes in a SQLite record whatever its value, these integers 2 to 4, so a route
/// row is about half as wide and every commit writes about half the pages to the WAL and, at the
/// checkpoint, to the database; a spool record is 32 bytes instead of 64. Together the larger part
/// of the card's wear (docs/reliability.md). Finer than any receiver reports: a GPX file's seven
/// decimals round-trip exactly.
package enum RouteUnits {
    /// A route point's values in stored units, each within the bits the spool gives it: only
    /// garbage is cut (an altitude past 21 000 km, a speed past 655 m/s, a negative course).
    struct Stored: Equatable {
        var latitude: Int32
        var longitude: Int32
        var altitude: Int32?
        var speed: UInt16?
        var track: UInt16?
        var horizontalError: Int32?

        init(_ point: RoutePoint) {
            latitude = RouteUnits.signed(point.coordinate.latitude, perDegree)
            longitude = RouteUnits.signed(point.coordinate.longitude, perDegree)
            altitude = point.altitude.map { RouteUnits.signed($0, perMetre) }
            speed = point.speed.map { RouteUnits.unsigned($0, perMetre) }
            track = point.track.map { RouteUnits.unsigned($0, perMetre) }
            horizontalError = point.horizontalError.map { RouteUnits.signed($0, perMetre) }
        }

        init(latitude: Int32, longitude: Int32, altitude: Int32?, speed: UInt16?, track: UInt16?, error: Int32?) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.track = track
            horizontalError = error
        }

        /// The point these values stand for, at `time`, as the `route_points` view reads it.
        func point(at time: UTCTime) -> RoutePoint {
            RoutePoint(
                time: time,
                coordinate: Coordinate(
                    latitude: Double(latitude) / perDegree,
                    longitude: Double(longitude) / perDegree
                ),
                altitude: altitude.map { Double($0) / perMetre },
                speed: speed.map { Double($0) / perMetre },
                track: track.map { Double($0) / perMetre },
                horizontalError: horizontalError.map { Double($0) / perMetre }
            )
        }
    }

    /// Stored units per degree of latitude or longitude.
    static let perDegree = 1e7
    /// Stored units per metre, metre per second, or degree of course.
    static let perMetre = 100.0

    /// `point` as it reads back once stored: what the recorder buffers, so a point read from the
    /// buffer, the spool or the database is the same value.
    package static func rounded(_ point: RoutePoint) -> RoutePoint {
        Stored(point).point(at: point.time)
    }

    /// `value × scale` rounded half away from zero, as SQLite's `round` does, within ±`Int32.max`.
    static func signed(_ value: Double, _ scale: Double) -> Int32 {
        Int32(clamping: value, scale, to: -Double(Int32.max)...Double(Int32.max))
    }

    /// `value × scale` rounded, within `0...UInt16.max`.
    static func unsigned(_ value: Double, _ scale: Double) -> UInt16 {
        UInt16(clamping: value, scale, to: 0...Double(UInt16.max))
    }
}

extension FixedWidthInteger {
    /// `value × scale` rounded half away from zero and clamped to `range` (0 when not finite).
    fileprivate init(clamping value: Double, _ scale: Double, to range: ClosedRange<Double>) {
        self =
            value.isFinite
            ? Self(Swift.min(Swift.max((value * scale).rounded(), range.lowerBound), range.upperBound)) : 0
    }
}
