import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// GPS week rollover, GPS time carried on the monotonic clock, and the system clock's offset.
@Suite struct TimeWithoutClockTests {
    static let earliest = UTCTime(year: 2019, month: 1, day: 1)!
    static let drive = UTCTime(year: 2026, month: 11, day: 22, hour: 7, minute: 30, second: 15, millisecond: 250)!

    @Test func aDateOneRolloverBackIsMovedForwardExactly() {
        let buggy = UTCTime(milliseconds: Self.drive.milliseconds - GPSWeekRollover.period)
        #expect(buggy.components.year == 2007)
        #expect(GPSWeekRollover.corrected(buggy, earliest: Self.earliest) == Self.drive)
        let twice = UTCTime(milliseconds: Self.drive.milliseconds - 2 * GPSWeekRollover.period)
        #expect(GPSWeekRollover.corrected(twice, earliest: Self.earliest) == Self.drive)
    }

    @Test func datesFromTheEarliestOnAreLeftAlone() {
        #expect(GPSWeekRollover.corrected(Self.drive, earliest: Self.earliest) == Self.drive)
        #expect(GPSWeekRollover.corrected(Self.earliest, earliest: Self.earliest) == Self.earliest)
        let bus = UTCTime(year: 2019, month: 2, day: 18)!
        #expect(GPSWeekRollover.corrected(bus, earliest: Self.earliest) == bus)
    }

    @Test func theEngineStoresARolledOverDriveOnItsRealDates() {
        var engine = TrackingEngine()
        var stored: [UTCTime] = []
        for second in 0..<5 {
            var fix = Fix(source: .nmea)
            fix.mode = .threeD
            fix.latitude = 45.0 + Double(second) * 0.0001
            fix.longitude = 13.0
            fix.time = UTCTime(milliseconds: Self.drive.milliseconds - GPSWeekRollover.period + Int64(second) * 1000)
            engine.ingest(fix, evidence: TimeEvidence(now: Self.today)) { event in
                if case .fixRejected(let time, let reason) = event {
                    Issue.record("rejected \(String(describing: time)): \(reason)")
                }
            }
            if let time = engine.lastAcceptedTime { stored.append(time) }
        }
        #expect(stored.last == Self.drive.adding(seconds: 4))
        #expect(engine.statistics.weekRolloverCorrections == 5)
        #expect(engine.lastRedating?.stored == Self.drive.adding(seconds: 4))
    }

    /// The day these tests pretend it is: the trusted present of an import or a set clock.
    static let today = UTCTime(year: 2026, month: 11, day: 24, hour: 13)!
    /// The build date of a daemon: the floor of live fixes.
    static let built = UTCTime(year: 2026, month: 11, day: 1)!

    static func redated(_ time: UTCTime, _ source: FixSource, _ evidence: TimeEvidence) -> UTCTime? {
        GPSWeekRollover.redated(time, source: source, earliest: earliest, evidence: evidence, tolerance: 86_400)
    }

    @Test func gpxAndGPSDDatesAreRealHoweverOld() {
        let olympics = UTCTime(year: 2012, month: 7, day: 27, hour: 19)!
        for evidence in [TimeEvidence(now: Self.today), TimeEvidence(now: Self.today, floor: Self.built)] {
            #expect(Self.redated(olympics, .gpx, evidence) == nil)
            #expect(Self.redated(olympics, .gpsd, evidence) == nil)
        }
    }

    @Test func anNMEALogOf2018IsKeptBecauseMovingItWouldReach2038() {
        let zeus = UTCTime(year: 2018, month: 8, day: 20, hour: 10)!
        #expect(GPSWeekRollover.corrected(zeus, earliest: Self.earliest).components.year == 2038)
        #expect(Self.redated(zeus, .nmea, TimeEvidence(now: Self.today)) == nil)
        #expect(Self.redated(zeus, .nmea, TimeEvidence(now: Self.today, floor: Self.built)) == nil)
    }

    @Test func aRolledOverNMEADateIsMovedToItsRecentRealDate() {
        let buggy = UTCTime(milliseconds: Self.drive.milliseconds - GPSWeekRollover.period)
        #expect(buggy.components.year == 2007)
        #expect(Self.redated(buggy, .nmea, TimeEvidence(now: Self.today)) == Self.drive)
        // Live without a set clock, the build date alone says 2007 cannot be real.
        #expect(Self.redated(buggy, .nmea, TimeEvidence(floor: Self.built)) == Self.drive)
        // A 2000-era date of a receiver whose epoch ran out in 2019: moved by one period.
        let old = UTCTime(year: 2000, month: 3, day: 5, hour: 8)!
        #expect(
            Self.redated(old, .nmea, TimeEvidence(now: Self.today)) == UTCTime(year: 2019, month: 10, day: 20, hour: 8)!
        )
    }

    @Test func nothingIsMovedPastNowNorWithoutEvidence() {
        // A drive of yesterday dated 2007, imported the day before it happened: not yet real.
        let buggy = UTCTime(milliseconds: Self.drive.milliseconds - GPSWeekRollover.period)
        #expect(Self.redated(buggy, .nmea, TimeEvidence(now: Self.drive.adding(seconds: -2 * 86_400))) == nil)
        // Within the tolerance of a clock a little behind GPS time, it is.
        #expect(Self.redated(buggy, .nmea, TimeEvidence(now: Self.drive.adding(seconds: -3_600))) == Self.drive)
        // No trusted present and no floor: no evidence, no move.
        #expect(Self.redated(buggy, .nmea, .none) == nil)
        // A trusted present before the build date is ignored by the daemon; here the floor
        // wins and the move would be into the future of that present: kept.
        #expect(Self.redated(buggy, .nmea, TimeEvidence(now: Self.earliest, floor: Self.built)) == nil)
        var engine = TrackingEngine()
        var fix = Fix(time: buggy, mode: .threeD, latitude: 45, longitude: 13, source: .nmea)
        engine.ingest(fix) { _ in }
        #expect(engine.lastAcceptedTime == buggy)
        // Moved 1024 weeks ahead, the epochs wait for the next ones to confirm the new time.
        for second in 1...3 {
            fix.time = buggy.adding(seconds: Double(second))
            engine.ingest(fix, evidence: TimeEvidence(now: Self.today)) { _ in }
        }
        #expect(engine.lastAcceptedTime == Self.drive.adding(seconds: 3))
        #expect(engine.statistics.weekRolloverCorrections == 3)
    }

    @Test func theEarliestFixDateIsAConfigurationKey() throws {
        let text = ConfigurationText(name: "/etc/tc.conf", text: "[Tracking]\nEarliestFixDate=2010-06-01\n")
        let configuration = try TravelConfiguration(main: text, dropIns: [])
        #expect(configuration.tracking.earliestFixTime == UTCTime(year: 2010, month: 6, day: 1)!)
        let bad = ConfigurationText(name: "/etc/tc.conf", text: "[Tracking]\nEarliestFixDate=2010-13-01\n")
        #expect(throws: ConfigurationError.self) { try TravelConfiguration(main: bad, dropIns: []) }
    }

    @Test func gpsTimeIsCarriedOnTheMonotonicClock() {
        var clock = GPSClock()
        #expect(clock.now(monotonicNanoseconds: 5) == nil)
        clock.synchronize(to: Self.drive, monotonicNanoseconds: 1_000_000_000)
        #expect(clock.now(monotonicNanoseconds: 3_500_000_000) == Self.drive.adding(seconds: 2.5))
    }

    /// System minus GPS time of fixes arriving `delays` seconds after their epoch, the clock `offset` off.
    static func samples(offset: Double, delays: [Double], from start: Int = 0) -> [(UTCTime, UTCTime)] {
        delays.enumerated().map { index, delay in
            let gps = Self.drive.adding(seconds: Double(start + index))
            return (gps, gps.adding(seconds: offset + delay))
        }
    }

    @Test func theOffsetIsTheSmallestDelayedSampleAndASingleLateFixIsNoStep() {
        var estimator = ClockOffsetEstimator()
        var changes: [ClockOffsetEstimator.Change] = []
        for (gps, system) in Self.samples(offset: -3.0e8, delays: [0.4, 0.2, 0.3, 0.25, 9.0, 0.3, 0.35]) {
            if let change = estimator.observe(gps: gps, system: system) { changes.append(change) }
        }
        guard case .measured(let offset)? = changes.first else {
            Issue.record("no measurement: \(changes)")
            return
        }
        #expect(changes.count == 1)
        #expect(abs(offset - (-3.0e8 + 0.2)) < 0.01)
        #expect(abs(estimator.offset! - (-3.0e8 + 0.2)) < 0.01)
        #expect(ClockOffsetEstimator.describe(offset) == "9 years 187 days behind")
    }

    @Test func aStepOfTheSystemClockIsReportedOnce() {
        var estimator = ClockOffsetEstimator()
        var changes: [ClockOffsetEstimator.Change] = []
        let before = Self.samples(offset: 315_360_000, delays: [0.3, 0.2, 0.3, 0.3])
        let after = Self.samples(offset: 0, delays: [0.3, 0.25, 0.3, 0.3, 0.2], from: 4)
        for (gps, system) in before + after {
            if let change = estimator.observe(gps: gps, system: system) { changes.append(change) }
        }
        #expect(changes.count == 2)
        guard case .stepped(let from, let to)? = changes.last else {
            Issue.record("no step: \(changes)")
            return
        }
        #expect(abs(from - 315_360_000.2) < 0.01)
        #expect(abs(to - 0.25) < 0.01)
        #expect(abs(estimator.offset! - 0.2) < 0.01)
        #expect(ClockOffsetEstimator.describe(0.2) == "in step with")
        #expect(ClockOffsetEstimator.describe(-75) == "1 min 15 s behind")
        #expect(
            ClockOffsetEstimator.describeStep(from: from, to: to)
                == "system clock stepped back by 10 years 0 days: now in step with GPS time, was 10 years 0 days ahead of GPS time"
        )
    }

    /// gpsfake at 15 ms a sentence, years after the log was recorded: GPS time gains a second or
    /// more on the system clock with every accepted fix (several where fixes were dropped). The
    /// clock never stepped, so nothing is reported after the first measurement; a real step
    /// after the burst still is, once, with both offsets and the step readable.
    @Test func aFeedFasterThanRealTimeIsNoStep() {
        var estimator = ClockOffsetEstimator()
        var changes: [ClockOffsetEstimator.Change] = []
        let offset = 7 * 365 * 86_400 + 281 * 86_400.0
        var gps = Self.drive
        var system = Self.drive.adding(seconds: offset)
        for index in 0..<600 {
            // Mostly one fix a second, some 3 or 5 s apart (fixes the filter did not accept).
            gps = gps.adding(seconds: [1, 1, 3, 1, 5, 1, 1][index % 7])
            system = system.adding(seconds: 0.03 + Double(index % 3) * 0.01)
            if let change = estimator.observe(gps: gps, system: system) { changes.append(change) }
        }
        #expect(changes.count == 1, "\(changes)")
        guard case .measured? = changes.first else {
            Issue.record("no measurement: \(changes)")
            return
        }
        // The replay over, the feed is real time again and the clock 2 h back: one step.
        for (gps, system) in Self.samples(offset: estimator.offset! - 7200, delays: [0.3, 0.2, 0.3, 0.3], from: 10_000)
        {
            if let change = estimator.observe(gps: gps, system: system) { changes.append(change) }
        }
        #expect(changes.count == 2, "\(changes)")
        guard case .stepped(let from, let to)? = changes.last else {
            Issue.record("no step: \(changes)")
            return
        }
        #expect(
            ClockOffsetEstimator.describeStep(from: from, to: to).hasPrefix(
                "system clock stepped back by 2 h 0 min: now "
            )
        )
    }

    /// A 10 Hz receiver on a serial device reopened after 5 s: the epochs queued meanwhile are
    /// read at once, then the feed is real time again. The backlog's arrival says when it was
    /// read, not when it was made: no step of the clock (there were two, forward and back).
    @Test func aBacklogReadAtOnceIsNoClockStep() {
        var estimator = ClockOffsetEstimator()
        var changes: [ClockOffsetEstimator.Change] = []
        let offset = 0.4
        var monotonic: Int64 = 1_000_000_000
        func observe(_ epoch: Int, delay: Double) {
            let gps = Self.drive.adding(seconds: Double(epoch) / 10)
            if let change = estimator.observe(
                gps: gps,
                system: gps.adding(seconds: offset + delay),
                monotonicNanoseconds: monotonic
            ) {
                changes.append(change)
            }
        }
        // Real time: one epoch every 100 ms, 50 ms late.
        for epoch in 0..<30 {
            monotonic += 100_000_000
            observe(epoch, delay: 0.05)
        }
        // Closed for 5 s; reopened, the 50 queued epochs come in one read, 0.2 ms apart.
        monotonic += 5_000_000_000
        for epoch in 30..<80 {
            monotonic += 200_000
            observe(epoch, delay: 5.05 - Double(epoch - 30) / 10)
        }
        for epoch in 80..<120 {
            monotonic += 100_000_000
            observe(epoch, delay: 0.05)
        }
        #expect(changes.count == 1, "\(changes)")
        #expect(abs((estimator.offset ?? 0) - 0.45) < 0.01)
    }
}
