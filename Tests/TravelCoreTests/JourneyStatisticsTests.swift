import Testing

@testable import TravelCore

@Suite struct JourneyStatisticsTests {
    @Test func journeysCountInTheLocalMonthTheyStartIn() throws {
        let newYearsEve = UTCTime(year: 2025, month: 12, day: 31, hour: 23, minute: 30)!
        let journeys: [(start: UTCTime, distance: Double)] = [
            (newYearsEve, 100_000),
            (UTCTime(year: 2026, month: 3, day: 5, hour: 9)!, 12_000),
            (UTCTime(year: 2026, month: 3, day: 20, hour: 9)!, 8_000),
            (UTCTime(year: 2027, month: 1, day: 1, hour: 9)!, 1_000),
        ]
        let utc = MonthlyTotals(year: 2026, journeys: journeys, zone: .utc)
        #expect(utc.months.count == 12)
        #expect(utc.months.map(\.journeys) == [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(utc.months[2].distance == 20_000)
        #expect(utc.journeys == 2 && utc.distance == 20_000)

        // At +01:00 the New Year's Eve departure is 00:30 on 1 January.
        let plusOne = MonthlyTotals(
            year: 2026,
            journeys: journeys,
            zone: .fixed(try #require(UTCOffset(parsing: "+01:00")))
        )
        #expect(plusOne.months[0].journeys == 1 && plusOne.months[0].distance == 100_000)
        #expect(plusOne.journeys == 3)
    }
}
