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

    /// Offsets as people write them mean hours east (+) or west (−) of UTC, whatever the prefix or
    /// its case; the zone is named by its meaning (issue 26: `UTC+8` was read as POSIX, 8 h west).
    @Test(arguments: [
        ("UTC+8", 28_800), ("GMT+8", 28_800), ("utc+8", 28_800), ("gmt+08", 28_800), ("UTC+08:00", 28_800),
        ("UTC+0800", 28_800), ("+08:00", 28_800), ("+8", 28_800), ("UTC-5", -18_000), ("GMT-5", -18_000),
        ("-05:00", -18_000), ("UTC+05:30", 19_800), ("UTC+5:30", 19_800), ("UTC-03:30", -12_600),
        ("UTC+14", 50_400), ("UTC-12", -43_200), ("UTC", 0), ("GMT", 0), ("UTC+0", 0), ("GMT-0", 0),
    ])
    func writtenOffsetsMeanWhatPeopleMean(_ text: String, _ seconds: Int) throws {
        let zone = try FixedTimeZoneDatabase().zone(named: text)
        #expect(zone.fixedOffset?.seconds == seconds, "\(text)")
        #expect(zone.name == (seconds == 0 ? "UTC" : "UTC\(UTCOffset(seconds: seconds)!)"))
        #expect(TimeZoneName.writtenOffset(TimeZoneName.written(zone.fixedOffset!)) == zone, "written back")
    }

    @Test(arguments: [
        "UTC+15", "UTC-13", "UTC+8:60", "UTC++8", "UTC+", "UTC8", "8", "UTC+123", "UTC+8:0", "Asia/Shanghai",
    ])
    func notWrittenOffsets(_ text: String) {
        #expect(TimeZoneName.writtenOffset(text) == nil, "\(text)")
    }

    /// A POSIX rule without daylight saving time, and the tz database's `Etc/GMT±n`, count hours
    /// west: refused, saying what to write for either meaning.
    @Test(arguments: [
        ("CST-8", "it means 8 h east; write UTC+8 for that"),
        ("<+08>-8", "it means 8 h east; write UTC+8 for that"),
        ("EST5", "it means 5 h west; write UTC-5 for that"),
        ("UTC8", "it means 8 h west; write UTC-8 for that"),
        ("IST-5:30", "it means 5 h 30 min east; write UTC+05:30 for that"),
        ("Etc/GMT+8", "is 8 h west of UTC (it counts hours west, as POSIX does); write UTC-8 for that, or UTC+8"),
        ("Etc/GMT-8", "is 8 h east of UTC (it counts hours west, as POSIX does); write UTC+8 for that, or UTC-8"),
    ])
    func ambiguousTextsAreRefusedWithTheFix(_ text: String, _ fix: String) {
        #expect {
            try FixedTimeZoneDatabase().zone(named: text)
        } throws: { error in
            guard case TimeZoneError.ambiguous(text, let reason) = error else { return false }
            return reason.contains(fix)
        }
    }

    /// Unmistakable texts are not refused: a full POSIX rule with its changes, a tz name, zero.
    @Test(arguments: ["EST5EDT,M3.2.0,M11.1.0", "IST-1GMT0,M10.5.0,M3.5.0/1", "Asia/Shanghai", "GMT0", "Etc/GMT+0"])
    func unmistakableTextsAreNotAmbiguous(_ text: String) {
        #expect(TimeZoneName.ambiguity(text) == nil)
    }

    /// A `--since`/`--until` date is the whole local day; an instant stays what it is.
    @Test func dateBoundsAreLocalDays() throws {
        let shanghai = try #require(LocalTimeZone(name: "Asia/Shanghai", posixRule: "CST-8"))
        let day = try #require(TimeBound(parsing: "2026-01-09"))
        #expect(day.start(in: shanghai) == UTCTime(iso8601: "2026-01-08T16:00:00Z"))
        #expect(day.end(in: shanghai) == UTCTime(iso8601: "2026-01-09T15:59:59.999Z"))
        let losAngeles = try #require(LocalTimeZone(name: "America/Los_Angeles", posixRule: "PST8PDT,M3.2.0,M11.1.0"))
        let july = try #require(TimeBound(parsing: "2026-07-31"))
        #expect(july.start(in: losAngeles) == UTCTime(iso8601: "2026-07-31T07:00:00Z"))
        #expect(july.end(in: losAngeles) == UTCTime(iso8601: "2026-08-01T06:59:59.999Z"))
        let instant = try #require(TimeBound(parsing: "2026-01-09T07:36:00Z"))
        #expect(instant.start(in: shanghai) == UTCTime(iso8601: "2026-01-09T07:36:00Z"))
        #expect(instant.end(in: losAngeles) == UTCTime(iso8601: "2026-01-09T07:36:00Z"))
        #expect(TimeBound(parsing: "2026-02-30") == nil)
        #expect(day.description == "2026-01-09" && instant.description == "2026-01-09T07:36:00.000Z")
    }
}
