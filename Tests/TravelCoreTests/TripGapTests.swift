import Testing

@testable import TravelCore

/// A trip ends when the gap in its fixes passes `maximumGap`, on GPS time alone: no-fix epochs
/// (an underground garage) and `advance(to:)` (a silent receiver, the daemon's clock) end it then,
/// back-dated, where before it waited for the next fix.
@Suite struct TripGapTests {
    typealias Timeline = TripDetectorTests.Timeline

    /// A drive that arrived and stood for `standing` seconds (shorter than a parking).
    static func arrival(standing: Int = 20) -> (timeline: Timeline, arrival: UTCTime) {
        var t = Timeline()
        t.park(300)
        t.drive(3000)
        let arrival = t.time
        t.park(standing, drift: 3)
        return (t, arrival)
    }

    static func noFix(at time: UTCTime) -> Fix { Fix(time: time, mode: .noFix, source: .nmea) }

    /// Feeds `fixes`; returns the trips ended and, for each, the index of the fix that ended it.
    static func run(_ fixes: [Fix], engine: inout TrackingEngine) -> [(trip: TripSummary, at: Int)] {
        var ended: [(TripSummary, Int)] = []
        for (index, fix) in fixes.enumerated() {
            engine.ingest(fix) { if case .tripEnded(let trip) = $0 { ended.append((trip, index)) } }
        }
        return ended
    }

    @Test func noFixEpochsEndTheTripOnceTheGapPassesBackDatedToArrival() throws {
        var (t, arrival) = Self.arrival()
        let lastFix = try #require(t.fixes.last?.time)
        // Twelve minutes of `RMC,V` in a garage: dated, no position.
        var fixes = t.fixes
        for second in 1...720 { fixes.append(Self.noFix(at: lastFix.adding(seconds: Double(second)))) }
        var engine = TrackingEngine()
        let ended = Self.run(fixes, engine: &engine)
        let end = try #require(ended.first)
        #expect(ended.count == 1)
        #expect(end.trip.endReason == .dataGap)
        #expect(abs(end.trip.endTime.seconds(since: arrival)) <= 5)
        // Ended by the first epoch past the gap, not by the input's end or a returning fix.
        let endedBy = try #require(fixes[end.at].time)
        #expect(endedBy.seconds(since: lastFix) > engine.configuration.maximumGap)
        #expect(endedBy.seconds(since: lastFix) <= engine.configuration.maximumGap + 1)
        #expect(!engine.isDriving)
        #expect(engine.statistics.tripsEnded == 1)

        // Fixes return: the next drive is a new trip, nothing lost.
        t.time = try #require(fixes.last?.time).adding(seconds: 1)
        let resumed = t.fixes.count
        t.park(60)
        t.drive(3000)
        t.park(400)
        let after = Self.run(Array(t.fixes[resumed...]), engine: &engine)
        #expect(after.count == 1)
        #expect(after.first?.trip.endReason == .parked)
    }

    @Test func advanceWithoutFixesEndsATripCutWhileMoving() throws {
        var t = Timeline()
        t.park(300)
        t.drive(3000)
        let lastFix = try #require(t.fixes.last?.time)
        var engine = TrackingEngine()
        #expect(Self.run(t.fixes, engine: &engine).isEmpty)
        var ended: [TripSummary] = []
        let maximumGap = engine.configuration.maximumGap
        engine.advance(to: lastFix.adding(seconds: maximumGap)) {
            if case .tripEnded(let trip) = $0 { ended.append(trip) }
        }
        #expect(ended.isEmpty)
        #expect(engine.currentTrip != nil)
        engine.advance(to: lastFix.adding(seconds: maximumGap + 1)) {
            if case .tripEnded(let trip) = $0 { ended.append(trip) }
        }
        #expect(ended.count == 1)
        // At its last fix, or the slowing just before it.
        #expect(try abs(#require(ended.first).endTime.seconds(since: lastFix)) <= 5)
        #expect(ended.first?.endReason == .dataGap)
        #expect(engine.currentTrip == nil)
        // Once ended, time passing ends nothing more.
        engine.advance(to: lastFix.adding(seconds: 3 * maximumGap)) {
            if case .tripEnded = $0 { Issue.record("nothing more to end") }
        }
    }

    /// The same trip as when the next fix ends it: only the moment it is known differs.
    @Test func theEndIsTheOneTheNextFixWouldGive() throws {
        var (t, _) = Self.arrival()
        let lastFix = try #require(t.fixes.last?.time)
        var byNextFix = TrackingEngine()
        t.gap(900)
        t.park(5)
        let fixEnd = try #require(Self.run(t.fixes, engine: &byNextFix).first?.trip)
        var byTime = TrackingEngine()
        _ = Self.run(Array(t.fixes.prefix { $0.time! <= lastFix }), engine: &byTime)
        var timeEnd: TripSummary?
        byTime.advance(to: lastFix.adding(seconds: 900)) { if case .tripEnded(let trip) = $0 { timeEnd = trip } }
        #expect(timeEnd == fixEnd)
    }

    @Test func noFixEpochsWithoutADateOrInTheFutureEndNothing() throws {
        let (t, _) = Self.arrival()
        let lastFix = try #require(t.fixes.last?.time)
        var undated = t.fixes
        for _ in 0..<720 { undated.append(Fix(mode: .noFix, source: .nmea)) }
        var engine = TrackingEngine()
        #expect(Self.run(undated, engine: &engine).isEmpty)
        #expect(engine.currentTrip != nil)
        // A live receiver's no-fix epoch dated beyond the trusted clock is a bad date, not time passing.
        let reference = lastFix.adding(seconds: 5)
        let farAhead = Self.noFix(at: reference.adding(seconds: engine.configuration.maximumFutureSkew + 1))
        engine.ingest(farAhead, referenceTime: reference) {
            if case .tripEnded = $0 { Issue.record("a bad date ends nothing") }
        }
        #expect(engine.currentTrip != nil)
    }
}
