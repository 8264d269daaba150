import Testing

@testable import TravelCore

/// Time zones from POSIX rules (no files: the TZif files are read in TravelIOTests), and what
/// local days mean for journeys and monthly statistics across daylight saving time.
@Suite struct LocalTimeZoneTests {
    /// Dublin as its TZif footer writes it: summer time (IST, +01:00) is standard, winter's GMT
    /// is "daylight saving" one hour behind.
    static let dublin = LocalTimeZone(name: "Europe/Dublin", posixRule: "IST-1GMT0,M10.5.0,M3.5.0/1")!

    static func time(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> UTCTime {
        UTCTime(year: year, month: month, day: day, hour: hour, minute: minute)!
    }

    @Test func dublinsNegativeDaylightSavingTime() {
        // zdump -v Europe/Dublin: 2024-03-31 01:00:00 UT → IST; 2024-10-27 01:00:00 UT → GMT.
        #expect(Self.dublin.offset(at: Self.time(2024, 3, 31, 0, 59)) == 0)
        #expect(Self.dublin.offset(at: Self.time(2024, 3, 31, 1)) == 3600)
        #expect(Self.dublin.offset(at: Self.time(2024, 10, 27, 0, 59)) == 3600)
        #expect(Self.dublin.offset(at: Self.time(2024, 10, 27, 1)) == 0)
        #expect(Self.dublin.abbreviation(at: Self.time(2024, 7, 1, 12)) == "IST")
        #expect(Self.dublin.type(at: Self.time(2024, 1, 1, 12)).isDaylightSaving)
        #expect(Self.dublin.fixedOffset == nil)
    }

    @Test func southernAndHalfHourRules() throws {
        // zdump -v Australia/Lord_Howe: 2023-09-30 15:30:00 UT → +11; 2024-04-06 15:00:00 UT → +1030.
        let lordHowe = try #require(
            LocalTimeZone(name: "Australia/Lord_Howe", posixRule: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        )
        #expect(lordHowe.offset(at: Self.time(2023, 9, 30, 15, 29)) == 37_800)
        #expect(lordHowe.offset(at: Self.time(2023, 9, 30, 15, 30)) == 39_600)
        #expect(lordHowe.offset(at: Self.time(2024, 4, 6, 14, 59)) == 39_600)
        #expect(lordHowe.offset(at: Self.time(2024, 4, 6, 15)) == 37_800)
        #expect(lordHowe.abbreviation(at: Self.time(2024, 1, 1, 0)) == "+11")
        let kolkata = try #require(LocalTimeZone(name: "Asia/Kolkata", posixRule: "IST-5:30"))
        #expect(kolkata.fixedOffset == UTCOffset(seconds: 19_800))
    }

    @Test(arguments: ["", "EST", "EST5EDT", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "AB5", "<+1>-1", "EST99"])
    func rejectsMalformedRules(_ text: String) {
        #expect(LocalTimeZone(name: "x", posixRule: text) == nil)
    }

    /// The local midnight and the hours that a change skips or repeats, as `instant` documents.
    @Test func localTimesAcrossChanges() {
        let zone = Self.dublin
        let summerDay = zone.localDay(of: Self.time(2024, 7, 14, 12))
        #expect(zone.instant(day: summerDay, secondOfDay: 0) == Self.time(2024, 7, 13, 23))
        // 2024-03-31: clocks go from 01:00 GMT to 02:00 IST; 01:30 does not exist: 02:30 IST.
        let spring = zone.localDay(of: Self.time(2024, 3, 31, 12))
        #expect(zone.instant(day: spring, secondOfDay: 5400) == Self.time(2024, 3, 31, 1, 30))
        #expect(zone.instant(day: spring, secondOfDay: 0) == Self.time(2024, 3, 31, 0))
        // 2024-10-27: 01:30 happens twice (IST at 00:30 UTC, GMT at 01:30 UTC): the first.
        let autumn = zone.localDay(of: Self.time(2024, 10, 27, 12))
        #expect(zone.instant(day: autumn, secondOfDay: 5400) == Self.time(2024, 10, 27, 0, 30))
        #expect(zone.instant(day: autumn, secondOfDay: 3 * 3600) == Self.time(2024, 10, 27, 3))
    }

    /// A drive ending at 23:30 UTC on a July day in Dublin ends at 00:30 IST the next day: a
    /// journey that left home at 21:00 UTC and comes back then spans two local days. The same drive in
    /// January stays on one day.
    @Test(arguments: [(7, JourneyType.multiDay), (1, JourneyType.day)])
    func lateDriveIsTypedOnItsLocalDay(_ month: Int, _ expected: JourneyType) throws {
        let home = Coordinate(latitude: 53.3498, longitude: -6.2603)
        let away = Coordinate(latitude: 53.6, longitude: -6.2603)
        let rules = JourneyRules(home: home, timeZone: Self.dublin)
        let out = JourneyGroupingTests.trip(
            1,
            Self.time(2024, month, 14, 21),
            Self.time(2024, month, 14, 21, 40),
            from: home,
            to: away,
            km: 28
        )
        let back = JourneyGroupingTests.trip(
            2,
            Self.time(2024, month, 14, 23),
            Self.time(2024, month, 14, 23, 30),
            from: away,
            to: home,
            km: 28
        )
        let journeys = JourneyGrouping.group([out, back], home: home, rules: rules)
        #expect(journeys.map(\.type) == [expected])
        // Counted in the month it starts in, locally: a drive at 23:30 UTC on 31 July is August's.
        let lateJuly = Self.time(2024, 7, 31, 23, 30)
        let totals = MonthlyTotals(year: 2024, journeys: [(lateJuly, 1000)], zone: Self.dublin)
        #expect(totals.months[7].journeys == 1)
        #expect(totals.months[6].journeys == 0)
        let winter = MonthlyTotals(year: 2024, journeys: [(Self.time(2024, 1, 31, 23, 30), 1000)], zone: Self.dublin)
        #expect(winter.months[0].journeys == 1)
    }
}
