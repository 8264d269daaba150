import Foundation
import Testing

/// Places named offline by the shipped gazetteer: the bus ride, with no zone or POI, names both
/// ends of its trip after the GeoNames towns nearest them, the same in every listing and export,
/// and a zone drawn later names them instead.
@Suite struct PlaceNameTests {
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
}
