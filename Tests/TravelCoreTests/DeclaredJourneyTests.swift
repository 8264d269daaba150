import Testing

@testable import TravelCore

/// Plans and journeys started by hand take their trips before automatic grouping.
@Suite struct DeclaredJourneyTests {
    typealias G = JourneyGroupingTests
    static let rules = JourneyRules(home: G.home)

    /// Out and back each day of 2026-06-01…05, 10:00–11:00 to a place 60 km north and 17:00–18:00 back.
    static let week: [JourneyTrip] = (1...5).flatMap { day -> [JourneyTrip] in
        let id = Int64(day * 2)
        return [
            G.trip(id - 1, G.time(day, 10), G.time(day, 11), from: G.home, to: G.at(north: 60), km: 70),
            G.trip(id, G.time(day, 17), G.time(day, 18), from: G.at(north: 60), to: G.home, km: 70),
        ]
    }

    @Test func parsesLocalDatesAndRejectsImpossibleOnes() {
        #expect(LocalDate(parsing: "2026-06-02")?.description == "2026-06-02")
        #expect(LocalDate(parsing: "2026-06-02") == LocalDate(G.time(2, 23), zone: .utc))
        for bad in ["2026-02-30", "2026-6-2", "26-06-02", "2026-06-02T00:00", "", "2026-13-01", "abcd-ef-gh"] {
            #expect(LocalDate(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func aPlanWindowIsItsLocalDaysInTheConfiguredOffset() throws {
        let plan = DeclaredJourney(
            planID: 1,
            from: try #require(LocalDate(parsing: "2026-06-02")),
            through: try #require(LocalDate(parsing: "2026-06-03")),
            zone: .fixed(try #require(UTCOffset(seconds: 7200)))
        )
        #expect(plan.start.iso8601 == "2026-06-01T22:00:00.000Z")
        #expect(plan.end?.iso8601 == "2026-06-03T22:00:00.000Z")
        #expect(plan.contains(G.time(3, 21, 59)))
        #expect(!plan.contains(G.time(3, 22)))
    }

    @Test func tripsInsideAPlanJoinItsJourneyAndTheRestGroupAsBefore() throws {
        let plan = DeclaredJourney(
            planID: 7,
            from: try #require(LocalDate(parsing: "2026-06-02")),
            through: try #require(LocalDate(parsing: "2026-06-03")),
            zone: .utc
        )
        let journeys = JourneyGrouping.group(Self.week, home: G.home, rules: Self.rules, declared: [plan])
        #expect(journeys.map(\.tripIDs) == [[1, 2], [3, 4, 5, 6], [7, 8], [9, 10]])
        #expect(journeys.map(\.declared) == [nil, .plan(planID: 7), nil, nil])
        // Two days out and back are one multi-day journey: whatever the plan said, that is what happened.
        #expect(journeys.map(\.type) == [.day, .multiDay, .day, .day])
        #expect(journeys[1].distance == 280_000)
    }

    @Test func aPlanWithNoTripsMakesNoJourneyButAManualOneAlwaysDoes() throws {
        let later = try #require(LocalDate(parsing: "2026-07-01"))
        let plan = DeclaredJourney(planID: 1, from: later, through: later, zone: .utc)
        let manual = DeclaredJourney(origin: .manual(journeyID: 40), start: G.time(20, 8), end: nil)
        let journeys = JourneyGrouping.group(Self.week, home: G.home, rules: Self.rules, declared: [manual, plan])
        #expect(journeys.count == 6)
        let last = try #require(journeys.last)
        #expect(last.declared == .manual(journeyID: 40))
        #expect(last.tripIDs.isEmpty)
        #expect(last.isOpen)
        #expect(last.start == G.time(20, 8))
        #expect(last.type == .local)
    }

    @Test func aManualJourneyWinsOverAPlanAndInterruptsAnOpenAutomaticOne() throws {
        let june = try #require(LocalDate(parsing: "2026-06-02"))
        let plan = DeclaredJourney(planID: 1, from: june, through: june.advanced(by: 3), zone: .utc)
        // Started by hand at noon of the 1st (after the drive out), stopped on the 2nd at noon:
        // it takes the drive back of the 1st and the drive out of the 2nd, before the plan (2nd
        // to 5th) can; the plan takes the rest of its days.
        let manual = DeclaredJourney(origin: .manual(journeyID: 9), start: G.time(1, 12), end: G.time(2, 12))
        let journeys = JourneyGrouping.group(Self.week, home: G.home, rules: Self.rules, declared: [manual, plan])
        #expect(journeys.map(\.tripIDs) == [[1], [2, 3], [4, 5, 6, 7, 8, 9, 10]])
        #expect(journeys.map(\.declared) == [nil, .manual(journeyID: 9), .plan(planID: 1)])
        // The drive out of the 1st was away when the journey by hand began: closed there, not open.
        #expect(journeys[0].isOpen == false)
        #expect(journeys[0].type == .day)
        let byHand = journeys[1]
        #expect(byHand.start == G.time(1, 12))
        #expect(byHand.end == G.time(2, 12))
        #expect(byHand.type == .multiDay)
        #expect(!byHand.isOpen)
    }

    @Test func windowsOverlapOnlyWhenTheyShareAnInstant() {
        let a = DeclaredJourney(origin: .manual(journeyID: 1), start: G.time(1, 10), end: G.time(1, 12))
        let b = DeclaredJourney(origin: .manual(journeyID: 2), start: G.time(1, 12), end: nil)
        let c = DeclaredJourney(origin: .manual(journeyID: 3), start: G.time(1, 11), end: G.time(1, 13))
        #expect(!a.overlaps(b))
        #expect(a.overlaps(c))
        #expect(b.overlaps(c))
    }

    @Test func aMomentIsInterpolatedBetweenTheRoutePointsAroundIt() {
        let before = RoutePoint(time: G.time(1, 10), coordinate: Coordinate(latitude: 45, longitude: 13))
        let after = RoutePoint(time: G.time(1, 10, 1), coordinate: Coordinate(latitude: 45.01, longitude: 13.02))
        let middle = MomentPosition.interpolate(at: G.time(1, 10).adding(seconds: 15), between: before, and: after)
        #expect(abs(middle.latitude - 45.0025) < 1e-9)
        #expect(abs(middle.longitude - 13.005) < 1e-9)
        #expect(MomentPosition.interpolate(at: G.time(1, 10), between: before, and: before) == before.coordinate)
        // Across the antimeridian the short way: halfway from 179.9° to −179.9° is ±180°.
        let east = RoutePoint(time: G.time(1, 10), coordinate: Coordinate(latitude: 0, longitude: 179.9))
        let west = RoutePoint(time: G.time(1, 10, 1), coordinate: Coordinate(latitude: 0, longitude: -179.9))
        let crossing = MomentPosition.interpolate(at: G.time(1, 10).adding(seconds: 30), between: east, and: west)
        #expect(abs(abs(crossing.longitude) - 180) < 1e-9)
    }
}

extension LocalDate {
    func advanced(by days: Int64) -> LocalDate { LocalDate(day: day + days) }
}
