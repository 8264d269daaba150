import Testing
import TravelCore
import TravelMessages

@testable import TravelDaemon

/// `Status`'s journey so far: the history's open journey with its trip in progress counted as
/// the engine has it now, so the journey is never shorter than the trip it holds.
@Suite struct OpenJourneyTests {
    static let start = UTCTime(year: 2019, month: 2, day: 18, hour: 7, minute: 50, second: 8)!
    static let here = Coordinate(latitude: 52.66, longitude: -8.63)

    static func trip(from start: UTCTime = start, distance: Double) -> TripSummary {
        TripSummary(startTime: start, endTime: start.adding(seconds: 600), start: here, end: here, distance: distance)
    }

    /// A journey of an ended trip (2 km) and the trip in progress, committed at 3 km.
    static let journey = OpenJourney(
        message: StatusJourneyMessage(
            id: 4,
            destination: "Limerick",
            start: start.adding(seconds: -7_200),
            distance: 5_000,
            trips: 2
        ),
        ongoingTrip: trip(distance: 3_000)
    )

    @Test func theTripInProgressCountsAsTheEngineHasIt() {
        #expect(Self.journey.current(with: Self.trip(distance: 4_250.04)).distance == 6_250)
    }

    @Test func anotherTripOrNoneLeavesTheCommittedJourney() {
        #expect(Self.journey.current(with: nil).distance == 5_000)
        let later = Self.trip(from: Self.start.adding(seconds: 3_600), distance: 900)
        #expect(Self.journey.current(with: later).distance == 5_000)
        let ended = OpenJourney(message: Self.journey.message, ongoingTrip: nil)
        #expect(ended.current(with: Self.trip(distance: 4_000)).distance == 5_000)
    }
}
