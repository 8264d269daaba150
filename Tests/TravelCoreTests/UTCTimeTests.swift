import Testing

@testable import TravelCore

@Suite struct UTCTimeTests {
    @Test func roundTripsISO8601() throws {
        let t = try #require(UTCTime(iso8601: "2007-12-23T19:32:21.250Z"))
        #expect(t.iso8601 == "2007-12-23T19:32:21.250Z")
        #expect(UTCTime(iso8601: "1970-01-01T00:00:00Z")?.milliseconds == 0)
        #expect(UTCTime(iso8601: "1969-12-31T23:59:59.999Z")?.milliseconds == -1)
        #expect(UTCTime(iso8601: "2024-02-29T12:00:00+02:00")?.iso8601 == "2024-02-29T10:00:00.000Z")
    }

    @Test(arguments: [
        "", "2023-02-29T00:00:00Z", "2023-01-01T24:00:00Z", "2023-01-01T00:00:00", "2023-01-01T00:00:00.Z",
    ])
    func rejectsInvalidTimes(_ text: String) {
        #expect(UTCTime(iso8601: text) == nil)
    }

    @Test func civilDatesAgreeAcrossCenturies() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (y, m, d) = UTCTime.civilFromDays(days)
            #expect(UTCTime.daysFromCivil(year: y, month: m, day: d) == days)
        }
    }
}
