/// GPS time between fixes: the time of the last fix carried forward on a monotonic clock.
///
/// A board without a real-time clock boots with its system clock years off, and NTP may step it
/// later; neither may reach the history. The monotonic clock never jumps, so the time of the
/// last fix plus the monotonic time since it arrived is the best "now" there is, and the only one
/// the daemon trusts (for the "fix in the future" check, reminders and `--at now`).
package struct GPSClock: Sendable {
    /// The last fix's time and the monotonic reading (nanoseconds) when it arrived.
    private var anchor: (gps: UTCTime, monotonicNanoseconds: Int64)?

    package init() {}

    /// Sets the clock from a fix dated `gps` that arrived at the monotonic instant given.
    package mutating func synchronize(to gps: UTCTime, monotonicNanoseconds: Int64) {
        anchor = (gps, monotonicNanoseconds)
    }

    /// GPS time at the monotonic instant given, or `nil` before the first fix.
    package func now(monotonicNanoseconds: Int64) -> UTCTime? {
        guard let anchor else { return nil }
        let elapsed = (monotonicNanoseconds - anchor.monotonicNanoseconds) / 1_000_000
        return UTCTime(milliseconds: anchor.gps.milliseconds + elapsed)
    }

}
