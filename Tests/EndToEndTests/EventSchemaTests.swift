import Foundation
import Testing
import TravelCore
import TravelFormats

/// One event, one set of fields: a real daemon replays the bus ride past zones and POIs with
/// hooks that record their standard input and a `travelctl follow --json` subscriber, and the
/// same trip, zone event and nearby alert are compared between the hook, the subscriber and
/// what `events --json` and `trips --json` read back from the database: same names, same
/// values, same JSON types.
@Suite struct EventSchemaTests {
    @Test func hooksFollowAndTheStoredEventsAgreeFieldByField() throws {
        let scripts = FileManager.default.temporaryDirectory.appendingPathComponent("tc-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scripts) }
        let record = try DaemonHookTests.script("record", in: scripts, #"cat >> "$1""#)
        let recorded = scripts.appendingPathComponent("events.jsonl").path
        let configuration = """
            [Hooks]
            TripEnded=\(record) \(recorded)
            ZoneEntered=\(record) \(recorded)
            PoiNearby=\(record) \(recorded)
            MaxConcurrent=1
            """
        // Fast enough for a short test, slow enough for the subscriber to be there before the
        // trip starts (4 min 18 s of parking first: 2.6 s).
        let daemon = try ControlDaemon(replaying: DaemonReplayTests.bus, speed: "100", configuration: configuration) {
            try ZoneCommandTests.addPlaces(to: $0.database, in: $0.url)
            // A few metres from a point of the route, which the ride passes once.
            let onTheRoute = $0.url.appendingPathComponent("shelter.csv")
            try "name,lat,lon,category\nBus shelter,52.66303,-8.62462,shelter\n".write(
                to: onTheRoute,
                atomically: true,
                encoding: .utf8
            )
            #expect(try ZoneCommandTests.travelctl($0.database, ["poi", "import", onTheRoute.path]).status == 0)
        }
        defer { daemon.state.remove() }
        let follow = try Binaries.run("travelctl", ["follow", "--json", "--socket", daemon.socket])
        #expect(follow.status == 69, "\(follow.standardError)")
        #expect(daemon.process.waitForExit() == 0, "\(daemon.process.output)")

        let subscribed = try follow.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let hooked = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map {
            try JSONValue(parsing: String($0))
        }
        let stored = try JSONValue(
            parsing: try ZoneCommandTests.travelctl(daemon.state.database, ["events", "--json"]).output
        )
        let trips = try JSONValue(
            parsing: try ZoneCommandTests.travelctl(daemon.state.database, ["trips", "--json"]).output
        )

        for kind in [EventKind.tripEnded, .zoneEntered, .poiNearby] {
            let fromHook = try #require(hooked.first { $0["event"] == .string(kind.name) }?["fields"], "\(kind.name)")
            let fromFollow = try #require(subscribed.first { $0["kind"] == .string(kind.name) }, "\(kind.name)")
            // The same event: the hook's first and the subscriber's first of the kind.
            #expect(fromFollow["fields"] == fromHook, "\(kind.name)")
            #expect(fromFollow["time"] == fromHook["time"])
            let names = try #require(fromHook.objectMembers).map(\.key)
            #expect(names == kind.fields.map(\.name))
            // Numbers are numbers, times are times: as the kind's table says.
            for field in kind.fields {
                let value = fromHook[field.name] ?? .null
                switch (field.type, value) {
                case (_, .null): #expect(field.nullable, "\(kind.name).\(field.name)")
                case (.integer, .integer), (.number, .double), (.string, .string), (.boolean, .bool): break
                case (.time, .string(let text)): #expect(UTCTime(iso8601: text) != nil)
                default: Issue.record("\(kind.name).\(field.name) is \(value), not \(field.type)")
                }
            }
            if kind == .tripEnded {
                let trip = try #require(trips.arrayValue?.first)
                #expect(fromHook["trip_start"] == trip["start"] && fromHook["trip_end"] == trip["end"])
                #expect(fromHook["distance_m"] == trip["distance_m"] && fromHook["end_reason"] == trip["end_reason"])
                continue
            }
            // What the database says of it, read back: every field the same, with the stored trip's id.
            let time = fromHook["time"]
            let row = try #require(stored.arrayValue?.first { $0["event"] == .string(kind.name) && $0["time"] == time })
            for name in names { #expect(row[name] == fromHook[name], "\(kind.name).\(name)") }
            #expect(row["trip_id"] == trips.arrayValue?.first?["id"])
            #expect(fromHook["trip_start"] == trips.arrayValue?.first?["start"])
        }
        // A POI on the route: the alert is the closest approach, a few metres, not the radius;
        // the journal line, the hook and the database say the same.
        let shelter = try #require(hooked.first { $0["fields"]?["poi_name"] == "Bus shelter" }?["fields"])
        let distance = try #require(shelter["distance_m"]?.doubleValue)
        #expect(distance < 10, "\(shelter)")
        let row = try #require(stored.arrayValue?.first { $0["poi_name"] == "Bus shelter" })
        #expect(row["distance_m"] == shelter["distance_m"] && row["time"] == shelter["time"])
        #expect(daemon.process.output.contains("Near Bus shelter (shelter), \(Int(distance.rounded())) m at "))
    }
}
