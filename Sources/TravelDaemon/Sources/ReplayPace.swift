internal import TravelCore

/// When each fix of a replayed log is due, counted from the start of the replay: the log's own
/// times divided by the speed. Pure, so its tests need no clock.
struct ReplayPace {
    /// 1 replays as recorded, 10 ten times faster, 0 as fast as possible.
    let speed: Double
    private var first: UTCTime?
    private var latest = Duration.zero

    init(speed: Double) { self.speed = speed }

    /// How long after the start the fix stamped `time` is due, or `nil` when it is due at once
    /// (no pacing, or no time yet). A fix stamped earlier than one before it is due at once:
    /// receivers do step back, and a replay never waits for them.
    mutating func due(_ time: UTCTime?) -> Duration? {
        guard speed > 0, let time else { return nil }
        guard let first else {
            first = time
            return .zero
        }
        let offset = Duration.milliseconds(Double(time.milliseconds - first.milliseconds) / speed)
        latest = max(latest, offset)
        return latest
    }
}
