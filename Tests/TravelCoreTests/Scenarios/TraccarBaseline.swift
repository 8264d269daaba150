@testable import TravelCore
@testable import TravelDecoding

/// Traccar's default trip detection, re-implemented (not copied) from its documentation
/// (traccar.org/trips-stops) and the behaviour of its `MotionProcessor` and trips report, to
/// score the best-known open tracker on the same scenarios.
///
/// With the defaults (`report.trip.*`, `event.motion.speedThreshold`, `useIgnition` off):
/// - a position is "in motion" when its reported speed exceeds 0.01 knots;
/// - a change of motion is a candidate, confirmed when the new motion holds without a single
///   interruption for `minimalTripDuration` (300 s) or, to start a trip, while the odometer
///   advances `minimalTripDistance` (500 m); to stop, for `minimalParkingDuration` (300 s). Any
///   position with the old motion cancels the candidate. The trip starts (ends) at the
///   candidate's position;
/// - a gap in positions of `minimalNoDataDuration` (1 h) during a trip ends it at the last
///   position before the gap;
/// - the odometer adds every position-to-position distance (no filter by default) and a trip's
///   distance is the odometer difference; a trip still open when the data ends ends there.
struct TraccarBaseline {
    /// Knots, compared with the receiver's reported speed.
    var speedThreshold = 0.01
    var minimalTripDuration = 300.0
    var minimalTripDistance = 500.0
    var minimalParkingDuration = 300.0
    var minimalNoDataDuration = 3600.0

    private static let metresPerSecondPerKnot = 1852.0 / 3600

    func trips(_ fixes: [Fix]) -> [DetectedTrip] {
        let positions = fixes.filter { $0.hasPosition && $0.time != nil }
        guard !positions.isEmpty else { return [] }
        let coordinates = positions.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) }
        var odometer = [0.0]
        for index in positions.indices.dropFirst() {
            odometer.append(odometer[index - 1] + Geodesy.distance(coordinates[index - 1], coordinates[index]))
        }
        func time(_ index: Int) -> UTCTime { positions[index].time! }
        func isInMotion(_ index: Int) -> Bool {
            (positions[index].speed ?? 0) / Self.metresPerSecondPerKnot > speedThreshold
        }

        var trips: [DetectedTrip] = []
        var tripStart: Int?
        func endTrip(at end: Int) {
            if let start = tripStart {
                trips.append(
                    DetectedTrip(start: time(start), end: time(end), distance: odometer[end] - odometer[start])
                )
            }
            tripStart = nil
        }
        // The confirmed state, the state of the latest position, and the pending change.
        var moving = isInMotion(0)
        var latest = moving
        var candidate: Int?
        if moving { tripStart = 0 }
        for index in positions.indices.dropFirst() {
            let inMotion = isInMotion(index)
            if moving, time(index).seconds(since: time(index - 1)) >= minimalNoDataDuration {
                (moving, latest, candidate) = (false, false, nil)
                endTrip(at: index - 1)
                continue
            }
            guard inMotion == latest else {
                latest = inMotion
                candidate = inMotion == moving ? nil : index
                continue
            }
            guard let since = candidate else { continue }
            let held = time(index).seconds(since: time(since))
            if inMotion, held >= minimalTripDuration || odometer[index] - odometer[since] >= minimalTripDistance {
                (moving, candidate, tripStart) = (true, nil, since)
            } else if !inMotion, held >= minimalParkingDuration {
                (moving, candidate) = (false, nil)
                endTrip(at: since)
            }
        }
        endTrip(at: positions.count - 1)
        return trips
    }
}
