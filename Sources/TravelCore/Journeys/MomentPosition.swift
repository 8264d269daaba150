/// Where the vehicle was at a past moment (a note's or a photo's time), from its stored route.
///
/// Inside a trip the position is interpolated between the two route points around the moment,
/// linearly in time: at 1 Hz they are a few metres apart, so the straight line between them is
/// the road to within the receiver's own error. Parked, the vehicle is where it stopped. Outside
/// every trip and every known stop (before the history starts, or while the receiver was off and
/// the vehicle moved unrecorded) there is no position: a guess would put photos in the wrong town.
package enum MomentPosition {
    /// The position at `time` between `before` and `after`, two consecutive points of one route
    /// with `before.time <= time <= after.time`. Crossing the antimeridian takes the short way.
    package static func interpolate(at time: UTCTime, between before: RoutePoint, and after: RoutePoint) -> Coordinate {
        let span = after.time.milliseconds - before.time.milliseconds
        guard span > 0 else { return before.coordinate }
        let fraction = min(max(Double(time.milliseconds - before.time.milliseconds) / Double(span), 0), 1)
        var longitudeStep = after.coordinate.longitude - before.coordinate.longitude
        if longitudeStep > 180 { longitudeStep -= 360 } else if longitudeStep < -180 { longitudeStep += 360 }
        return Coordinate(
            latitude: before.coordinate.latitude + fraction * (after.coordinate.latitude - before.coordinate.latitude),
            longitude: Degrees.normalized(before.coordinate.longitude + fraction * longitudeStep)
        )
    }
}
