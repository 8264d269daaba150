import Foundation
import TestSupport
import Testing
import TravelConfiguration
import TravelCore
import TravelIO

/// The TZif reader on the system's own tz database, checked against what glibc's `zdump -v`
/// (package libc-bin) prints for the same files, transition by transition.
@Suite struct TimeZoneFileTests {
    /// One line of `zdump -v`: `Europe/Dublin  Sun Mar 26 01:00:00 2023 UT = Sun Mar 26 02:00:00
    /// 2023 IST isdst=0 gmtoff=3600`.
    struct ZdumpLine {
        var instant: UTCTime
        var abbreviation: String
        var isDaylightSaving: Bool
        var offset: Int
    }

    /// Runs `zdump -v -c FROM,TO ZONE` and reads its lines (the `NULL` lines at the ends of
    /// time are skipped).
    static func zdump(_ zone: String, from: Int, to: Int) throws -> [ZdumpLine] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
        process.arguments = ["-v", "-c", "\(from),\(to)", zone]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 16, words[6] == "UT", let month = months.firstIndex(of: String(words[2])),
                let day = Int(words[3]), let year = Int(words[5])
            else { return nil }
            let clock = words[4].split(separator: ":").compactMap { Int($0) }
            guard clock.count == 3,
                let instant = UTCTime(
                    year: year,
                    month: month + 1,
                    day: day,
                    hour: clock[0],
                    minute: clock[1],
                    second: clock[2]
                ),
                let offset = Int(words[15].dropFirst("gmtoff=".count))
            else { return nil }
            return ZdumpLine(
                instant: instant,
                abbreviation: String(words[13]),
                isDaylightSaving: words[14] == "isdst=1",
                offset: offset
            )
        }
    }

    static let database = SystemTimeZoneDatabase()

    /// Each second either side of every change from 2023 to 2025, and 2040 to 2041: long after
    /// the last transition Debian's files list (2037), where the footer's POSIX rule decides.
    @Test(arguments: ["Europe/Dublin", "America/New_York", "Australia/Lord_Howe"])
    func offsetsMatchZdumpAroundEveryChange(_ name: String) throws {
        let zone = try Self.database.zone(named: name)
        #expect(zone.name == name)
        for (from, to) in [(2023, 2025), (2040, 2041)] {
            let lines = try Self.zdump(name, from: from, to: to)
            #expect(lines.count >= 4, "zdump printed \(lines.count) changes for \(name) in \(from)–\(to)")
            for line in lines {
                let type = zone.type(at: line.instant)
                #expect(type.offset == line.offset, "\(name) at \(line.instant)")
                #expect(type.abbreviation == line.abbreviation, "\(name) at \(line.instant)")
                #expect(type.isDaylightSaving == line.isDaylightSaving, "\(name) at \(line.instant)")
            }
        }
    }

    /// Values recorded from `zdump -v` (no changes listed since 1945 for Kolkata, none ever for UTC).
    @Test func zonesWithoutChangesKeepTheirOffset() throws {
        let kolkata = try Self.database.zone(named: "Asia/Kolkata")
        let utc = try Self.database.zone(named: "UTC")
        for year in [1990, 2024, 2050] {
            let time = try #require(UTCTime(year: year, month: 7, day: 1))
            #expect(kolkata.offset(at: time) == 19_800)
            #expect(kolkata.abbreviation(at: time) == "IST")
            #expect(utc.offset(at: time) == 0)
        }
        #expect(try Self.database.zone(named: "Etc/UTC").offset(at: UTCTime(milliseconds: 0)) == 0)
        // Read as a fixed zone or as its file, UTC is the same.
        #expect(utc == .utc)
    }

    /// Dublin, read from its file: the summer drive at 23:30 UTC is on the next local day.
    @Test func dublinFromItsFileCutsSummerDaysAtLocalMidnight() throws {
        let dublin = try Self.database.zone(named: "Europe/Dublin")
        let july = try #require(UTCTime(year: 2024, month: 7, day: 14, hour: 23, minute: 30))
        let january = try #require(UTCTime(year: 2024, month: 1, day: 14, hour: 23, minute: 30))
        #expect(dublin.localDay(of: july) == LocalTimeZone.utc.localDay(of: july) + 1)
        #expect(dublin.localDay(of: january) == LocalTimeZone.utc.localDay(of: january))
        #expect(dublin.abbreviation(at: july) == "IST")
        #expect(dublin.abbreviation(at: january) == "GMT")
    }

    @Test(arguments: ["Bogus/Zone", "../../etc/passwd", "/etc/localtime", "Europe/../../../etc/passwd", "", "Europe"])
    func rejectsUnknownAndEscapingNames(_ name: String) {
        #expect(throws: TimeZoneError.self) { try Self.database.zone(named: name) }
    }

    @Test func fixedAndPOSIXNamesNeedNoFile() throws {
        let empty = SystemTimeZoneDatabase(directory: "/nonexistent", environmentTZ: nil, localtime: "/nonexistent")
        #expect(try empty.zone(named: "UTC+01:00").offset(at: UTCTime(milliseconds: 0)) == 3600)
        let rule = try empty.zone(named: "IST-1GMT0,M10.5.0,M3.5.0/1")
        #expect(rule.offset(at: try #require(UTCTime(year: 2024, month: 7, day: 1))) == 3600)
        #expect(empty.machineZone == .utc, "no /etc/localtime: UTC")
    }

    @Test func machineZoneFollowsTZThenTheLocaltimeLink() throws {
        let directory = try TemporaryDirectory()
        let link = directory.file("localtime")
        try FileManager.default.createSymbolicLink(
            atPath: link,
            withDestinationPath: "/usr/share/zoneinfo/America/New_York"
        )
        let linked = SystemTimeZoneDatabase(environmentTZ: nil, localtime: link)
        #expect(linked.machineZone.name == "America/New_York")
        let fromTZ = SystemTimeZoneDatabase(environmentTZ: ":Europe/Dublin", localtime: link)
        #expect(fromTZ.machineZone.name == "Europe/Dublin")
        let badTZ = SystemTimeZoneDatabase(environmentTZ: "Bogus/Zone", localtime: link)
        #expect(badTZ.machineZone == .utc)
    }

    /// With the system's database: offsets as people write them, tz names, full POSIX rules and
    /// the database's own POSIX-like names are read; `Etc/GMT+8` and `CST-8` are refused.
    @Test func systemDatabaseReadsWrittenOffsetsAndRefusesAmbiguousOnes() throws {
        let july = try #require(UTCTime(year: 2026, month: 7, day: 1))
        #expect(try Self.database.zone(named: "UTC+8").offset(at: july) == 28_800)
        #expect(try Self.database.zone(named: "GMT-5").offset(at: july) == -18_000)
        #expect(try Self.database.zone(named: "Asia/Shanghai").offset(at: july) == 28_800)
        #expect(try Self.database.zone(named: "EST5EDT").offset(at: july) == -14_400)
        #expect(try Self.database.zone(named: "EST5EDT,M3.2.0,M11.1.0").offset(at: july) == -14_400)
        #expect(try Self.database.zone(named: "GMT0").offset(at: july) == 0)
        for text in ["Etc/GMT+8", "Etc/GMT-8", "CST-8", "<+08>-8"] {
            #expect(throws: TimeZoneError.self, "\(text)") { try Self.database.zone(named: text) }
        }
    }

    /// `TZ` is POSIX, as the C library and `date` read it: `TZ=UTC+8` is 8 h west, named so.
    @Test func machineZoneReadsTZAsTheCLibraryDoes() throws {
        let july = try #require(UTCTime(year: 2026, month: 7, day: 1))
        let posix = SystemTimeZoneDatabase(environmentTZ: "UTC+8", localtime: "/nonexistent").machineZone
        #expect(posix.offset(at: july) == -28_800)
        #expect(posix.name == "UTC-08:00")
        let china = SystemTimeZoneDatabase(environmentTZ: "CST-8", localtime: "/nonexistent").machineZone
        #expect(china.name == "UTC+08:00")
        let named = SystemTimeZoneDatabase(environmentTZ: "Asia/Shanghai", localtime: "/nonexistent").machineZone
        #expect(named.name == "Asia/Shanghai")
        let rule = SystemTimeZoneDatabase(environmentTZ: "EST5EDT,M3.2.0,M11.1.0", localtime: "/nonexistent")
        #expect(rule.machineZone.offset(at: july) == -14_400)
    }

    /// `check-config`'s path: `UTC+8` is 8 h east; `CST-8` is refused at its line with the text to
    /// write (issue 26: both were read as POSIX, `UTC+8` as 8 h west).
    @Test func configurationReadsUTCPlus8AsEastAndRefusesPOSIXRules() throws {
        for text in ["UTC+8", "GMT+8", "utc+8", "+08:00", "UTC+08:00"] {
            let configuration = try TravelConfiguration(
                main: ConfigurationText(name: "/etc/x.conf", text: "[Journeys]\nTimeZone=\(text)\n"),
                dropIns: [],
                timeZones: Self.database
            )
            #expect(configuration.journeyRules.timeZone.fixedOffset?.seconds == 28_800, "\(text)")
            #expect(configuration.journeyRules.timeZone.name == "UTC+08:00", "\(text)")
        }
        #expect {
            try TravelConfiguration(
                main: ConfigurationText(name: "/etc/x.conf", text: "[Journeys]\nHome=auto\nTimeZone=CST-8\n"),
                dropIns: [],
                timeZones: Self.database
            )
        } throws: { error in
            "\(error)".hasPrefix("/etc/x.conf:3: [Journeys] TimeZone: 'CST-8' is a POSIX TZ rule")
                && "\(error)".contains("write UTC+8 for that") && !"\(error)".contains("\n")
        }
    }

    /// `check-config`'s path: an unknown TimeZone is refused at its file and line.
    @Test func configurationRefusesAnUnknownZoneAtItsLine() throws {
        let text = "[Journeys]\nHome=auto\nTimeZone=Bogus/Zone\n"
        #expect {
            try TravelConfiguration(
                main: ConfigurationText(name: "/etc/x.conf", text: text),
                dropIns: [],
                timeZones: Self.database
            )
        } throws: { error in
            "\(error)".hasPrefix("/etc/x.conf:3: [Journeys] TimeZone: expected a time zone")
                && "\(error)".contains("'Bogus/Zone'")
        }
        let dublin = try TravelConfiguration(
            main: ConfigurationText(
                name: "/etc/x.conf",
                text: "[Journeys]\nTimeZone=Europe/Dublin\nUTCOffset=+05:00\n"
            ),
            dropIns: [],
            timeZones: Self.database
        )
        #expect(dublin.journeyRules.timeZone.name == "Europe/Dublin", "TimeZone wins over UTCOffset")
        let legacy = try TravelConfiguration(
            main: ConfigurationText(name: "/etc/x.conf", text: "[Journeys]\nUTCOffset=+05:00\n"),
            dropIns: [],
            timeZones: Self.database
        )
        #expect(legacy.journeyRules.timeZone.name == "UTC+05:00")
    }
}
