import Foundation
import Testing

/// Journeys across unrecorded movement, as processes on a real SQLite file: the two bundled
/// drives (Limerick 2019, Istria 2020) imported with `Home=` at the bus's start.
@Suite struct JourneyBreakTests {
    /// A database with both bundled drives imported, and a configuration with `Home=` at the bus's start.
    static func importedBothDrives() throws -> (directory: URL, db: String, config: String) {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let config = directory.appendingPathComponent("travel-companion.conf").path
        try "[Journeys]\nHome=\(start.latitude), \(start.longitude)\nTimeZone=UTC\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let imported = try HistoryCommandTests.run(
            ["--db", db, "import", "--config", config] + ImportCommandTests.tracks
        )
        #expect(imported.status == 0, "\(imported.standardError)")
        return (directory, db, config)
    }

    /// Before: one `multi-day` journey of 668 days from Limerick to Istria, the drive between never recorded.
    @Test func twoDrivesFarApartInPlaceAndTimeAreTwoJourneys() throws {
        let (directory, db, config) = try Self.importedBothDrives()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journeys = try #require(
            try HistoryCommandTests.json(["--db", db, "journeys", "--config", config]) as? [[String: Any]]
        )
        let trips = try ImportCommandTests.trips(db)
        #expect(trips.count == 2)
        #expect(journeys.count == 2, "\(journeys)")
        #expect(journeys.map { ($0["trip_ids"] as? [Int]) ?? [] } == trips.map { [$0["id"] as? Int ?? -1] })
        #expect(journeys.map { $0["start_date"] as? String } == ["2019-02-18", "2020-12-18"])
        #expect(journeys.map { $0["end_date"] as? String } == ["2019-02-18", "2020-12-18"])
        #expect(journeys.map { $0["type"] as? String } == ["local", "day"])
        // Each destination is where its trip parked, named as the trip's end is.
        #expect(journeys.map { $0["destination"] as? String } == trips.map { $0["end_place"] as? String })
        let table = try HistoryCommandTests.run(["--db", db, "journeys", "--config", config])
        #expect(table.status == 0 && !table.output.contains("668"), "\(table.output)")
    }

    /// Before: the stop after the bus ride said "Parked from 2019-02-18 … until 2020-12-18 …",
    /// though the vehicle was next seen 1 900 km away.
    @Test func anExportedStopTheVehicleLeftUnrecordedDoesNotClaimItWasParkedUntilTheNextTrip() throws {
        let (directory, db, _) = try Self.importedBothDrives()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try Binaries.run("travelctl", ["--db", db, "export", "--format", "geojson"])
        #expect(export.status == 0, "\(export.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: export.standardOutput) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        let stops = features.compactMap { $0["properties"] as? [String: Any] }.filter {
            $0["kind"] as? String == "stop"
        }
        #expect(stops.count == 2, "\(stops)")
        #expect(stops.map { $0["moved_unrecorded"] as? Bool } == [true, false])
        #expect(stops.first?["departure"] is NSNull)
        let description = try #require(stops.first?["description"] as? String)
        #expect(!description.contains("Parked"), "\(description)")
        #expect(description.contains("moved unrecorded before the next trip, which started elsewhere at 2020-12-18"))
        #expect((stops.last?["description"] as? String)?.hasPrefix("Parked since 2020-12-18") == true)
        let gpx = try Binaries.run("travelctl", ["--db", db, "export", "--format", "gpx"])
        #expect(gpx.output.components(separatedBy: "Parked").count == 2, "one parked stop: \(gpx.output.prefix(2000))")
    }

    /// Before: `Home=` 400 m from where the week's nights were spent closed no journey (every one
    /// stayed open, "away") and `home` said only "configured (0 of 5 recorded nights there)".
    @Test func aHomeWrittenAFewHundredMetresOffIsSaidWithTheLineToWrite() throws {
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let off = (latitude: start.latitude + 0.0036, longitude: start.longitude)  // 400 m north
        let (directory, db, config) = try HistoryCommandTests.importedWeek("Home=\(off.latitude), \(off.longitude)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = try HistoryCommandTests.run(["--db", db, "home", "--config", config])
        #expect(home.status == 0, "\(home.standardError)")
        #expect(home.output.contains("Warning: Home= ("), "\(home.output)")
        #expect(home.output.contains(" m from where the vehicle spends its nights ("), "\(home.output)")
        #expect(home.output.contains("3 nights), beyond the 200 m place radius"), "\(home.output)")
        #expect(home.output.contains("If that is home, write Home=52.629"), "\(home.output)")
        let json = try #require(
            try HistoryCommandTests.json(["--db", db, "home", "--config", config]) as? [String: Any]
        )
        let elsewhere = try #require(json["nights_elsewhere"] as? [String: Any], "\(json)")
        #expect(elsewhere["nights"] as? Int == 3)
        #expect((350...450).contains(elsewhere["distance_m"] as? Double ?? 0), "\(elsewhere)")
        // Written where the nights are, home closes the journeys again and nothing is said.
        let fixed = directory.appendingPathComponent("fixed.conf").path
        let lat = try #require(elsewhere["lat"] as? Double)
        let lon = try #require(elsewhere["lon"] as? Double)
        try "[Journeys]\nHome=\(lat), \(lon)\n".write(toFile: fixed, atomically: true, encoding: .utf8)
        let quiet = try HistoryCommandTests.run(["--db", db, "home", "--config", fixed])
        #expect(!quiet.output.contains("Warning"), "\(quiet.output)")
    }

    /// The daemon says it too, at start: nobody runs `travelctl home` to learn why journeys stay open.
    @Test func theDaemonWarnsOfAMisplacedHomeAtStart() throws {
        let start = try NMEALogWriter.points(ofGPX: HistoryCommandTests.bus)[0]
        let (directory, db, config) = try HistoryCommandTests.importedWeek(
            "Home=\(start.latitude + 0.0036), \(start.longitude)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control").path
        let text = try String(contentsOfFile: config, encoding: .utf8) + "[Control]\nSocket=\(socket)\n"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess([
            "run", "--config", config, "--db", db, "--source", "file://\(ImportCommandTests.tracks[1])?speed=0",
        ])
        let warning = daemon.waitForLine(containing: "from where the vehicle spends its nights")
        #expect(warning?.contains("If that is home, write Home=52.629") == true, "\(daemon.output)")
        daemon.send(SIGTERM)
        _ = daemon.waitForExit()
    }
}
