import Foundation
import TestSupport
import Testing
import TravelFormats
/// Reviewing and correcting the history, through the daemon's socket and with `--db`: imports
/// listed and removed (and a file imported again), trips removed, notes and photos listed and
/// removed. Each command prints the same bytes either way.
@Suite(.serialized) struct ControlCorrectionTests {
    static let bus = ImportCommandTests.tracks[0]
    static let car = ControlDaemon.car

    static func importBoth(into database: String, config: String) throws {
        for file in [Self.car, Self.bus] {
            let imported = try Binaries.run("travelctl", ["--db", database, "import", "--config", config, file])
            #expect(imported.status == 0, "\(imported.standardError)")
        }
    }

    /// `command` with `--db database` and through the socket: same status, output and errors.
    static func expectSameBothWays(
        _ command: [String],
        daemon: ControlChangeTests.LiveDaemon,
        database: String
    ) throws -> Binaries.Result {
        let viaDB = try Binaries.run("travelctl", command + ["--db", database])
        let viaSocket = try daemon.travelctl(command)
        #expect(viaSocket.status == viaDB.status, "\(command): \(viaSocket.standardError) / \(viaDB.standardError)")
        #expect(viaSocket.output == viaDB.output, "\(command)")
        #expect(viaSocket.standardError == viaDB.standardError, "\(command)")
        return viaDB
    }

    @Test func listingAndRemovingWorkTheSameThroughTheSocketAndWithDB() throws {
        let daemon = try ControlChangeTests.LiveDaemon { state in
            try Self.importBoth(into: state.database, config: state.config)
        }
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        let directory = daemon.state.url
        let rules = ["--config", daemon.state.config]
        let offline = directory.appendingPathComponent("offline.sqlite").path
        try Self.importBoth(into: offline, config: daemon.state.config)
        let photos = Binaries.fixtures.appendingPathComponent("photos")
        let text = directory.appendingPathComponent("holiday.jpg").path
        try "not a photo\n".write(toFile: text, atomically: true, encoding: .utf8)

        var outputs: [String: Binaries.Result] = [:]
        let commands: [[String]] = [
            ["note", "add", "long before", "--at", "2010-01-01T00:00:00Z"] + rules,
            ["note", "add", "on the bus", "--at", "2019-02-18T08:00:00Z"] + rules,
            ["photo", "add", photos.appendingPathComponent("exif-gps.jpg").path] + rules,
            ["photo", "add", photos.appendingPathComponent("no-exif.jpg").path] + rules,
            ["photo", "add", text] + rules,
            ["photo", "add", photos.appendingPathComponent("no-exif.jpg").path, "--at", "2020-12-18T06:20:00Z"]
                + rules,
            ["note", "list"] + rules, ["note", "list", "--json"], ["note", "list", "--since", "2019-01-01"] + rules,
            ["photo", "list"] + rules, ["photo", "list", "--journey", "1", "--json"],
            ["note", "remove", "1"], ["note", "remove", "7"], ["photo", "remove", "2"], ["photo", "remove", "9"],
            ["trip", "delete", "1"] + rules, ["trip", "remove", "1"] + rules, ["trip", "remove", "99"] + rules,
            ["imports", "remove", Self.bus] + rules, ["imports", "remove", "feedfacecafe"] + rules,
            ["trips", "--json"], ["note", "list"] + rules, ["photo", "list"] + rules,
        ]
        for command in commands {
            let result = try Self.expectSameBothWays(command, daemon: daemon, database: offline)
            // A command given twice is looked at as it first ran.
            if outputs[command.joined(separator: " ")] == nil { outputs[command.joined(separator: " ")] = result }
        }
        func output(_ command: [String]) -> Binaries.Result? { outputs[command.joined(separator: " ")] }

        // A note outside every trip and journey is stored, says so, and is listed.
        let early = try #require(output(["note", "add", "long before", "--at", "2010-01-01T00:00:00Z"] + rules))
        #expect(early.output.hasSuffix("in no journey\n"), "\(early.output)")
        let notes = try #require(output(["note", "list"] + rules)).output
        #expect(notes.contains("2010-01-01 00:00") && notes.contains("long before"), "\(notes)")
        let noteJSON = try JSONValue(parsing: try #require(output(["note", "list", "--json"])).output)
        #expect(noteJSON.arrayValue?.count == 2)
        #expect(noteJSON.arrayValue?.first?["journey_id"] == .null, "\(noteJSON)")
        let since = try #require(output(["note", "list", "--since", "2019-01-01"] + rules)).output
        #expect(!since.contains("long before") && since.contains("on the bus"), "\(since)")

        // The photo's own GPS position is kept; no EXIF time needs --at; a text file is refused.
        let gps = try #require(output(["photo", "add", photos.appendingPathComponent("exif-gps.jpg").path] + rules))
        #expect(gps.output.contains("52.66010, -8.63020") && gps.output.contains("position from EXIF GPS"))
        let noTime = try #require(output(["photo", "add", photos.appendingPathComponent("no-exif.jpg").path] + rules))
        #expect(noTime.status == 1 && noTime.standardError.hasSuffix("say when it was taken with --at TIME\n"))
        let notAPhoto = try #require(output(["photo", "add", text] + rules))
        #expect(
            notAPhoto.status == 1
                && notAPhoto.standardError
                    == "travelctl: \(text): not a JPEG, TIFF or HEIC photo (by its first bytes), nothing added\n"
        )

        // Removals, and the refusals of what does not exist.
        #expect(output(["note", "remove", "1"])?.output == "note 1 removed: long before\n")
        #expect(output(["note", "remove", "7"])?.standardError == "travelctl: no note 7\n")
        #expect(output(["photo", "remove", "9"])?.standardError == "travelctl: no photo 9\n")
        let deleted = try #require(output(["trip", "delete", "1"] + rules))
        #expect(deleted.output == "trip 1 removed (2020-12-18 06:16 UTC, 2.6 km); journeys regrouped\n", "\(deleted)")
        #expect(output(["trip", "remove", "1"] + rules)?.standardError == "travelctl: no trip 1\n")
        let removed = try #require(output(["imports", "remove", Self.bus] + rules))
        #expect(removed.output.hasSuffix("(\(Self.bus)): 1 trip\n"), "\(removed)")
        #expect(
            output(["imports", "remove", "feedfacecafe"] + rules)?.standardError
                == "travelctl: no import feedfacecafe (travelctl imports lists them)\n"
        )
        #expect(output(["trips", "--json"])?.output == "[]\n")

        // The same file listed both ways; a removed import can be imported again.
        for listing in [["imports"], ["imports", "--json"], ["imports", "list"]] {
            let viaDB = try Binaries.run("travelctl", listing + ["--db", daemon.state.database])
            let viaSocket = try daemon.travelctl(listing)
            #expect(viaDB.status == 0 && viaSocket.output == viaDB.output, "\(listing): \(viaSocket.standardError)")
        }
        let imports = try JSONValue(parsing: try daemon.travelctl(["imports", "--json"]).output)
        #expect(imports.arrayValue?.map { $0["path"]?.stringValue } == [Self.car], "\(imports)")
        #expect(imports.arrayValue?.first?["trips"]?.intValue == 0, "trip 1 was removed: \(imports)")
        let again = try Binaries.run("travelctl", ["--db", offline, "import"] + rules + [Self.bus])
        #expect(again.output.hasSuffix("2144 fixes read, 2144 accepted; 1 trip found\n"), "\(again.output)")
    }

    @Test func importReplaceRemovesWhatTheEarlierImportAddedAndImportsAgain() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Imported under thresholds that find no trip in the 382 m sail, then corrected.
        let zeus = ImportDatesTests.zeus
        let config = directory.appendingPathComponent("tc.conf").path
        try "[Tracking]\nMinimumTripDistanceMeters=1000\n".write(toFile: config, atomically: true, encoding: .utf8)
        let strict = try Binaries.run("travelctl", ["--db", db, "import", "--config", config, zeus])
        #expect(strict.output.hasSuffix("0 trips found\n"), "\(strict.output)")
        let same = try Binaries.run("travelctl", ["--db", db, "import", zeus])
        #expect(same.output == "\(zeus): already imported, nothing added (import --replace imports it again)\n")
        let replaced = try Binaries.run("travelctl", ["--db", db, "import", "--replace", zeus])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        let lines = replaced.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("import ") && lines[0].hasSuffix("(\(zeus)): 0 trips"))
        #expect(lines.last?.hasSuffix("1 trip found") == true, "\(replaced.output)")
        #expect(try ImportCommandTests.trips(db).count == 1)
        // Replaced again, its trip goes and comes back: one trip, one import.
        let twice = try Binaries.run("travelctl", ["--db", db, "import", "--replace", zeus])
        #expect(twice.output.split(separator: "\n").first?.hasSuffix("(\(zeus)): 1 trip") == true, "\(twice.output)")
        #expect(try ImportCommandTests.trips(db).count == 1)
        let listed = try Binaries.run("travelctl", ["--db", db, "imports", "--json"])
        let imports = try JSONValue(parsing: listed.output).arrayValue ?? []
        #expect(imports.count == 1 && imports.first?["trips"]?.intValue == 1, "\(listed.output)")
    }

    @Test func theTripInProgressIsNotRemoved() throws {
        let daemon = try ControlChangeTests.LiveDaemon(configuration: "[Storage]\nFlushIntervalSec=1\n")
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        #expect(daemon.process.waitForLine(containing: "source connected") != nil, "\(daemon.process.output)")
        let drive = try DaemonGPSDTests.Drive()
        daemon.receiver.write(DaemonSerialTests.line(drive.epochs.prefix(drive.epochs.count / 2)))
        #expect(daemon.process.waitForLine(containing: "trip started") != nil, "\(daemon.process.output)")
        var ongoing: Int?
        for _ in 0..<50 where ongoing == nil {
            let trips = try JSONValue(parsing: try daemon.travelctl(["trips", "--json"]).output)
            ongoing = trips.arrayValue?.first?["id"]?.intValue
            if ongoing == nil { usleep(200_000) }
        }
        let id = try #require(ongoing, "the trip in progress was never stored")
        let refused = try daemon.travelctl(["trip", "remove", "\(id)"])
        #expect(refused.status == 1)
        #expect(
            refused.standardError
                == "travelctl: trip \(id) is still being recorded; it can be removed once it has ended\n"
        )
        let offline = try Binaries.run("travelctl", ["trip", "remove", "\(id)", "--db", daemon.state.database])
        #expect(offline.standardError == refused.standardError)
        #expect(try JSONValue(parsing: try daemon.travelctl(["trips", "--json"]).output).arrayValue?.count == 1)
    }
}
