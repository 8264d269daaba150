import Testing

@testable import TravelCore

/// `minimumTripDistance` is checked on the distance a trip keeps: up to its arrival. A short
/// loop home → home, then creeping a few metres into the parking space, was announced on the
/// creep's metres and stored with less (241 m of a 300 m minimum), and whether the creep counted
/// depended on the source's speeds (serial and import stored it, gpsd did not).
@Suite struct TripMinimumDistanceTests {
    /// Out and back `out` metres at 6 m/s, a stop shorter than a parking, 40 m of creeping
    /// within it, then parked: the trips ended.
    static func loop(out: Double) -> [TripSummary] {
        var t = TripDetectorTests.Timeline()
        t.park(300, drift: 3)
        t.drive(out, azimuth: 90, speed: 6)
        t.drive(out, azimuth: 270, speed: 6)
        t.park(200, drift: 3)
        t.drive(40, azimuth: 0, speed: 2)
        t.park(600, drift: 3)
        return TripDetectorTests.trips(t.fixes)
    }

    @Test(arguments: [130.0, 150.0])
    func aLoopShorterThanTheMinimumToItsArrivalIsNoTrip(out: Double) {
        #expect(Self.loop(out: out).isEmpty)
    }

    @Test func aLoopLongerThanTheMinimumIsStoredWithAtLeastIt() throws {
        let trips = Self.loop(out: 200)
        #expect(trips.count == 1)
        #expect(try #require(trips.first).distance >= TrackingConfiguration().minimumTripDistance)
    }
}
