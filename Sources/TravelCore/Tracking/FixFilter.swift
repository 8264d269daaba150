/// The quality gate between the receiver and the trip detector (docs/domain.md, "Accepted fix").
///
/// A fix is accepted when it has a 2D/3D position and a date, its error estimate is within
/// bounds, its time moves forward, it is not impossibly far from the last accepted fix and not
/// in the future of a trusted clock. Every rejection is counted by reason.
///
/// Time is judged by the epochs around a fix, not by one epoch alone, so that one bad date costs
/// one epoch:
/// - An epoch far ahead of the last accepted one (`jumpAhead`, `jumpFactor`) is held: it is
///   accepted (late, with the epochs held after it) once `confirmationsAhead` more epochs continue
///   from it, and rejected as `time-jump` as soon as an epoch continues the old time instead.
///   A receiver that was off or lost the sky confirms at once; a single epoch dated hours ahead
///   is dropped, where accepting it would turn every correct fix after it away until GPS time
///   caught up with it (and save it as the resume point).
/// - An epoch before the last accepted one is rejected as `time-not-forward`, unless, from a live
///   receiver (a reference clock is given), it starts a run of `confirmationsBehind` epochs that
///   move forward among themselves: then GPS time really stepped back (a receiver learning the
///   leap seconds, a firmware fault), and the filter re-bases on it (`Decision.rebased`),
///   accepting the run. A log's older fixes are history read again (a replay restarted from its
///   beginning, an import), never a step.
/// - An epoch dated exactly as the last one is a `duplicate`: dropped, and no sign of trouble.
package struct FixFilter: Sendable {
    package let configuration: TrackingConfiguration

    /// What became of the fixes offered so far, in order. One offered fix may decide several
    /// held before it (all accepted, or all rejected), or nothing yet (it is held).
    package enum Decision: Sendable, Hashable {
        case accepted(Fix)
        case rejected(Fix, FixRejection)
        /// GPS time stepped back from `from` (the last accepted fix) to `to` and stayed there:
        /// the fixes accepted after this decision are on the new time base.
        case rebased(from: UTCTime, to: UTCTime)
        /// GPS time moved ahead of the reference clock (`from`) for good: a run of
        /// `confirmationsInFuture` epochs outweighed it, and the fix accepted next, at `to`, is
        /// the first on the new time.
        case movedAhead(from: UTCTime, to: UTCTime)
    }

    /// A step forward (seconds) past which an epoch waits for the next ones to confirm its time,
    /// when it is also `jumpFactor` times the step between the last two accepted fixes (the
    /// receiver's cadence: a logger of one fix a minute steps a minute). Confirming costs only the
    /// latency of `confirmationsAhead` epochs.
    package static let jumpAhead = 5.0
    /// See `jumpAhead`.
    package static let jumpFactor = 4.0
    /// Epochs that must continue from a held epoch before it is believed.
    package static let confirmationsAhead = 2
    /// Epochs in a row, moving forward among themselves but behind the last accepted fix, that
    /// make a step back of GPS time rather than a few stale epochs.
    package static let confirmationsBehind = 5

    /// Epochs in a row dated more than `maximumFutureSkew` ahead of the reference clock, each
    /// later than the one before by at most `futureRunStep`, that make the reference wrong rather
    /// than the epochs: the receiver's time base moved on for good while the daemon ran (its date
    /// was wrong before, or it is a different receiver). A restart would take the new time at
    /// once, having no reference yet; a run that long does the same without one. A single corrupt
    /// date, or a few, stay `in-future`.
    package static let confirmationsInFuture = 10
    /// See `confirmationsInFuture`: seconds, a receiver's slowest cadence.
    package static let futureRunStep = 60.0
    /// The run of epochs ahead of the reference so far: how many, and the newest one's time.
    private var future: (count: Int, newest: UTCTime)?

    /// The last accepted fix: what "forward in time" and "no impossible jump" compare with.
    private(set) var last: (time: UTCTime, coordinate: Coordinate)?
    /// Seconds between the last two accepted fixes: the cadence a step ahead is measured by.
    private var cadence: Double?
    /// Epochs held after a step ahead of `last` (the step's epoch first), each later than the one before.
    private var ahead: [Fix] = []
    /// Epochs behind `last`, each later than the one before, that may be a step back of GPS time.
    private var behind: [Fix] = []
    /// Consecutive jump rejections: if the receiver keeps insisting, the earlier fix was the
    /// outlier (or the vehicle was moved while off), so the filter re-anchors.
    private var jumpsInARow = 0
    private static let jumpsBeforeReanchoring = 5

    package init(configuration: TrackingConfiguration) {
        self.configuration = configuration
    }

    /// Resumes after a restart from the last accepted fix and the epochs held then.
    init(configuration: TrackingConfiguration, last: (time: UTCTime, coordinate: Coordinate)?, held: Held = .init()) {
        self.configuration = configuration
        self.last = last
        ahead = held.ahead
        behind = held.behind
    }

    /// The epochs waiting for the next ones, as a restart must keep them: a fix held when the
    /// daemon stops is decided after it starts again, not lost.
    struct Held: Sendable, Hashable {
        var ahead: [Fix] = []
        var behind: [Fix] = []
    }

    var held: Held { Held(ahead: ahead, behind: behind) }

    /// Whether epochs are waiting for the next ones to decide their time.
    package var isHolding: Bool { !ahead.isEmpty || !behind.isEmpty }

    /// Offers `fix`; returns what was decided, in order (nothing while it is held).
    /// `referenceTime` is a trusted clock (the daemon's, once disciplined by GPS), or `nil` when
    /// there is none (imports).
    package mutating func offer(_ fix: Fix, referenceTime: UTCTime? = nil) -> [Decision] {
        var decisions = decide(fix, referenceTime: referenceTime)
        // Only a run of `confirmationsInFuture` epochs gets a fix accepted this far ahead of the
        // reference: said once, before the first of them, as a step back is.
        if let referenceTime,
            let index = decisions.firstIndex(where: {
                if case .accepted(let fix) = $0 { isInFuture(fix.time!, of: referenceTime) } else { false }
            }),
            case .accepted(let first) = decisions[index]
        {
            decisions.insert(.movedAhead(from: referenceTime, to: first.time!), at: index)
        }
        return decisions
    }

    /// `offer`, but for saying that GPS time moved ahead.
    private mutating func decide(_ fix: Fix, referenceTime: UTCTime?) -> [Decision] {
        switch quality(of: fix, referenceTime: referenceTime) {
        case .inFuture?:
            let time = fix.time!
            if let run = future, time > run.newest, time.seconds(since: run.newest) <= Self.futureRunStep {
                future = (run.count + 1, time)
            } else {
                future = (1, time)
            }
            guard future!.count >= Self.confirmationsInFuture else { return [.rejected(fix, .inFuture)] }
            // The run outweighs the reference: judged as if there were none, until it is accepted
            // and the daemon's clock follows it.
            if let rejection = quality(of: fix, referenceTime: nil) { return [.rejected(fix, rejection)] }
        case let rejection?:
            return [.rejected(fix, rejection)]
        case nil:
            future = nil
        }
        let time = fix.time!
        var decisions: [Decision] = []
        if let newest = ahead.last {
            if time > newest.time! {
                ahead.append(fix)
                guard ahead.count > Self.confirmationsAhead else { return [] }
                // The new time is confirmed: what was held goes through the ordinary checks.
                let held = ahead
                ahead.removeAll()
                for fix in held { decisions.append(judge(fix, time: fix.time!)) }
                return decisions
            }
            if time == newest.time! { return [.rejected(fix, .duplicate)] }
            // The old time goes on: the held epochs were dated ahead of it.
            decisions += ahead.map { .rejected($0, .timeJump) }
            ahead.removeAll()
        }
        guard let last else {
            decisions.append(judge(fix, time: time))
            return decisions
        }
        if time == last.time {
            decisions.append(.rejected(fix, .duplicate))
        } else if time > last.time {
            // Whatever went back was a few stale epochs: the old time goes on.
            decisions += behind.map { .rejected($0, .timeNotForward) }
            behind.removeAll()
            let step = time.seconds(since: last.time)
            if step > Self.jumpAhead, step > Self.jumpFactor * (cadence ?? 0) {
                ahead = [fix]
            } else {
                decisions.append(judge(fix, time: time))
            }
        } else if referenceTime != nil {
            decisions += stepBack(fix, time: time, from: last.time)
        } else {
            // Without a live clock the fixes are a log: older ones are history read again (a
            // replay restarted from its beginning), not a step of the receiver's time.
            decisions.append(.rejected(fix, .timeNotForward))
        }
        return decisions
    }

    /// The input ended (an imported log): epochs held after a step ahead are accepted, since no
    /// epoch contradicts them; those behind the last accepted fix never made a step and are
    /// rejected.
    package mutating func finish() -> [Decision] {
        var decisions: [Decision] = behind.map { .rejected($0, .timeNotForward) }
        behind.removeAll()
        let held = ahead
        ahead.removeAll()
        for fix in held { decisions.append(judge(fix, time: fix.time!)) }
        return decisions
    }

    /// A fix dated before the last accepted one: held while it may be a step back of GPS time,
    /// accepted with the epochs before it once enough of them agree.
    private mutating func stepBack(_ fix: Fix, time: UTCTime, from lastTime: UTCTime) -> [Decision] {
        var decisions: [Decision] = []
        if let newest = behind.last {
            if time == newest.time! { return [.rejected(fix, .duplicate)] }
            if time < newest.time! {
                // Not a step that stays: what was held so far went nowhere.
                decisions += behind.map { .rejected($0, .timeNotForward) }
                behind.removeAll()
            }
        }
        behind.append(fix)
        guard behind.count >= Self.confirmationsBehind else { return decisions }
        let run = behind
        behind.removeAll()
        decisions.append(.rebased(from: lastTime, to: run[0].time!))
        last = nil
        cadence = nil
        jumpsInARow = 0
        for fix in run { decisions.append(judge(fix, time: fix.time!)) }
        return decisions
    }

    /// Position, date, accuracy and the trusted clock: what a fix is judged on by itself.
    private func quality(of fix: Fix, referenceTime: UTCTime?) -> FixRejection? {
        guard fix.mode >= .twoD, let latitude = fix.latitude, let longitude = fix.longitude,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return .noPosition }
        guard let time = fix.time else { return .noTime }
        if let referenceTime, isInFuture(time, of: referenceTime) { return .inFuture }
        if let error = fix.horizontalError {
            if error > configuration.maximumHorizontalError { return .inaccurate }
        } else if let hdop = fix.hdop, hdop > configuration.maximumHDOP {
            return .inaccurate
        }
        return nil
    }

    /// The time a no-fix epoch (`noPosition`, e.g. `RMC,V` or a gpsd TPV of mode 1) shows to
    /// have passed: its date, when it has one later than the last accepted fix and not in the
    /// future of the trusted clock. `nil` for any other epoch.
    package func timePassed(by fix: Fix, referenceTime: UTCTime?) -> UTCTime? {
        guard quality(of: fix, referenceTime: nil) == .noPosition, let time = fix.time,
            let last, time > last.time
        else { return nil }
        if let referenceTime, isInFuture(time, of: referenceTime) { return nil }
        return time
    }

    /// Whether `time` is more than `maximumFutureSkew` ahead of the trusted clock.
    private func isInFuture(_ time: UTCTime, of referenceTime: UTCTime) -> Bool {
        time.seconds(since: referenceTime) > configuration.maximumFutureSkew
    }

    /// The last checks of a fix whose time is settled: later than the last accepted one, and no
    /// impossible jump from it. Accepting makes it the new `last`.
    private mutating func judge(_ fix: Fix, time: UTCTime) -> Decision {
        let coordinate = Coordinate(latitude: fix.latitude!, longitude: fix.longitude!)
        if let last {
            guard time > last.time else { return .rejected(fix, .timeNotForward) }
            let elapsed = time.seconds(since: last.time)
            // A threshold test: the local approximation is plenty, and far cheaper.
            let distance = LocalFrame(at: coordinate).distance(to: last.coordinate)
            // Allow for the position error of both fixes on top of the speed limit.
            let slack = 2 * (fix.horizontalError ?? 10)
            if distance > configuration.maximumSpeed * elapsed + slack {
                jumpsInARow += 1
                if jumpsInARow < Self.jumpsBeforeReanchoring { return .rejected(fix, .impossibleJump) }
            }
        }
        jumpsInARow = 0
        if let last { cadence = time.seconds(since: last.time) }
        last = (time, coordinate)
        return .accepted(fix)
    }
}
