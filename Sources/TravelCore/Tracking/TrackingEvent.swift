/// One accepted fix kept as part of a trip's route.
package struct RoutePoint: Sendable, Hashable {
    package var time: UTCTime
    package var coordinate: Coordinate
    /// Altitude above mean sea level, metres.
    package var altitude: Double?
    /// Speed over ground, m/s.
    package var speed: Double?
    /// Course over ground, degrees true.
    package var track: Double?
    /// Estimated horizontal error, metres.
    package var horizontalError: Double?

    package init(
        time: UTCTime,
        coordinate: Coordinate,
        altitude: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        horizontalError: Double? = nil
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.horizontalError = horizontalError
    }
}

extension Fix {
    /// The accepted fix a route point was made from, for replaying stored routes through the
    /// engine (a resuming daemon catching up).
    package init(routePoint point: RoutePoint) {
        self.init(
            time: point.time,
            mode: .threeD,
            latitude: point.coordinate.latitude,
            longitude: point.coordinate.longitude,
            altitudeMSL: point.altitude,
            speed: point.speed,
            track: point.track,
            horizontalError: point.horizontalError
        )
    }
}

/// Why a trip ended.
package enum TripEndReason: String, Sendable, Hashable {
    /// The vehicle stayed in one place long enough to count as parked.
    case parked
    /// Fixes stopped (power cut, receiver off) for longer than a stop may last.
    case dataGap = "data-gap"
    /// The log being imported ended.
    case endOfInput = "end-of-input"
    /// GPS time stepped back and stayed there (`FixFilter`): nothing measured across the step
    /// means anything, so the trip ended at its last fix before it.
    case timeStep = "time-step"
    /// Ended by hand.
    case manual
}

/// A finished (or, with `endReason == nil`, ongoing) trip as the engine measured it.
package struct TripSummary: Sendable, Hashable {
    /// Back-dated to the moment the vehicle left its parking place. Also the trip's stable key.
    package var startTime: UTCTime
    /// Back-dated to arrival; for an ongoing trip, the last fix so far.
    package var endTime: UTCTime
    package var start: Coordinate
    package var end: Coordinate
    /// Ellipsoidal length of the route, metres, without parked GPS drift.
    package var distance: Double
    /// Seconds spent moving (above the stationary speed).
    package var movingTime: Double
    /// Highest speed seen, m/s.
    package var maximumSpeed: Double
    /// Route points between start and end.
    package var pointCount: Int
    package var endReason: TripEndReason?

    package init(
        startTime: UTCTime,
        endTime: UTCTime,
        start: Coordinate,
        end: Coordinate,
        distance: Double = 0,
        movingTime: Double = 0,
        maximumSpeed: Double = 0,
        pointCount: Int = 0,
        endReason: TripEndReason? = nil
    ) {
        self.startTime = startTime
        self.endTime = endTime
        self.start = start
        self.end = end
        self.distance = distance
        self.movingTime = movingTime
        self.maximumSpeed = maximumSpeed
        self.pointCount = pointCount
        self.endReason = endReason
    }

    /// Seconds from start to end.
    package var duration: Double { endTime.seconds(since: startTime) }

    /// Distance over duration, m/s (0 for an instant trip).
    package var averageSpeed: Double { duration > 0 ? distance / duration : 0 }
}

/// What the tracking engine concluded from a fix. The store persists these; the daemon also
/// logs them. Replaying a log gives the same events as the live run did.
package enum TrackingEvent: Sendable, Hashable {
    /// A fix was turned away by the quality filter.
    case fixRejected(time: UTCTime?, reason: FixRejection)
    /// The vehicle left its parking place; `trip.startTime` is back-dated to the moment it left.
    case tripStarted(TripSummary)
    /// A point of the route of the trip that started at `tripStart`.
    case routePoint(tripStart: UTCTime, RoutePoint)
    /// The trip ended; its end is back-dated to arrival. Route points after `endTime` that were
    /// already emitted belong to the stop, not the trip.
    case tripEnded(TripSummary)
    /// The vehicle entered or left a zone (back-dated to the first fix clearly on the new side).
    case zone(ZoneEvent)
    /// The vehicle came within a POI's alert radius.
    case nearby(NearbyAlert)
}
