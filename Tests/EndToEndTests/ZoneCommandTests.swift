import Foundation
import Testing

/// `travelctl zone`, `poi` and `events` as processes on real SQLite files; the bus ride imported
/// and replayed through the daemon gives the same zone events and alerts.
@Suite struct ZoneCommandTests {
    static let bus = DaemonReplayTests.bus
    static let poiFiles = ["overpass-export.geojson", "waypoints.gpx", "pois.csv", "cities1000-sample.txt"].map {
        Binaries.fixtures.appendingPathComponent("poi/\($0)").path
    }

    static func travelctl(_ database: String, _ arguments: [String]) throws -> Binaries.Result {
        try Binaries.run("travelctl", ["--db", database] + arguments)
    }

    static func json(_ database: String, _ arguments: [String]) throws -> [[String: Any]] {
        let result = try travelctl(database, arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]] ?? []
    }

    /// The bus depot as a circle, a square the ride crosses, and the POI fixtures.
    static func addPlaces(to database: String, in directory: URL) throws {
        var result = try travelctl(
            database,
            ["zone", "add", "depot", "--lat", "52.6291510", "--lon", "-8.6617460", "--radius", "150", "--role", "home"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "zone 1 depot added\n")
        let square = directory.appendingPathComponent("square.geojson")
        let (lat, lon, d) = (52.642085, -8.647997, 0.0006)
        let ring = [
            [lon - d, lat - d], [lon + d, lat - d], [lon + d, lat + d], [lon - d, lat + d], [lon - d, lat - d],
        ]
        let feature: [String: Any] = [
            "type": "Feature", "properties": ["name": "ignored by zone add"],
            "geometry": ["type": "Polygon", "coordinates": [ring]],
        ]
        try JSONSerialization.data(withJSONObject: feature).write(to: square)
        result = try travelctl(database, ["zone", "add", "square", "--geojson", square.path, "--role", "shop"])
        #expect(result.status == 0, "\(result.standardError)")
        result = try travelctl(database, ["poi", "import"] + poiFiles)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("zone add, list, remove; poi import reports bad rows by line and keeps the good ones")
    func commands() throws {
        let (directory, database) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.addPlaces(to: database, in: directory)

        let duplicate = try Self.travelctl(
            database,
            ["zone", "add", "depot", "--lat", "1", "--lon", "1", "--radius", "5"]
        )
        #expect(duplicate.status == 1)
        #expect(duplicate.standardError == "travelctl: a zone named depot exists\n")
        let usage = try Self.travelctl(database, ["zone", "add", "x", "--lat", "1"])
        #expect(usage.status == 2)

        let zones = try Self.json(database, ["zone", "list"])
        #expect(zones.map { $0["name"] as? String } == ["depot", "square"])
        #expect(zones.map { $0["kind"] as? String } == ["circle", "polygon"])
        #expect(zones.first?["radius_m"] as? Double == 150)
        #expect(zones.first?["role"] as? String == "home")

        let again = try Self.travelctl(database, ["poi", "import", "--format", "csv", Self.poiFiles[2]])
        #expect(again.output.contains("4 POIs read, 0 new; 3 rows skipped"))
        #expect(again.standardError.contains("pois.csv: line 5: latitude or longitude is not a number"))
        #expect(again.standardError.contains("pois.csv: line 10: position 91.0, -8.63 out of range"))
        let pois = try Self.json(database, ["poi", "list"])
        #expect(pois.count == 11)
        let near = try Self.json(
            database,
            ["poi", "list", "--near", "52.66,-8.63", "--radius", "800", "--category", "city"]
        )
        #expect(near.map { $0["name"] as? String } == ["Limerick"])

        let collection = directory.appendingPathComponent("zones.geojson")
        func writeZones(_ depot: String) throws {
            let text =
                #"{"type": "FeatureCollection", "features": ["#
                + #"{"type": "Feature", "properties": {"name": "office", "role": "work", "radius": 80}, "#
                + #""geometry": {"type": "Point", "coordinates": [-8.63, 52.66]}}, "#
                + #"{"type": "Feature", "properties": \#(depot), "#
                + #""geometry": {"type": "Point", "coordinates": [-8.63, 52.66]}}]}"#
            try Data(text.utf8).write(to: collection)
        }
        try writeZones(#"{"name": "depot"}"#)
        let badImport = try Self.travelctl(database, ["zone", "import", collection.path])
        #expect(badImport.status == 1)
        #expect(badImport.standardError.contains("feature 2: geometry Point without a radius is not a zone"))
        try writeZones(#"{"name": "depot", "radius": 10}"#)
        let imported = try Self.travelctl(database, ["zone", "import", collection.path])
        #expect(imported.status == 0)
        #expect(imported.output.hasSuffix("zones.geojson: 1 zone added\n"))
        #expect(imported.standardError.contains("zone depot exists, skipped"))
        let names = try Self.json(database, ["zone", "list"]).map { $0["name"] as? String }
        #expect(names == ["depot", "square", "office"])

        let removed = try Self.travelctl(database, ["zone", "remove", "2"])
        #expect(removed.output == "zone 2 square removed\n")
        #expect(try Self.json(database, ["zone", "list"]).count == 2)
        #expect(try Self.travelctl(database, ["zone", "remove", "square"]).status == 1)
    }

    @Test("the bus ride imported and replayed by the daemon: the same zone events and alerts")
    func importAndReplayAgree() throws {
        let (directory, imported) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.addPlaces(to: imported, in: directory)
        let result = try Self.travelctl(imported, ["import", Self.bus])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.json(imported, ["events"])
        let summary = events.map {
            "\($0["kind"] as? String ?? "") \($0["zone_name"] as? String ?? $0["poi_name"] as? String ?? "")"
        }
        #expect(summary.prefix(3) == ["exit depot", "enter square", "exit square"])
        #expect(summary.filter { $0.hasPrefix("nearby") }.count >= 1)
        #expect(events.allSatisfy { $0["trip_id"] as? Int == 1 })
        #expect(try Self.json(imported, ["events", "--zone", "square"]).count == 2)
        // A zone that does not exist is an error, not an empty list.
        let nope = try Self.travelctl(imported, ["events", "--zone", "Nope"])
        #expect(nope.status == 1 && nope.output.isEmpty)
        #expect(nope.standardError == "travelctl: no zone named Nope\n")
        let pub = try Self.json(imported, ["events", "--poi", "The \"Quoted\" Pub"])
        #expect(pub.count == 1 && pub.allSatisfy { $0["poi_name"] as? String == "The \"Quoted\" Pub" })
        let noPOI = try Self.travelctl(imported, ["events", "--poi", "Nope"])
        #expect(noPOI.status == 1 && noPOI.standardError == "travelctl: no POI named Nope\n")
        // Trip ends are labelled by the zone they are in.
        #expect(try ImportCommandTests.trips(imported).first?["start_place"] as? String == "depot")
        #expect(try Self.json(imported, ["events", "--kind", "nearby", "--until", "2019-02-17"]).isEmpty)

        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        try Self.addPlaces(to: state.database, in: state.url)
        // A socket of its own: other daemons may be running on this machine.
        let daemon = try DaemonProcess([
            "run", "--config", state.config, "--db", state.database, "--socket",
            state.url.appendingPathComponent("control").path,
            "--source", "file://\(Self.bus)?speed=0",
        ])
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("left zone depot"))
        #expect(daemon.output.contains("entered zone square"))
        let live = try Self.json(state.database, ["events"])
        #expect(live.map { ($0 as NSDictionary) } == events.map { ($0 as NSDictionary) })
        // The daemon keeps the state: the bus ended outside both zones.
        #expect(try Self.json(state.database, ["zone", "list"]).map { $0["inside"] as? Bool } == [false, false])
    }
}
