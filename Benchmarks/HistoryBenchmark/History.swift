import TravelCore
import TravelStore

/// A generated history: `days` days of driving around a home in Istria, through the store's own
/// recorder (the path live tracking and imports take), then grouped into journeys.
///
/// Each day is a loop of trips from home back home, alternately five and six trips long (about
/// 20 000 trips in ten years); every seventh day the loop reaches 60 km out (a `day` journey),
/// every thirtieth it stays away two nights (`multi-day`). Every trip has `pointsPerTrip` 1 Hz
/// route points on the straight line between its ends.
enum History {
    static let home = Coordinate(latitude: 45.283_10, longitude: 13.721_20)
    /// 2016-01-01 00:00 UTC.
    static let firstDay = UTCTime(year: 2016, month: 1, day: 1)!

    static func write(to path: String, days: Int, pointsPerTrip: Int) throws -> (trips: Int, points: Int) {
        let database = try TravelDatabase(path: path)
        var trips = 0
        var here = home
        var awayUntil = -1
        for day in 0..<days {
            let stops = stopsOfDay(day, awayUntil: &awayUntil)
            let dayStart = firstDay.adding(seconds: Double(day) * 86_400 + 7 * 3600)
            for (index, stop) in stops.enumerated() {
                let start = dayStart.adding(seconds: Double(index) * 3600)
                for event in trip(from: here, to: stop, at: start, points: pointsPerTrip) { database.record(event) }
                here = stop
                trips += 1
            }
            if database.pendingCount >= 50_000 { try database.flush() }
        }
        try database.flush()
        return (trips, trips * pointsPerTrip)
    }

    /// Where the day's trips end, in order; the last is home unless the vehicle stays away (the
    /// day after a multi-day start it makes one trip there; the next day's loop brings it home).
    private static func stopsOfDay(_ day: Int, awayUntil: inout Int) -> [Coordinate] {
        let count = day.isMultiple(of: 2) ? 5 : 6
        let reach: Double = day.isMultiple(of: 7) ? 60 : 8  // km north-east at the loop's far end
        var stops = (1..<count).map { index -> Coordinate in
            let fraction = Double(min(index, count - index)) / Double(count / 2)
            return offset(north: reach * fraction, east: Double(index) * 0.7)
        }
        if day.isMultiple(of: 30) {
            awayUntil = day + 2
            stops[stops.count - 1] = offset(north: 90, east: 20)
            return stops
        }
        if day < awayUntil { return [offset(north: 92, east: 21)] }
        stops.append(home)
        return stops
    }

    private static func offset(north: Double, east: Double) -> Coordinate {
        Coordinate(latitude: home.latitude + north / 111.13, longitude: home.longitude + east / 78.5)
    }

    /// The events the engine emits for a 1 Hz drive from `from` to `to` starting at `start`.
    private static func trip(from: Coordinate, to: Coordinate, at start: UTCTime, points: Int) -> [TrackingEvent] {
        var summary = TripSummary(startTime: start, endTime: start, start: from, end: from)
        var events: [TrackingEvent] = [.tripStarted(summary)]
        events.reserveCapacity(points + 2)
        var previous = from
        var distance = 0.0
        for index in 0..<points {
            let fraction = Double(index) / Double(max(points - 1, 1))
            let position = Coordinate(
                latitude: from.latitude + (to.latitude - from.latitude) * fraction,
                longitude: from.longitude + (to.longitude - from.longitude) * fraction
            )
            distance += Geodesy.fastDistance(previous, position)
            previous = position
            let point = RoutePoint(
                time: start.adding(seconds: Double(index)),
                coordinate: position,
                altitude: 120,
                speed: 14,
                track: 45,
                horizontalError: 4
            )
            events.append(.routePoint(tripStart: start, point))
        }
        summary.endTime = start.adding(seconds: Double(points - 1))
        summary.end = to
        summary.distance = distance
        summary.movingTime = Double(points - 1)
        summary.maximumSpeed = 14
        summary.pointCount = points
        summary.endReason = .parked
        events.append(.tripEnded(summary))
        return events
    }
}

extension TravelDatabase {
    /// Calls `body` with each of `trips` (oldest first, as `trips(…)` returns them) and its
    /// route, in order, one trip's route in memory at a time (see `RouteCursor`).
    func forEachRoute(of trips: [TripRecord], _ body: (TripRecord, [RoutePoint]) throws -> Void) throws {
        var cursor = try routeCursor(of: trips)
        while let next = try cursor.next() { try body(next.0, next.1) }
    }
}
