/// The GPS week-number rollover of old receivers.
///
/// GPS broadcasts the week number modulo 1024 (about 19.6 years). A receiver whose firmware
/// resolves it against a fixed epoch that has passed reports dates exactly 1024 weeks (or a
/// multiple) too early: a 2026 drive dated 2007. Given the earliest date a real fix can have,
/// such a date is moved forward by whole periods — the only correction that keeps the time of day,
/// the weekday and every interval between fixes.
public enum GPSWeekRollover {
    /// 1024 weeks, in milliseconds.
    public static let period: Int64 = 1024 * 7 * 86_400_000

    /// `time`, or `time` moved forward by the fewest whole periods that make it no earlier than
    /// `earliest`. Times at or after `earliest` are returned as they are.
    public static func corrected(_ time: UTCTime, earliest: UTCTime) -> UTCTime {
        guard time < earliest else { return time }
        let behind = earliest.milliseconds - time.milliseconds
        let periods = (behind + period - 1) / period
        return UTCTime(milliseconds: time.milliseconds + periods * period)
    }
}
