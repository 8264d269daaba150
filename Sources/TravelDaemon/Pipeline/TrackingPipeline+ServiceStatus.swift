internal import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// One line for `systemctl status` (sd_notify `STATUS=`): the fix, then the trip in progress.
    /// "3D fix, 9 sats — trip since 07:31: 12.3 km, 18min", "no fix — parked".
    package func serviceStatus() -> String {
        let fix: String
        if let last = lastFix, last.hasPosition {
            let mode = last.mode == .threeD ? "3D fix" : "2D fix"
            fix = last.satellitesUsed.map { "\(mode), \($0) sats" } ?? mode
        } else {
            fix = "no fix"
        }
        guard let trip = recorder.engine.currentTrip else { return "\(fix) — parked" }
        let (_, millisecond) = trip.startTime.dayAndTimeOfDay
        let clock = "\(Self.twoDigits(millisecond / 3_600_000)):\(Self.twoDigits(millisecond / 60_000 % 60))"
        return
            "\(fix) — trip since \(clock) UTC: \(HumanText.distance(trip.distance)), \(HumanText.duration(trip.duration))"
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
