import SeededRandom
import Testing

@testable import TravelCore
@testable import TravelDecoding

/// The trip detector on synthetic timelines with exactly known truth. The real-data scenarios
/// live in `Scenarios/`.
@Suite struct TripDetectorTests {
    static let origin = Coordinate(latitude: 48.137, longitude: 11.575)
    static let t0 = UTCTime(year: 2026, month: 5, day: 1, hour: 8)!

    /// A 1 Hz timeline builder: parked drift, straight drives, standstills and gaps.
    struct Timeline {
        var fixes: [Fix] = []
        var time = TripDetectorTests.t0
        var position = TripDetectorTests.origin
        var generator = SplitMix64(seed: 7)

        mutating func fix(at c: Coordinate, speed: Double) {
            fixes.append(
                Fix(
                    time: time,
                    mode: .threeD,
                    latitude: c.latitude,
                    longitude: c.longitude,
                    altitudeMSL: 500,
                    speed: speed,
                    hdop: 1.0,
                    source: .nmea
                )
            )
        }

        /// Stands still for `seconds` with up to `drift` metres of random receiver drift.
        mutating func park(_ seconds: Int, drift: Double = 12) {
            for _ in 0..<seconds {
                let bearing = Double(generator.next() % 360)
                let offset = Double(generator.next() % 1000) / 1000 * drift
                fix(at: Geodesy.direct(from: position, azimuth: bearing, distance: offset), speed: 0.2)
                time = time.adding(seconds: 1)
            }
        }

        /// Drives `metres` along `azimuth` at `speed` m/s.
        mutating func drive(_ metres: Double, azimuth: Double = 90, speed: Double = 14) {
            var covered = 0.0
            while covered < metres {
                covered = min(metres, covered + speed)
                position = Geodesy.direct(from: position, azimuth: azimuth, distance: speed)
                fix(at: position, speed: speed)
                time = time.adding(seconds: 1)
            }
        }

        mutating func gap(_ seconds: Double) { time = time.adding(seconds: seconds) }
    }

    /// The trips in `fixes`; the source restarts before each fix whose index is in `restarts`.
    static func trips(_ fixes: [Fix], restarts: Set<Int> = []) -> [TripSummary] {
        var engine = TrackingEngine()
        var ended: [TripSummary] = []
        for (index, fix) in fixes.enumerated() {
            if restarts.contains(index) { engine.sourceRestarted() }
            engine.ingest(fix) { if case .tripEnded(let trip) = $0 { ended.append(trip) } }
        }
        engine.endOfInput { if case .tripEnded(let trip) = $0 { ended.append(trip) } }
        return ended
    }

    @Test func oneDriveBetweenTwoParkings() throws {
        var t = Timeline()
        t.park(600)
        let departure = t.time
        t.drive(5000)
        let arrival = t.time
        t.park(900)
        let trips = Self.trips(t.fixes)
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(abs(trip.startTime.seconds(since: departure)) <= 5)
        #expect(abs(trip.endTime.seconds(since: arrival)) <= 5)
        #expect(abs(trip.distance - 5000) < 100)
        #expect(trip.endReason == .parked)
    }

    @Test func driftAloneNeverMakesATrip() {
        var t = Timeline()
        t.park(6 * 3600, drift: 40)
        #expect(Self.trips(t.fixes).isEmpty)
    }

    @Test func shortStopsDoNotSplitATrip() {
        var t = Timeline()
        t.park(300)
        for _ in 0..<6 {
            t.drive(1500)
            t.park(150, drift: 5)  // a long red light
        }
        t.drive(1500)
        t.park(900)
        #expect(Self.trips(t.fixes).count == 1)
    }

    @Test func powerCutWhileParkedEndsTheTripAndTheRestartIsANewTrip() throws {
        var t = Timeline()
        t.park(300)
        t.drive(3000)
        let arrival = t.time
        t.park(30)
        t.gap(180)  // ignition off for three minutes, then off again from the same spot
        let restart = t.fixes.count
        t.park(20)
        t.drive(3000)
        t.park(900)
        let trips = Self.trips(t.fixes, restarts: [restart])
        #expect(trips.count == 2)
        #expect(abs(try #require(trips.first).endTime.seconds(since: arrival)) <= 5)
        #expect(trips.first?.endReason == .dataGap)
    }

    @Test func aLoggerSilentWhileStationaryDoesNotSplitAtShortStops() {
        var t = Timeline()
        t.park(300)
        for _ in 0..<5 {
            t.drive(1200)
            t.gap(140)  // no points while the bus stands at a stop
        }
        t.drive(1200)
        t.park(900)
        #expect(Self.trips(t.fixes).count == 1)
    }

    @Test func aTunnelGapWhileMovingDoesNotSplit() {
        var t = Timeline()
        t.park(300)
        t.drive(3000)
        t.gap(90)
        t.position = Geodesy.direct(from: t.position, azimuth: 90, distance: 90 * 14)
        t.drive(3000)
        t.park(900)
        #expect(Self.trips(t.fixes).count == 1)
    }

    @Test func restartingTheEngineMidTripResumesIt() throws {
        var t = Timeline()
        t.park(300)
        t.drive(6000)
        t.park(900)
        let uninterrupted = Self.trips(t.fixes)

        var engine = TrackingEngine()
        var ended: [TripSummary] = []
        let half = t.fixes.count / 2
        for fix in t.fixes[..<half] { engine.ingest(fix) { _ in } }
        var resumed = try TrackingEngine(configuration: .init(), restoring: engine.snapshot)
        for fix in t.fixes[half...] {
            resumed.ingest(fix) { if case .tripEnded(let trip) = $0 { ended.append(trip) } }
        }
        #expect(ended.count == 1)
        #expect(ended.first?.startTime == uninterrupted.first?.startTime)
        #expect(abs((ended.first?.endTime.seconds(since: uninterrupted[0].endTime)) ?? 99) <= 5)
        #expect(abs((ended.first?.distance ?? 0) - uninterrupted[0].distance) < 20)
    }

    @Test func theFilterCountsWhatItRejects() {
        var engine = TrackingEngine()
        let good = Fix(time: Self.t0, mode: .threeD, latitude: 48, longitude: 11, hdop: 1)
        var bad = good
        bad.mode = .noFix
        var undated = good
        undated.time = nil
        var inaccurate = good
        inaccurate.time = Self.t0.adding(seconds: 1)
        inaccurate.hdop = 30
        var jump = good
        jump.time = Self.t0.adding(seconds: 2)
        jump.latitude = 49
        var earlier = good
        earlier.time = Self.t0.adding(seconds: -1)
        for fix in [good, bad, undated, inaccurate, earlier, jump] { engine.ingest(fix) { _ in } }
        #expect(engine.statistics.accepted == 1)
        #expect(engine.statistics.rejected[.noPosition] == 1)
        #expect(engine.statistics.rejected[.noTime] == 1)
        #expect(engine.statistics.rejected[.inaccurate] == 1)
        #expect(engine.statistics.rejected[.timeNotForward] == 1)
        #expect(engine.statistics.rejected[.impossibleJump] == 1)
    }

    /// The 92 real-receiver logs are mostly receivers standing on a desk, several of them cold
    /// starting (wandering, jumping); the one that moves is a boat sailing for two minutes.
    @Test func theCorpusHoldsExactlyOneTripTheSailingBoat() throws {
        var found: [String] = []
        for log in Fixtures.nmeaLogs {
            var decoder = NMEADecoder()
            var engine = TrackingEngine()
            for fix in decoder.decodeAll(try Fixtures.bytes("gpsd-nmea/\(log)")) {
                engine.ingest(fix) { if case .tripEnded = $0 { found.append(log) } }
            }
            engine.endOfInput { if case .tripEnded = $0 { found.append(log) } }
        }
        #expect(found == ["bundg_zeus_9.log"])
    }
}
