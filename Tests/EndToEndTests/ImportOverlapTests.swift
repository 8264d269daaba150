import Foundation
import Testing

/// `travelctl import` of logs overlapping what the history holds, as processes on real files: an
/// import fills gaps, never takes over, changes or removes a recorded trip, and the same fixes
/// give the same trips whatever order they come in.
@Suite struct ImportOverlapTests {
    static let bus = ImportCommandTests.tracks[0]

    static func run(_ arguments: [String]) throws -> String {
        let result = try Binaries.run("travelctl", arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result.output
    }

    /// The trips as `trips --json` prints them, and that none overlaps the next.
    static func trips(_ db: String) throws -> String {
        let trips = try ImportCommandTests.trips(db)
        let spans = trips.compactMap { trip in (trip["start"] as? String).map { ($0, trip["end"] as? String ?? "~") } }
        for (earlier, later) in zip(spans.sorted { $0 < $1 }, spans.sorted { $0 < $1 }.dropFirst()) {
            #expect(earlier.1 < later.0, "\(earlier) overlaps \(later)")
        }
        return try run(["--db", db, "trips", "--json"])
    }

    /// The bus ride recorded live by the daemon (replayed to its end) into `state.database`.
    static func recordLive(_ state: DaemonReplayTests.StateDirectory) throws {
        let daemon = try state.daemon(replaying: bus, speed: "0")
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    @Test func importingTheLogOfALiveDriveAddsNothingAndRemovingItKeepsTheLiveTrip() throws {
        // Fails before the fix: the import took the live trip over ("1 trip found", the trip
        // linked to it) and `imports remove` deleted it.
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        try Self.recordLive(state)
        let live = try Self.trips(state.database)
        #expect(live.contains("\"start\":\"2019-02-18T07:50"), "\(live)")

        let summary = try Self.run(["--db", state.database, "import", "--config", state.config, Self.bus])
        #expect(
            summary.contains(
                "(gpx): 2144 fixes read, 11 accepted; 0 trips found; 2133 fixes skipped: already recorded 2019-02-18 07:49–09:00"
            ),
            "\(summary)"
        )
        #expect(try Self.trips(state.database) == live)
        let removed = try Self.run(["--db", state.database, "imports", "remove", Self.bus])
        #expect(removed.hasSuffix(": 0 trips\n"), "\(removed)")
        #expect(try Self.trips(state.database) == live)
    }

    @Test func aReceiverLogOfLiveHoursAddsNoSecondTripAndADryRunWritesNothing() throws {
        // Fails before the fix: the NMEA log (speeds derived from positions, so its trip starts
        // 4 s before the live one) added a second, overlapping trip of the same ride.
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        // A zone around the stop the ride leaves: the live recording has its one exit event.
        _ = try Self.run([
            "--db", state.database, "zone", "add", "Depot", "--lat", "52.62915", "--lon", "-8.66175", "--radius", "150",
        ])
        try Self.recordLive(state)
        let live = try Self.trips(state.database)
        let liveEvents = try Self.run(["--db", state.database, "events", "--json"])
        #expect(liveEvents.components(separatedBy: "\"zone_name\"").count == 2, "\(liveEvents)")
        let log = state.url.appendingPathComponent("receiver.nmea")
        try NMEALogWriter.repeatedDays(of: Self.bus, days: 2).write(to: log)

        let files = [state.database, state.database + "-wal"]
        let before = files.map { FileManager.default.contents(atPath: $0) }
        let preview = try Self.run(["--db", state.database, "import", "--dry-run", "--config", state.config, log.path])
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before, "a dry run writes nothing")
        #expect(preview.hasSuffix("Dry run: nothing was written to \(state.database).\n"), "\(preview)")

        let imported = try Self.run(["--db", state.database, "import", "--config", state.config, log.path])
        #expect(preview.hasPrefix(imported), "the preview says what the import does:\n\(preview)\n\(imported)")
        // The second day is not recorded: it is the gap the log fills.
        #expect(imported.contains("; 1 trip found; 2133 fixes skipped: already recorded 2019-02-18 07:49–09:00"))
        let trips = try ImportCommandTests.trips(state.database)
        #expect(trips.map { ($0["start"] as? String)?.prefix(16) } == ["2019-02-18T07:50", "2019-02-19T07:50"])
        #expect(try Self.trips(state.database).hasPrefix(String(live.dropLast(2))), "the live trip is unchanged")
        // The live exit stays as it was, none is added for the time recorded live, and day 2
        // brings its own exit.
        let events = try Self.run(["--db", state.database, "events", "--json"])
        #expect(events.hasPrefix(String(liveEvents.dropLast(2))), "\(events)")
        #expect(!events.contains("\"time\":\"2019-02-18T09"), "\(events)")
    }

    /// The bus ride as a receiver's NMEA log and the GPX written from the same fixes (speeds in
    /// both, as a receiver gives them).
    static func sameDrive(in directory: URL) throws -> (nmea: String, gpx: String, firstHalf: String) {
        let points = try NMEALogWriter.points(ofGPX: bus)
        var sentences: [String] = []
        var trackPoints = ""
        for (index, point) in points.enumerated() {
            let previous = points[max(0, index - 1)]
            let seconds = point.time.timeIntervalSince(previous.time)
            let metres = Self.distance(previous, point)
            let knots = String(format: "%.3f", (seconds > 0 ? metres / seconds : 0) * 3600 / 1852)
            let speed = String(format: "%.9f", Double(knots)! * 1852 / 3600)
            let rmc = NMEALogWriter.rmc(point, time: point.time)
                .replacingOccurrences(of: ",,,", with: ",\(knots),,", options: [], range: nil)
            sentences.append(rmc + NMEALogWriter.gga(point, time: point.time))
            trackPoints += """
                <trkpt lat="\(point.latitude)" lon="\(point.longitude)"><ele>20.0</ele>\
                <time>\(ISO8601DateFormatter().string(from: point.time))</time>\
                <speed>\(speed)</speed></trkpt>

                """
        }
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="test"><trk><trkseg>
            \(trackPoints)</trkseg></trk></gpx>

            """
        let paths = (
            directory.appendingPathComponent("bus.nmea").path, directory.appendingPathComponent("bus.gpx").path,
            directory.appendingPathComponent("bus-first-half.nmea").path
        )
        try sentences.joined().write(toFile: paths.0, atomically: true, encoding: .utf8)
        try gpx.write(toFile: paths.1, atomically: true, encoding: .utf8)
        try sentences.prefix(sentences.count / 2).joined().write(toFile: paths.2, atomically: true, encoding: .utf8)
        return paths
    }

    static func distance(_ a: NMEALogWriter.Point, _ b: NMEALogWriter.Point) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians * cos(a.latitude * radians)
        return 6_371_000 * (dLat * dLat + dLon * dLon).squareRoot()
    }

    @Test func theSameDriveFromNMEAAndGPXGivesTheSameTripsInEitherOrder() throws {
        let (directory, _) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (nmea, gpx, _) = try Self.sameDrive(in: directory)
        var listings: [String] = []
        for (index, order) in [[nmea, gpx], [gpx, nmea]].enumerated() {
            let db = directory.appendingPathComponent("order\(index).sqlite").path
            let summary = try Self.run(["--db", db, "import", order[0]]) + Self.run(["--db", db, "import", order[1]])
            #expect(summary.contains("1 trip found") && summary.contains("0 trips found"), "\(summary)")
            listings.append(try Self.trips(db))
            #expect(try ImportCommandTests.trips(db).count == 1)
        }
        #expect(listings[0] == listings[1])
    }

    @Test func aLogOverlappingHalfARecordedTripAddsOnlyTheRestAsItsOwnTrip() throws {
        // Fails before the fix: the whole ride was added again, over the half already recorded.
        let (directory, _) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, gpx, firstHalf) = try Self.sameDrive(in: directory)
        let db = directory.appendingPathComponent("half.sqlite").path
        _ = try Self.run(["--db", db, "import", firstHalf])
        let half = try ImportCommandTests.trips(db)
        #expect(half.count == 1)
        let summary = try Self.run(["--db", db, "import", gpx])
        #expect(summary.contains("; 1 trip found; "), "\(summary)")
        _ = try Self.trips(db)  // none overlaps the next
        let trips = try ImportCommandTests.trips(db)
        #expect(trips.count == 2)
        #expect(trips.first?["start"] as? String == half.first?["start"] as? String)
        #expect(trips.first?["end"] as? String == half.first?["end"] as? String)
        let total = trips.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
        #expect(total > 13_000 && total < 15_000, "the two parts make the ride: \(trips)")
        // Removing the second import leaves the first half as it was.
        _ = try Self.run(["--db", db, "imports", "remove", gpx])
        #expect(try ImportCommandTests.trips(db).map { $0["end"] as? String } == half.map { $0["end"] as? String })
    }

    @Test func anImportWhileTheDaemonRecordsLeavesItsOpenTripAlone() throws {
        // Fails before the fix: the import found the same trip, ended the daemon's open row and
        // took it over.
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let socket = state.url.appendingPathComponent("control").path
        try "[Storage]\nFlushIntervalSec=1\n[Control]\nSocket=\(socket)\n"
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        let daemon = try state.daemon(replaying: Self.bus, speed: "40")
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")
        // Waits for the commit that stores the open trip (not a timing assertion).
        while try ImportCommandTests.trips(state.database).first?["end"] as? NSNull == nil {
            usleep(100_000)
        }
        let summary = try Self.run(["--db", state.database, "import", "--config", state.config, Self.bus])
        #expect(summary.contains("; 0 trips found; "), "\(summary)")
        let during = try ImportCommandTests.trips(state.database)
        #expect(during.count == 1 && during.first?["end"] is NSNull, "the trip is still open: \(during)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let trips = try ImportCommandTests.trips(state.database)
        #expect(trips.count == 1 && trips.first?["end"] is NSNull, "stopped mid-drive, it stays open: \(trips)")
        let points = (during.first?["points"] as? Int ?? 0, trips.first?["points"] as? Int ?? 0)
        #expect(points.1 >= points.0, "the daemon went on recording into its row: \(points)")
        let imports = try Self.run(["--db", state.database, "imports", "--json"])
        #expect(imports.contains("\"trips\":0"), "\(imports)")
    }
}
