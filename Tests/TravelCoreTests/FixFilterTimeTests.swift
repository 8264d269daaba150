import Testing
import TravelFormats

@testable import TravelCore

/// The filter's time rules: one epoch dated ahead costs one epoch, a step back of GPS time that
/// lasts is followed, a gap is a gap, a repeated epoch is a duplicate.
@Suite struct FixFilterTimeTests {
    typealias Timeline = TripDetectorTests.Timeline

    /// Parked, a 6 km drive, parked: one trip.
    static func drive() -> Timeline {
        var t = Timeline()
        t.park(120)
        t.drive(6000)
        t.park(600)
        return t
    }

    struct Run {
        var engine = TrackingEngine()
        var ended: [TripSummary] = []

        /// `live`: each fix comes with a reference clock, as from a live receiver (its own time
        /// here), rather than read from a log.
        init(_ fixes: [Fix], restoringAfter cut: Int? = nil, live: Bool = false) throws {
            for (index, fix) in fixes.enumerated() {
                if index == cut { engine = try TrackingEngine(configuration: .init(), restoring: engine.snapshot) }
                engine.ingest(fix, referenceTime: live ? fix.time : nil) {
                    if case .tripEnded(let trip) = $0 { ended.append(trip) }
                }
            }
            engine.endOfInput { if case .tripEnded(let trip) = $0 { ended.append(trip) } }
        }
    }

    /// Mid-drive, one epoch dated 10 s, 30 min, 6 h or 20 h ahead (less than the one day
    /// `MaximumFutureSkewSec` allows): it alone is rejected, and the trip is the trip without it.
    @Test(arguments: [10.0, 1800, 21_600, 72_000])
    func oneEpochDatedAheadCostsOneEpoch(ahead: Double) throws {
        let t = Self.drive()
        let clean = try Run(t.fixes)
        var fixes = t.fixes
        let outlier = 120 + 200
        fixes[outlier].time = fixes[outlier].time!.adding(seconds: ahead)
        let run = try Run(fixes)
        #expect(run.engine.statistics.accepted == fixes.count - 1)
        #expect(run.engine.statistics.rejected == [.timeJump: 1])
        #expect(run.ended.count == 1)
        #expect(run.ended.map(\.startTime) == clean.ended.map(\.startTime))
        #expect(run.ended.map(\.endTime) == clean.ended.map(\.endTime))
    }

    /// A restart right after the outlier: the saved resume point is the last good fix, the
    /// outlier is saved as held, and the restarted engine rejects it at the next epoch.
    @Test func theOutlierIsNeverSavedAsTheResumePoint() throws {
        let t = Self.drive()
        var fixes = t.fixes
        let outlier = 120 + 200
        fixes[outlier].time = fixes[outlier].time!.adding(seconds: 21_600)
        var engine = TrackingEngine()
        for fix in fixes[...outlier] { engine.ingest(fix) { _ in } }
        #expect(engine.lastAcceptedTime == t.fixes[outlier - 1].time)
        let saved: Int? = engine.snapshot["lastAccepted"]?["t"]?.intValue
        #expect(saved.map(Int64.init) == t.fixes[outlier - 1].time?.milliseconds)
        let run = try Run(fixes, restoringAfter: outlier + 1)
        #expect(run.engine.statistics.rejected == [.timeJump: 1])
        #expect(run.engine.statistics.accepted == fixes.count - outlier - 1)
        #expect(run.ended.count == 1)
    }

    /// A restart while epochs wait for confirmation after a gap loses none of them.
    @Test func epochsHeldAcrossARestartAreKept() throws {
        var t = Timeline()
        t.park(30)
        t.gap(60)
        t.park(30)
        let run = try Run(t.fixes, restoringAfter: 32)
        #expect(run.engine.statistics.accepted == 30)
        #expect(run.engine.statistics.rejectedTotal == 0)
        #expect(run.engine.lastAcceptedTime == t.fixes.last?.time)
    }

    /// A real loss of fixes (a tunnel, a two-hour power cut) is confirmed by the epochs after it:
    /// nothing is lost, and the long one ends the trip as a data gap, as before.
    @Test(arguments: [8.0, 7200])
    func aGapIsConfirmedAndLosesNothing(gap: Double) throws {
        var t = Timeline()
        t.park(120)
        t.drive(3000)
        t.gap(gap)
        t.drive(3000)
        t.park(600)
        let run = try Run(t.fixes)
        #expect(run.engine.statistics.accepted == t.fixes.count)
        #expect(run.engine.statistics.rejectedTotal == 0)
        #expect(run.ended.map(\.endReason) == (gap > 600 ? [.dataGap, .parked] : [.parked]))
    }

    /// The log ends just after a gap: the epochs held for confirmation are accepted.
    @Test func epochsHeldAtTheEndOfALogAreAccepted() throws {
        var t = Timeline()
        t.park(30)
        t.gap(60)
        t.park(2)
        let run = try Run(t.fixes)
        #expect(run.engine.statistics.accepted == 32)
        #expect(run.engine.lastAcceptedTime == t.fixes.last?.time)
    }

    /// A live receiver's GPS time steps back by 30 s or an hour mid-drive and stays there: after
    /// a few epochs the filter follows it, the trip in progress ends there (`time-step`) and
    /// tracking goes on, with not one fix rejected. Read from a log, the same fixes are history
    /// read again: rejected, as a restarted replay's are.
    @Test(arguments: [30.0, 3600])
    func aLastingStepBackIsFollowed(step: Double) throws {
        var t = Timeline()
        t.park(120)
        t.drive(3000)
        let before = t.time.adding(seconds: -1)
        t.gap(-step)
        let after = t.time
        t.drive(3000)
        t.park(600)
        let log = try Run(t.fixes)
        #expect(log.engine.statistics.timeSteps == 0)
        #expect((log.engine.statistics.rejected[.timeNotForward] ?? 0) >= min(Int(step) - 1, 200))
        let run = try Run(t.fixes, live: true)
        #expect(run.engine.statistics.accepted == t.fixes.count)
        #expect(run.engine.statistics.rejectedTotal == 0)
        #expect(run.engine.statistics.timeSteps == 1)
        #expect(run.engine.lastTimeStep?.from == before)
        #expect(run.engine.lastTimeStep?.to == after)
        #expect(run.ended.map(\.endReason) == [.timeStep, .parked])
        #expect(run.ended.first?.endTime == before, "the trip ended at its last fix before the step")
        #expect(run.engine.statistics.fixSummary.contains("1 step back of GPS time"))
    }

    /// A few epochs dated back, then the old time again: they are stale epochs, rejected, and the
    /// trip goes on.
    @Test func aFewEpochsBehindAreRejectedNotFollowed() throws {
        var t = Self.drive()
        let stale = 120 + 200
        for index in stale..<(stale + FixFilter.confirmationsBehind - 1) {
            t.fixes[index].time = t.fixes[index].time!.adding(seconds: -3600)
        }
        let run = try Run(t.fixes, live: true)
        #expect(run.engine.statistics.rejected == [.timeNotForward: FixFilter.confirmationsBehind - 1])
        #expect(run.engine.statistics.timeSteps == 0)
        #expect(run.ended.count == 1)
    }

    /// Every epoch twice (a gpsd client and a log both forwarding it): duplicates, dropped, and
    /// the trip is the same.
    @Test func repeatedEpochsAreDuplicates() throws {
        let t = Self.drive()
        let clean = try Run(t.fixes)
        let run = try Run(t.fixes.flatMap { [$0, $0] })
        #expect(run.engine.statistics.accepted == t.fixes.count)
        #expect(run.engine.statistics.rejected == [.duplicate: t.fixes.count])
        #expect(run.ended == clean.ended)
    }

    /// A logger of one fix every 30 s: its cadence is no jump, and a fix 10 min ahead still is.
    @Test func aSparseLoggersCadenceIsNoJump() throws {
        var t = Timeline()
        for _ in 0..<20 {
            t.park(1)
            t.gap(29)
        }
        var fixes = t.fixes
        #expect(try Run(fixes).engine.statistics.accepted == 20)
        fixes[10].time = fixes[10].time!.adding(seconds: 600)
        #expect(try Run(fixes).engine.statistics.rejected == [.timeJump: 1])
    }

    /// The filter alone: a held epoch decides nothing until the next ones do.
    @Test func aHeldEpochIsDecidedByTheNextOnes() {
        var filter = FixFilter(configuration: .init())
        let t0 = TripDetectorTests.t0
        func fix(_ seconds: Double) -> Fix {
            Fix(time: t0.adding(seconds: seconds), mode: .threeD, latitude: 48, longitude: 11, hdop: 1)
        }
        #expect(filter.offer(fix(0)) == [.accepted(fix(0))])
        #expect(filter.offer(fix(3600)).isEmpty)
        #expect(filter.isHolding)
        #expect(filter.offer(fix(1)) == [.rejected(fix(3600), .timeJump), .accepted(fix(1))])
        #expect(filter.offer(fix(60)).isEmpty)
        #expect(filter.offer(fix(60)) == [.rejected(fix(60), .duplicate)])
        #expect(filter.offer(fix(61)).isEmpty)
        #expect(filter.offer(fix(62)) == [.accepted(fix(60)), .accepted(fix(61)), .accepted(fix(62))])
        #expect(!filter.isHolding)
    }

    /// Against a live reference clock (the daemon's GPS time carried on), epochs more than
    /// `MaximumFutureSkewSec` ahead are rejected as `in-future`; but a run of them moving on at a
    /// receiver's pace means the time base itself moved on (a second drive, months later, on a
    /// daemon that kept running): it is followed after `confirmationsInFuture` epochs, as a
    /// restart would have followed it at once.
    @Test func aTimeBaseThatMovedOnForGoodIsFollowed() {
        var filter = FixFilter(configuration: .init())
        let t0 = TripDetectorTests.t0
        let later = t0.adding(seconds: 400 * 86_400)
        func fix(_ base: UTCTime, _ seconds: Double) -> Fix {
            Fix(time: base.adding(seconds: seconds), mode: .threeD, latitude: 48, longitude: 11, hdop: 1)
        }
        #expect(filter.offer(fix(t0, 0), referenceTime: t0) == [.accepted(fix(t0, 0))])
        let reference = t0.adding(seconds: 30)
        let run = FixFilter.confirmationsInFuture
        for second in 0..<(run - 1) {
            let ahead = fix(later, Double(second))
            #expect(filter.offer(ahead, referenceTime: reference) == [.rejected(ahead, .inFuture)])
        }
        // The run is long enough: judged without the reference, held as a step ahead, then
        // confirmed by the next epochs as any step ahead is; the move ahead is said first.
        #expect(filter.offer(fix(later, Double(run - 1)), referenceTime: reference).isEmpty)
        #expect(filter.offer(fix(later, Double(run)), referenceTime: reference).isEmpty)
        let first = later.adding(seconds: Double(run - 1))
        #expect(
            filter.offer(fix(later, Double(run + 1)), referenceTime: reference)
                == [.movedAhead(from: reference, to: first)]
                + (run - 1...run + 1).map { .accepted(fix(later, Double($0))) }
        )
    }

    /// A few epochs dated years ahead, or a run that does not move on as a receiver's time does,
    /// stay `in-future`: the reference wins.
    @Test func aFewEpochsInTheFutureAreRejected() {
        var filter = FixFilter(configuration: .init())
        let t0 = TripDetectorTests.t0
        func fix(_ seconds: Double) -> Fix {
            Fix(time: t0.adding(seconds: seconds), mode: .threeD, latitude: 48, longitude: 11, hdop: 1)
        }
        #expect(filter.offer(fix(0), referenceTime: t0) == [.accepted(fix(0))])
        let reference = t0.adding(seconds: 1)
        let years = 3 * 365 * 86_400.0
        // Corrupt dates far apart from each other make no run, however many.
        for index in 0..<(3 * FixFilter.confirmationsInFuture) {
            let ahead = fix(years + Double(index) * 3_600)
            #expect(filter.offer(ahead, referenceTime: reference) == [.rejected(ahead, .inFuture)])
        }
        // The old time goes on, and the run starts again from nothing.
        #expect(filter.offer(fix(2), referenceTime: reference) == [.accepted(fix(2))])
        for second in 0..<(FixFilter.confirmationsInFuture - 1) {
            let ahead = fix(years + Double(second))
            #expect(filter.offer(ahead, referenceTime: reference) == [.rejected(ahead, .inFuture)])
        }
        #expect(filter.offer(fix(3), referenceTime: reference) == [.accepted(fix(3))])
    }
}
