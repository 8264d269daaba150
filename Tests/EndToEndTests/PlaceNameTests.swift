import Foundation
import Testing
import TravelControl
import TravelCore
import TravelFormats

/// Places named offline by the shipped gazetteer: the bus ride, with no zone or POI, names both
/// ends of its trip after the GeoNames towns holding them (there the nearest ones, too), the same in every listing and export,
/// and a zone drawn later names them instead.
@Suite(.serialized) struct PlaceNameTests {
    /// The gazetteer file read here independently of the product's reader: every place's name and
    /// position, from the layout scripts/make-gazetteer.py documents.
    static let places: [(name: String, x: Double, y: Double, z: Double)] = {
        let url = Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/gazetteer/gazetteer.bin")
        let bytes = [UInt8]((try? Data(contentsOf: url)) ?? Data())
        func word(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let count = word(8)
        let regions = word(12)
        let names = 24 + count * 12
        let strings = (names + count * 10 + 3) / 4 * 4 + regions * 8
        return (0..<count).map { index in
            let vector = (0..<3).map { Double(Float(bitPattern: UInt32(word(24 + index * 12 + $0 * 4)))) }
            let start = strings + word(names + index * 4)
            let end = bytes[start...].firstIndex(of: 0)!
            return (String(decoding: bytes[start..<end], as: UTF8.self), vector[0], vector[1], vector[2])
        }
    }()

    /// The name of the GeoNames place nearest (latitude, longitude), looking at every one.
    static func nearestName(_ latitude: Double, _ longitude: Double) -> String {
        let (phi, lambda) = (latitude * .pi / 180, longitude * .pi / 180)
        let (x, y, z) = (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
        return places.min { a, b in
            pow(a.x - x, 2) + pow(a.y - y, 2) + pow(a.z - z, 2) < pow(b.x - x, 2) + pow(b.y - y, 2) + pow(b.z - z, 2)
        }!.name
    }

    @Test func theBusRideIsNamedAfterTownsAndAZoneNamesItInstead() throws {
        #expect(Self.places.count > 150_000)
        let (directory, database) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let imported = try Binaries.run("travelctl", ["--db", database, "import", DaemonReplayTests.bus])
        #expect(imported.status == 0, "\(imported.standardError)")

        let trip = try #require(try ImportCommandTests.trips(database).first)
        let start = try #require(trip["start_place"] as? String)
        let end = try #require(trip["end_place"] as? String)
        let startName = Self.nearestName(trip["start_lat"] as? Double ?? 0, trip["start_lon"] as? Double ?? 0)
        let endName = Self.nearestName(trip["end_lat"] as? Double ?? 0, trip["end_lon"] as? Double ?? 0)
        #expect(start.contains(startName), "\(start) names \(startName)")
        #expect(end.contains(endName), "\(end) names \(endName)")
        #expect(startName != endName)

        let journeys = try Binaries.run("travelctl", ["--db", database, "journeys", "--json"])
        let journey = try #require(
            (try JSONSerialization.jsonObject(with: journeys.standardOutput) as? [[String: Any]])?.first
        )
        #expect(journey["destination"] as? String == end)
        let table = try Binaries.run("travelctl", ["--db", database, "trips"])
        #expect(table.output.contains(start) && table.output.contains(end))

        let gpx = try Binaries.run("travelctl", ["--db", database, "export", "--format", "gpx", "--trip", "1"])
        #expect(gpx.status == 0, "\(gpx.standardError)")
        #expect(gpx.output.contains("<name>Trip 1: \(start) → \(end)</name>"))

        // A zone drawn after the trip was recorded names its end when read, everywhere.
        let zone = try Binaries.run(
            "travelctl",
            [
                "--db", database, "zone", "add", "Depot", "--lat", "\(trip["end_lat"]!)", "--lon",
                "\(trip["end_lon"]!)",
                "--radius", "200",
            ]
        )
        #expect(zone.status == 0, "\(zone.standardError)")
        let relabelled = try #require(try ImportCommandTests.trips(database).first)
        #expect(relabelled["start_place"] as? String == start)
        #expect(relabelled["end_place"] as? String == "Depot")
        let again = try Binaries.run("travelctl", ["--db", database, "export", "--format", "gpx", "--trip", "1"])
        #expect(again.output.contains("<name>Trip 1: \(start) → Depot</name>"))

        // TRAVEL_COMPANION_GAZETTEER= turns the gazetteer off: the ends are coordinates again.
        let plain = directory.appendingPathComponent("plain.sqlite").path
        let off = ["TRAVEL_COMPANION_GAZETTEER": ""]
        let reimported = try Binaries.run(
            "travelctl",
            ["--db", plain, "import", DaemonReplayTests.bus],
            environment: off
        )
        #expect(reimported.status == 0, "\(reimported.standardError)")
        let listed = try Binaries.run("travelctl", ["--db", plain, "trips", "--json"], environment: off)
        let plainTrip = try #require(
            (try JSONSerialization.jsonObject(with: listed.standardOutput) as? [[String: Any]])?.first
        )
        let coordinates = try Regex(#"^-?[0-9]+\.[0-9]{5}, -?[0-9]+\.[0-9]{5}$"#)
        #expect((plainTrip["end_place"] as? String)?.wholeMatch(of: coordinates) != nil)
    }

    /// Issue 26: a drive across Beijing, from 6 km NW of the city's GeoNames point to the Haidian
    /// area 12 km N of it, read "4 km N of Jinrongjie" → "4 km E of Haidian" (the districts'
    /// points were nearer); the city's 30 km extent holds both ends, so they are named after it.
    @Test func aDriveInsideABigCityIsNamedAfterTheCityNotItsDistricts() throws {
        let (directory, database) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (from, to) = ((39.9489, 116.3544), (40.0, 116.33))
        let start = try #require(ISO8601DateFormatter().date(from: "2026-01-05T01:00:00Z"))
        var points: [(Double, Double)] = Array(repeating: from, count: 60)
        points += (0...600).map { step in
            let share = Double(step) / 600
            return (from.0 + (to.0 - from.0) * share, from.1 + (to.1 - from.1) * share)
        }
        points += Array(repeating: to, count: 60)
        let formatter = ISO8601DateFormatter()
        let track = points.enumerated().map { index, point in
            "<trkpt lat=\"\(point.0)\" lon=\"\(point.1)\"><time>"
                + formatter.string(from: start.addingTimeInterval(Double(index))) + "</time></trkpt>"
        }
        let gpx = directory.appendingPathComponent("beijing.gpx")
        try
            (#"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">"#
            + "<trk><trkseg>" + track.joined(separator: "\n") + "</trkseg></trk></gpx>\n")
            .write(to: gpx, atomically: true, encoding: .utf8)
        let imported = try Binaries.run("travelctl", ["--db", database, "import", gpx.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let trip = try #require(try ImportCommandTests.trips(database).first, "\(imported.output)")
        #expect(trip["start_place"] as? String == "Beijing, China")
        #expect(trip["end_place"] as? String == "Beijing, China")
    }

    /// The daemon names the ride's ends as `trips` does, in its journal/stderr lines, a hook's
    /// environment and standard input, and `follow --json`: the gazetteer's towns, found again here.
    @Test func theDaemonsLinesHooksAndFollowNameTheEndsAsTripsDoes() throws {
        let scripts = FileManager.default.temporaryDirectory.appendingPathComponent("tc-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scripts) }
        let record = try DaemonHookTests.script("record", in: scripts, #"env > "$1.env"; cat > "$1.stdin""#)
        let (started, ended) = (
            scripts.appendingPathComponent("started").path, scripts.appendingPathComponent("ended").path
        )
        // Slow enough for the subscriber to be there before the trip starts (4 min 18 s of
        // parking first: 0.65 s), fast enough for the 70 min ride to take 10 s.
        let daemon = try ControlDaemon(
            replaying: DaemonReplayTests.bus,
            speed: "400",
            configuration: "[Hooks]\nTripStarted=\(record) \(started)\nTripEnded=\(record) \(ended)\n"
        )
        defer { daemon.state.remove() }
        let follow = try Binaries.run("travelctl", ["follow", "--json", "--socket", daemon.socket])
        #expect(daemon.process.waitForExit() == 0, "\(daemon.process.output)")

        let trip = try #require(try ImportCommandTests.trips(daemon.state.database).first)
        let (start, end) = (try #require(trip["start_place"] as? String), try #require(trip["end_place"] as? String))
        #expect(end.contains(Self.nearestName(trip["end_lat"] as? Double ?? 0, trip["end_lon"] as? Double ?? 0)))
        #expect(start.contains(Self.nearestName(trip["start_lat"] as? Double ?? 0, trip["start_lon"] as? Double ?? 0)))
        let output = daemon.process.output
        let lines = output.split(separator: "\n")
        // The place by its name alone: coordinates only where nothing names it.
        #expect(lines.contains { $0.contains("trip started at ") && $0.contains(" from \(start)") }, "\(output)")
        #expect(lines.contains { $0.contains("trip ended at ") && $0.contains(" at \(end): ") }, "\(output)")
        #expect(!lines.contains { $0.contains("trip ") && $0.contains("(52.6") }, "\(output)")

        let events = try follow.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        for (kind, file, place) in [("trip-started", started, start), ("trip-ended", ended, end)] {
            let followed = try #require(events.first { $0["kind"] == .string(kind) }, "\(follow.output)")
            #expect(followed["fields"]?["place"] == .string(place), "\(followed)")
            let hooked = try JSONValue(parsing: String(contentsOfFile: "\(file).stdin", encoding: .utf8))
            #expect(hooked["fields"]?["place"] == .string(place), "\(hooked)")
            #expect(hooked["message"] == followed["message"])
            let environment = try String(contentsOfFile: "\(file).env", encoding: .utf8)
            #expect(environment.split(separator: "\n").contains("TC_PLACE=\(place)"[...]), "\(environment)")
        }
    }

    /// `place name|remove` and `places` through the daemon print what they print with --db, and a
    /// name given through the socket renames the trips, journeys and places read at once.
    @Test func namedPlacesAndThePlacesListAreTheSameThroughTheDaemon() throws {
        let daemon = try ControlDaemon(replaying: ControlDaemon.car, speed: "0.001") { state in
            let imported = try Binaries.run("travelctl", ["--db", state.database, "import", DaemonReplayTests.bus])
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        defer { #expect(daemon.stop() == 0) }
        guard daemon.process.waitForLine(containing: "fix acquired") != nil else {
            throw ControlTestError("no first fix: \(daemon.process.output)")
        }
        let database = daemon.state.database
        let trip = try #require(try ImportCommandTests.trips(database).first)
        let end = "\(trip["end_lat"]!),\(trip["end_lon"]!)"
        func both(_ command: [String]) throws -> String {
            let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
            let offline = try Binaries.run("travelctl", command + ["--db", database, "--config", daemon.state.config])
            #expect(live.status == 0, "\(command): \(live.standardError)")
            #expect(live.output == offline.output, "\(command)\n\(live.output)\n\(offline.output)")
            return live.output
        }
        let before = try both(["places"])
        #expect(before.contains(try #require(trip["end_place"] as? String)), "\(before)")

        let named = try Binaries.run("travelctl", ["place", "name", end, "Work", "--socket", daemon.socket])
        #expect(named.status == 0, "\(named.standardError)")
        #expect(named.output.hasPrefix("place 1 Work named, 150 m around 52.6"))
        let again = try Binaries.run("travelctl", ["place", "name", end, "Work", "--socket", daemon.socket])
        let offlineAgain = try Binaries.run("travelctl", ["place", "name", end, "Work", "--db", database])
        #expect(again.status == 1 && offlineAgain.status == 1)
        #expect(again.standardError == "travelctl: a place named Work exists\n")
        #expect(again.standardError == offlineAgain.standardError)

        // Read at once, through the socket and from the file alike.
        #expect(try both(["trips", "--json"]).contains(#""end_place":"Work""#))
        #expect(try both(["journeys", "--json"]).contains(#""destination":"Work""#))
        #expect(try both(["places", "--json"]).contains(#"{"place":"Work","visits":1,"#))
        _ = try both(["places"])
        _ = try both(["journeys"])

        let removed = try Binaries.run("travelctl", ["place", "remove", "Work", "--socket", daemon.socket])
        #expect(removed.output == "place 1 Work removed\n", "\(removed.standardError)")
        let missing = try Binaries.run("travelctl", ["place", "remove", "Work", "--socket", daemon.socket])
        let offlineMissing = try Binaries.run("travelctl", ["place", "remove", "Work", "--db", database])
        #expect(missing.status == 1 && missing.standardError == "travelctl: no place named Work\n")
        #expect(missing.standardError == offlineMissing.standardError)
        #expect(try both(["places"]) == before)
        let offline = try Binaries.run("travelctl", ["place", "name", end, "Work", "--db", database])
        #expect(offline.output == named.output, "the same line and id either way")
    }
}
