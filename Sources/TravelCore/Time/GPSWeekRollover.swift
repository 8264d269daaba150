/// The GPS week-number rollover of old receivers.
///
/// GPS broadcasts the week number modulo 1024 (about 19.6 years). A receiver whose firmware
/// resolves it against a fixed epoch that has passed reports dates exactly 1024 weeks (or a
/// multiple) too early: a 2026 drive dated 2007. Such a date is moved forward by whole periods —
/// the only correction that keeps the time of day, the weekday and every interval between fixes.
///
/// A date is moved only on evidence (`redated`): an old date is also what a genuine old log
/// carries, and only NMEA dates come straight from the receiver's firmware.
package enum GPSWeekRollover {
    /// 1024 weeks, in milliseconds.
    package static let period: Int64 = 1024 * 7 * 86_400_000

    /// `time`, or `time` moved forward by the fewest whole periods that make it no earlier than
    /// `earliest`. Times at or after `earliest` are returned as they are.
    package static func corrected(_ time: UTCTime, earliest: UTCTime) -> UTCTime {
        guard time < earliest else { return time }
        let behind = earliest.milliseconds - time.milliseconds
        let periods = (behind + period - 1) / period
        return UTCTime(milliseconds: time.milliseconds + periods * period)
    }

    /// The real time of a fix dated `time`, or `nil` when the date stands as it is.
    ///
    /// - GPX and gpsd JSON dates are real: a GPX file is written by software that knows the date,
    ///   and gpsd resolves the week rollover itself. Only an NMEA date is a candidate.
    /// - A candidate is dated before `earliest` (`[Tracking] EarliestFixDate`) or before
    ///   `evidence.floor` (a live fix cannot predate the program receiving it). It is moved by
    ///   the fewest whole periods that bring it to the later of the two.
    /// - The move is made only when the evidence allows it: the moved date must not be after
    ///   `evidence.now` (plus `tolerance` seconds, for a system clock a little behind GPS), so
    ///   nothing is ever moved into the future; without a trusted present, only a date before
    ///   the floor is moved (it cannot be real as it is).
    ///
    /// So an NMEA log of 2018 imported in 2026 keeps 2018 (2038 would be in the future), and a
    /// 2026 drive that a rolled-over receiver dates 2007 is stored in 2026.
    package static func redated(
        _ time: UTCTime,
        source: FixSource,
        earliest: UTCTime,
        evidence: TimeEvidence,
        tolerance: Double = 0
    ) -> UTCTime? {
        guard source == .nmea else { return nil }
        let floor = max(earliest, evidence.floor ?? earliest)
        guard time < floor else { return nil }
        let moved = corrected(time, earliest: floor)
        if let now = evidence.now {
            return moved.seconds(since: now) <= tolerance ? moved : nil
        }
        if let trustedFloor = evidence.floor, time < trustedFloor { return moved }
        return nil
    }
}

/// What the edge knows about the present, handed to the clock-free core so that re-dating a
/// fix (`GPSWeekRollover.redated`) stays deterministic.
package struct TimeEvidence: Sendable, Hashable {
    /// A trusted present, after which no fix is moved: the system clock at import time, or a
    /// live system clock once it is plausible (not before `floor`). `nil` when unknown.
    package var now: UTCTime?
    /// A trusted past, before which a live fix cannot be real: the build date of the program.
    /// `nil` for logs, which may be as old as they like.
    package var floor: UTCTime?

    package init(now: UTCTime? = nil, floor: UTCTime? = nil) {
        self.now = now
        self.floor = floor
    }

    /// No evidence: no date is moved.
    package static let none = TimeEvidence()
}
