import TravelCore

/// Builds the events the tracking engine emits for simple drives, for recorder tests.
enum SampleDrive {
    /// 2026-11-21 08:00:00 UTC.
    static let morning = UTCTime(year: 2026, month: 11, day: 21, hour: 8)!

    /// A trip of `points` 1 Hz route points heading north-east from `origin`, starting at `start`,
    /// followed by `trailing` points after its back-dated end (emitted before the engine knew it
    /// had stopped), then its end.
    static func trip(
        startingAt start: UTCTime = morning,
        points: Int = 10,
        trailing: Int = 0,
        from origin: Coordinate = Coordinate(latitude: 52.512_34, longitude: 13.401_23),
        endReason: TripEndReason = .parked
    ) -> [TrackingEvent] {
        let route = (0..<(points + trailing)).map { index in
            RoutePoint(
                time: start.adding(seconds: Double(index)),
                coordinate: Coordinate(
                    latitude: origin.latitude + Double(index) * 0.0001,
                    longitude: origin.longitude + Double(index) * 0.0001
                ),
                altitude: 35,
                speed: 12.5,
                track: 45,
                horizontalError: index.isMultiple(of: 2) ? 3 : nil
            )
        }
        let last = route[points - 1]
        var summary = TripSummary(startTime: start, endTime: start, start: origin, end: origin)
        let started = TrackingEvent.tripStarted(summary)
        summary.endTime = last.time
        summary.end = last.coordinate
        summary.distance = Double(points - 1) * 13.6
        summary.movingTime = Double(points - 1)
        summary.maximumSpeed = 12.5
        summary.pointCount = points
        summary.endReason = endReason
        return [started] + route.map { .routePoint(tripStart: start, $0) } + [.tripEnded(summary)]
    }
}
