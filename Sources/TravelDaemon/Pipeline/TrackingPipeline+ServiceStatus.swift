internal import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// One line for `systemctl status` (sd_notify `STATUS=`): the fix, then the trip in progress.
    /// "3D fix, 9 sats — trip since 07:31: 12.3 km, 18 min", "no fix — parked"; the start in the
    /// `[Journeys] TimeZone`, as the event messages give it.
    package func serviceStatus() -> String {
        let fix: String
        if let last = lastFix, last.hasPosition {
            let mode = last.mode == .threeD ? "3D fix" : "2D fix"
            fix = last.satellitesUsed.map { "\(mode), \($0) sats" } ?? mode
        } else {
            fix = "no fix"
        }
        guard let trip = recorder.engine.currentTrip else { return "\(fix) — parked" }
        let clock = HumanText.localTime(trip.startTime, in: timeZone).suffix(5)
        return
            "\(fix) — trip since \(clock): \(HumanText.distance(trip.distance)), \(HumanText.duration(trip.duration))"
    }
}
