import Foundation
import SeededRandom
import Testing

/// `travelctl import`, `trips` and `trip show` run as processes on real tracks and real files.
@Suite struct ImportCommandTests {
    static let tracks = ["limerick-bus-304-2019-02-18.gpx", "visnjan-car-2020-12-18.gpx"].map {
        Binaries.fixtures.appendingPathComponent("tracks/\($0)").path
    }

    static func temporaryDatabase() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("travel.sqlite").path)
    }

    static func trips(_ db: String) throws -> [[String: Any]] {
        let result = try Binaries.run("travelctl", ["--db", db, "trips", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
    }

    @Test func importsRealTracksIntoTheTripsAPersonWouldMark() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Binaries.run("travelctl", ["--db", db, "import"] + Self.tracks)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.output.contains(
                "limerick-bus-304-2019-02-18.gpx (gpx): 2144 fixes read, 2144 accepted; 1 trip found"
            )
        )
        #expect(result.output.contains("visnjan-car-2020-12-18.gpx (gpx): 104 fixes read, 104 accepted; 1 trip found"))
        #expect(result.standardError.isEmpty, "no progress bar when stderr is not a terminal")

        let trips = try Self.trips(db)
        #expect(trips.count == 2)
        // The bus ride is one trip of ~14 km despite stopping every few hundred metres.
        let bus = try #require(trips.first)
        for key in ["id", "start", "end", "distance_m", "duration_s", "start_place", "end_place", "journey_id"] {
            #expect(bus.keys.contains(key), "trips --json lacks \(key)")
        }
        let distance = try #require(bus["distance_m"] as? Double)
        #expect(distance > 13_000 && distance < 15_000)
        #expect((bus["start"] as? String)?.hasPrefix("2019-02-18T07:") == true)
        #expect((trips[1]["start"] as? String)?.hasPrefix("2020-12-18T06:1") == true)

        let show = try Binaries.run("travelctl", ["--db", db, "trip", "show", "1"])
        #expect(show.status == 0)
        #expect(show.output.contains("Distance"))
        #expect(show.output.contains("Moving time"))
    }

    @Test func importingAFileTwiceAddsNothing() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Binaries.run("travelctl", ["--db", db, "import"] + Self.tracks)
        let before = try Self.trips(db)
        let again = try Binaries.run("travelctl", ["--db", db, "import"] + Self.tracks)
        #expect(again.status == 0)
        #expect(again.output.components(separatedBy: "already imported, nothing added").count == 3)
        let after = try Self.trips(db)
        #expect(after.count == before.count)
        #expect(after.map { $0["start"] as? String } == before.map { $0["start"] as? String })
    }

    @Test func aMissingFileIsOneLineNamingItOnceAndTheOthersAreImported() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Binaries.run("travelctl", ["--db", db, "import", "/nonexistent/log.gpx", Self.tracks[1]])
        #expect(result.status == 1)
        #expect(result.standardError == "travelctl: cannot open /nonexistent/log.gpx: No such file or directory\n")
        #expect(try Self.trips(db).count == 1)
    }

    @Test func killingTheImporterNeverCorruptsAndARerunCompletesIt() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A long NMEA log: the bus ride replayed day after day, with parked nights between.
        let log = directory.appendingPathComponent("month.nmea")
        try NMEALogWriter.repeatedDays(of: Self.tracks[0], days: 40).write(to: log)

        let reference = directory.appendingPathComponent("reference.sqlite").path
        _ = try Binaries.run("travelctl", ["--db", reference, "import", log.path])
        let expected = try Self.trips(reference)
        #expect(expected.count == 40)

        var generator = SplitMix64(seed: 2026)
        for attempt in 0..<4 {
            let process = Process()
            process.executableURL = Binaries.productsDirectory.appendingPathComponent("travelctl")
            process.arguments = ["--db", db, "import", log.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double(generator.next() % 900) / 1000 + 0.05)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let check = try Binaries.run("/usr/bin/sqlite3", [db, "PRAGMA integrity_check;"], absolute: true)
            #expect(check.output == "ok\n", "attempt \(attempt): \(check.output)\(check.standardError)")
        }
        let rerun = try Binaries.run("travelctl", ["--db", db, "import", log.path])
        #expect(rerun.status == 0, "\(rerun.standardError)")
        let trips = try Self.trips(db)
        #expect(trips.map { $0["start"] as? String } == expected.map { $0["start"] as? String })
        #expect(trips.map { $0["end"] as? String } == expected.map { $0["end"] as? String })
        // The trips the killed runs stored are the rerun's own: all linked to the import.
        let imports = try Binaries.run("travelctl", ["--db", db, "imports", "--json"]).output
        #expect(imports.contains("\"trips_found\":40,\"trips\":40}"), "\(imports)")
    }

    @Test func theTrackingThresholdsComeFromTheConfiguration() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("travel-companion.conf")
        // Trips must now cover 10 km: the 14 km bus ride does, the 2.7 km car drive does not.
        try "[Tracking]\nMinimumTripDistanceMeters=10000\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try Binaries.run("travelctl", ["--db", db, "import", "--config", config.path] + Self.tracks)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.trips(db).count == 1)

        try "[Tracking]\nStopRadius=50\n".write(to: config, atomically: true, encoding: .utf8)
        let bad = try Binaries.run("travelctl", ["--db", db, "import", "--config", config.path] + Self.tracks)
        #expect(bad.status == 78)
        #expect(bad.standardError.contains("StopRadius: unknown key, did you mean StopRadiusMeters?"))
    }

    /// The first 150 000 bytes of the bus ride, as a logger that lost power leaves it, and the
    /// number of track points complete in them.
    static func truncatedBusRide(in directory: URL) throws -> (path: String, completePoints: Int) {
        let whole = try Data(contentsOf: URL(fileURLWithPath: tracks[0]))
        let cut = whole.prefix(150_000)
        let path = directory.appendingPathComponent("cut.gpx").path
        try cut.write(to: URL(fileURLWithPath: path))
        let completePoints = String(decoding: cut, as: UTF8.self).components(separatedBy: "</trkpt>").count - 1
        return (path, completePoints)
    }

    /// Issue 14: a GPX file cut short imported nothing and exited 1; truncated NMEA and gpsd JSON
    /// already kept what preceded the cut.
    @Test func aTruncatedGPXImportsEveryCompletePointAndSaysItWasCutShort() throws {
        let (directory, db) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cut, points) = try Self.truncatedBusRide(in: directory)
        #expect(points > 1_000)
        let result = try Binaries.run("travelctl", ["--db", db, "import", cut])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.output
                == "\(cut) (gpx): \(points) fixes read, \(points) accepted; 1 trip found; the file ends mid-document (truncated?)\n"
        )
        #expect(try Self.trips(db).count == 1)

        let decoded = try Binaries.run("travelctl", ["decode", cut])
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(decoded.output.split(separator: "\n").count == points)
        #expect(
            decoded.standardError
                == "travelctl: \(cut): the file ends mid-document (truncated?); the points before the cut were decoded\n"
        )
    }

    @Test func withoutADatabaseItSaysTheDaemonIsNotRunning() throws {
        let result = try Binaries.run("travelctl", ["trips"])
        #expect(result.status == 69)
        #expect(result.standardError.hasPrefix("travelctl: travel-companiond is not running (no socket at "))
    }

    @Test func aMissingDatabaseIsOneLine() throws {
        let result = try Binaries.run("travelctl", ["--db", "/nonexistent/travel.sqlite", "trips"])
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
    }
}
