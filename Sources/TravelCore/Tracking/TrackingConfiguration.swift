/// Every threshold of the fix filter and the trip detector, with its default and the reason.
///
/// Defaults are chosen for a car or van logging at 1 Hz; all are configuration keys (section
/// `[Tracking]`) so an operator can tune them without rebuilding.
package struct TrackingConfiguration: Sendable, Hashable {
    // MARK: Fix filter

    /// Fixes whose estimated horizontal error exceeds this are rejected (metres). 50 m keeps
    /// urban-canyon fixes, drops the wild ones a cold or obstructed receiver reports.
    package var maximumHorizontalError = 50.0
    /// Used when a fix has no error estimate: HDOP above this is rejected. HDOP 10 ≈ 50 m.
    package var maximumHDOP = 10.0
    /// A fix implying more than this speed from the last accepted one is a jump, not a drive
    /// (m/s). 55 m/s ≈ 200 km/h, the seed apps' bound.
    package var maximumSpeed = 55.0
    /// Fixes this far (seconds) ahead of the reference clock are rejected, when a trusted clock
    /// is given (the daemon's, once set from GPS), unless a run of them shows the receiver's time
    /// moved on for good (`FixFilter.confirmationsInFuture`). One day tolerates any time zone mistake.
    package var maximumFutureSkew = 86_400.0
    /// The earliest date (`YYYY-MM-DD`, UTC) a fix can really have. An earlier NMEA date may come
    /// from a receiver with the GPS week-rollover bug and is moved forward by whole 1024-week
    /// periods when the evidence allows (`GPSWeekRollover.redated`): a 2026 drive its firmware
    /// dates 2007 is stored in 2026, an NMEA log of 2018 stays in 2018.
    package var earliestFixDate = "2019-01-01"

    /// `earliestFixDate` at midnight UTC (the configuration checked it is a date).
    package var earliestFixTime: UTCTime {
        UTCTime(milliseconds: (LocalDate(parsing: earliestFixDate)?.day ?? 0) * 86_400_000)
    }

    // MARK: Trip detector

    /// Distance from the parking spot (metres) that confirms a departure. Parked receivers
    /// drift 5–30 m with outliers; two consecutive fixes beyond 80 m are a real move.
    package var departureRadius = 80.0
    /// Fixes within this distance (metres) of the parking spot are "still there": the trip
    /// start is back-dated to the last of them, the end to the first of them.
    package var stationaryRadius = 25.0
    /// A stop is a stay within this radius (metres); 50 m covers drift and manoeuvring in a
    /// car park, while a creeping jam leaves it within minutes.
    package var stopRadius = 50.0
    /// A stop shorter than this (seconds) never ends a trip: traffic lights, bus stops, level
    /// crossings and jams. Five minutes, as most trackers use; the end is back-dated anyway.
    package var minimumParkingDuration = 300.0
    /// A loss of fixes this long (seconds) across a restart of the receiver or the daemon, while
    /// standing still, counts as parking (ignition off, power cut), so restarting from the same
    /// spot is a new trip. Without a restart, silence is stop time: many loggers record nothing
    /// while stationary.
    package var parkedGap = 120.0
    /// A loss of fixes this long (seconds) ends the trip at the last fix before it, wherever the
    /// vehicle reappears. Shorter gaps while moving are tunnels and car parks under roofs.
    package var maximumGap = 600.0
    /// Trips shorter than this (metres) are not trips: moving the car within a car park.
    package var minimumTripDistance = 300.0
    /// Trips shorter than this (seconds) are not trips: a receiver's cold start wanders a few
    /// hundred metres in seconds while standing still.
    package var minimumTripDuration = 60.0
    /// Trips seen in fewer fixes than this are not trips: a single jump after an outage (a stale
    /// position corrected) is not a drive. Five allows sparse loggers (one fix a minute).
    package var minimumTripPoints = 5
    /// Movement smaller than this (metres) is not added to the distance: drift while standing
    /// must not add kilometres.
    package var distanceStep = 8.0
    /// Above this speed (m/s) the vehicle counts as moving, for the moving time.
    package var movingSpeed = 1.0

    /// Zone enter/exit thresholds (section `[Zones]`).
    package var zones = ZoneRules()
    /// Nearby-alert radii, hysteresis and cooldown (section `[POI]`).
    package var nearby = NearbyRules()

    package init() {}
}
