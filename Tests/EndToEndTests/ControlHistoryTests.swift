import Foundation
import Testing
import TravelControl
import TravelFormats
/// Every history read of `travelctl` through a running daemon's control socket prints the bytes
/// the same command prints from the database file with `--db`.
@Suite(.serialized) struct ControlHistoryTests {
    static let interface = "org.travelcompanion.control"

    /// A daemon over a week of bus rides with zones, POIs, their events, a plan, notes and
    /// photos, its days local to UTC+01:00. It replays the car drive so slowly (one recorded
    /// second in a thousand) that after its first fix it writes nothing while the commands run.
    static func daemon() throws -> ControlDaemon {
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "0.001",
            configuration: "[Journeys]\nUTCOffset=+01:00\n"
        ) { state in
            func travelctl(_ arguments: [String]) throws {
                let result = try Binaries.run("travelctl", ["--db", state.database] + arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
            }
            try ZoneCommandTests.addPlaces(to: state.database, in: state.url)
            try travelctl(["import", "--config", state.config, try HistoryCommandTests.week(in: state.url)])
            try travelctl([
                "plan", "add", "--config", state.config, "--destination", "Ennis", "--from", "2019-02-20", "--to",
                "2019-02-22", "--type", "multi-day",
            ])
            try travelctl(["note", "add", "Lunch at the terminus", "--at", "2019-02-18T10:00:00Z"])
            try travelctl([
                "photo", "add", NotePhotoCommandTests.photo("exif-motorola-local.jpg"),
                NotePhotoCommandTests.photo("no-exif.jpg"), "--at", "2019-02-23T08:30:00Z",
            ])
        }
        guard daemon.process.waitForLine(containing: "fix acquired") != nil else {
            throw ControlTestError("no first fix: \(daemon.process.output)")
        }
        return daemon
    }

    /// Each command, as a table and with --json, through the socket and from the file.
    static let commands: [[String]] = [
        ["journeys"], ["journeys", "--type", "multi-day"], ["journeys", "--destination", "ennis"],
        ["journeys", "--search", "2019-02-23"], ["journeys", "--since", "2019-02-20", "--until", "2019-02-22"],
        ["journeys", "--type", "local", "--destination", "nowhere"], ["events"],
        ["events", "--kind", "enter"], ["events", "--zone", "depot"], ["events", "--since", "2019-02-19"],
        ["events", "--until", "2019-02-18"], ["home"], ["plan", "list"], ["zone", "list"], ["poi", "list"],
        ["poi", "list", "--category", "city"], ["poi", "list", "--near", "52.66,-8.63", "--radius", "3000"],
        ["trips"], ["trip", "show", "2"], ["stats"], ["places"],
    ]

    /// The journey commands read `[Journeys]` from --config offline; the daemon has its own.
    static func offline(_ command: [String], _ daemon: ControlDaemon) -> [String] {
        let configured = Binaries.readsJourneySettings(command)
        return command + ["--db", daemon.state.database] + (configured ? ["--config", daemon.state.config] : [])
    }

    @Test func everyReadCommandPrintsTheSameBytesThroughTheDaemon() throws {
        let daemon = try Self.daemon()
        defer { #expect(daemon.stop() == 0) }
        let journeys = try JSONValue(
            parsing: Binaries.run("travelctl", ["journeys", "--json", "--socket", daemon.socket]).output
        )
        let ids = journeys.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        #expect(ids.count >= 4, "\(journeys)")
        #expect(journeys.arrayValue?.contains { $0["destination"] == "Ennis" } == true, "\(journeys)")
        // Every journey shown, whatever ids regrouping gave them.
        for command in Self.commands + ids.map({ ["journey", "show", String($0)] }) {
            for format in [[], ["--json"]] {
                let live = try Binaries.run("travelctl", command + format + ["--socket", daemon.socket])
                let offline = try Binaries.run("travelctl", Self.offline(command + format, daemon))
                #expect(live.status == 0, "\(command + format): \(live.standardError)")
                #expect(offline.status == 0, "\(command + format): \(offline.standardError)")
                #expect(live.output == offline.output, "\(command + format)\n\(live.output)\n\(offline.output)")
                #expect(!live.output.isEmpty, "\(command + format)")
            }
        }
        // The history is what the documents are about: none of them empty or trivial.
        for (command, minimum) in [
            (["events"], 4), (["zone", "list"], 2), (["poi", "list"], 10), (["plan", "list"], 1),
        ] {
            let result = try Binaries.run("travelctl", command + ["--json", "--socket", daemon.socket])
            #expect((try JSONValue(parsing: result.output).arrayValue?.count ?? 0) >= minimum, "\(command)")
        }
        let home = try JSONValue(
            parsing: Binaries.run("travelctl", ["home", "--json", "--socket", daemon.socket]).output
        )
        #expect(home["known"] == true, "\(home)")
        // trip show lists what it promises: the route in brief, and the trip's zone events and alerts.
        let events = try JSONValue(
            parsing: Binaries.run("travelctl", ["events", "--json", "--socket", daemon.socket]).output
        )
        for trip in Set(events.arrayValue?.compactMap { $0["trip_id"]?.intValue } ?? []) {
            let shown = try Binaries.run("travelctl", ["trip", "show", "\(trip)", "--socket", daemon.socket]).output
            let ofTrip = events.arrayValue?.filter { $0["trip_id"]?.intValue == trip } ?? []
            let lines = shown.split(separator: "\n").filter { $0.hasPrefix("Zone ") || $0.hasPrefix("Nearby ") }
            #expect(lines.count == ofTrip.count, "\(shown)")
            #expect(shown.contains(" points from "), "\(shown)")
            #expect(!shown.contains("imported log"), "\(shown)")
        }
        let show = try Binaries.run("travelctl", ["journey", "show", "1", "--socket", daemon.socket]).output
        #expect(show.contains("(UTC+01:00)") && show.contains("Lunch at the terminus"), "\(show)")

        // Errors read as offline: the same line, exit status 1.
        for command in [
            ["journey", "show", "99"], ["export", "--format", "gpx", "--trip", "99"], ["events", "--zone", "Nope"],
            ["events", "--zone", "Nope", "--json"], ["events", "--poi", "Nope"],
        ] {
            let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
            let offline = try Binaries.run("travelctl", command + ["--db", daemon.state.database])
            #expect(live.status == 1 && offline.status == 1, "\(command)")
            #expect(live.standardError == offline.standardError, "\(command)")
            #expect(live.standardError.hasPrefix("travelctl: no "), "\(live.standardError)")
        }
    }

    @Test func exportsThroughTheDaemonAreTheOfflineBytesInChunks() throws {
        let daemon = try Self.daemon()
        defer { #expect(daemon.stop() == 0) }
        let selections: [[String]] = [
            [], ["--trip", "3"], ["--journey", "2"], ["--since", "2019-02-20", "--until", "2019-02-22"],
        ]
        for format in ["gpx", "geojson", "kml"] {
            for selection in selections {
                let command = ["export", "--format", format] + selection
                let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
                let offline = try Binaries.run("travelctl", command + ["--db", daemon.state.database])
                #expect(live.status == 0, "\(command): \(live.standardError)")
                #expect(live.standardOutput == offline.standardOutput, "\(command)")
                #expect(live.standardOutput.count > 200, "\(command)")
            }
        }
        // The week as GPX is several chunks: each reply within the limit, joined in order.
        let client = try daemon.client()
        try client.send(
            VarlinkCall(method: "\(Self.interface).Export", parameters: ["format": "gpx"], more: true)
        )
        var chunks: [String] = []
        var reply = try client.nextReply()
        while true {
            #expect(reply.error == nil, "\(reply)")
            chunks.append(reply.parameters["chunk"]?.stringValue ?? "")
            guard reply.continues else { break }
            reply = try client.nextReply()
        }
        #expect(chunks.count >= 3, "\(chunks.count) chunks")
        #expect(chunks.allSatisfy { $0.utf8.count <= 256 << 10 })
        let offline = try Binaries.run("travelctl", ["export", "--format", "gpx", "--db", daemon.state.database])
        #expect(Data(chunks.joined().utf8) == offline.standardOutput)
        // The connection serves the next call after the stream.
        #expect(try client.call("\(Self.interface).ListPlans")["plans"]?.arrayValue?.count == 1)

        // --output: the same file, written by travelctl, not the daemon.
        let file = daemon.state.url.appendingPathComponent("week.kml").path
        let written = try Binaries.run(
            "travelctl",
            ["export", "--format", "kml", "--output", file, "--socket", daemon.socket]
        )
        #expect(written.status == 0, "\(written.standardError)")
        let kml = try Binaries.run("travelctl", ["export", "--format", "kml", "--db", daemon.state.database])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == kml.standardOutput)

        // Without more, a stream is refused; bad parameters are named.
        let once = try client.nextReplyOf(
            VarlinkCall(method: "\(Self.interface).Export", parameters: ["format": "gpx"])
        )
        #expect(once.error == "\(Self.interface).ExpectedMore", "\(once)")
        let both = try client.nextReplyOf(
            VarlinkCall(
                method: "\(Self.interface).Export",
                parameters: ["format": "gpx", "trip": 1, "journey": 1],
                more: true
            )
        )
        #expect(both.error == "org.varlink.service.InvalidParameter", "\(both)")
        let format = try client.nextReplyOf(
            VarlinkCall(method: "\(Self.interface).Export", parameters: ["format": "shp"], more: true)
        )
        #expect(format.parameters["parameter"] == "format", "\(format)")
    }

    @Test(.enabled(if: PythonVarlink.isInstalled, "python3 -m pip install varlink (scripts/setup.sh)"))
    func thePythonClientCallsEveryReadMethod() throws {
        let daemon = try Self.daemon()
        defer { #expect(daemon.stop() == 0) }
        let address = "unix:\(daemon.socket)/\(Self.interface)"
        let calls: [(String, String, String)] = [
            ("ListTrips", "{}", "trips"), ("GetTrip", #"{"id": 1}"#, "trip"), ("Stats", "{}", "stats"),
            ("ListJourneys", #"{"type": "multi-day"}"#, "journeys"), ("GetJourney", #"{"id": 1}"#, "journey"),
            ("ListEvents", #"{"kind": "exit"}"#, "events"), ("GetHome", "{}", "home"), ("ListPlans", "{}", "plans"),
            ("ListZones", "{}", "zones"), ("ListPOIs", #"{"near": "52.66,-8.63", "radius_m": 3000}"#, "pois"),
        ]
        for (method, parameters, key) in calls {
            let result = try PythonVarlink.run(["call", "\(address).\(method)", parameters])
            let reply = try JSONValue(parsing: result.output)
            #expect(reply[key] != nil && reply[key] != .null, "\(method): \(result.output)\(result.standardError)")
            // The same document travelctl reads through its own client.
            let ours = try daemon.client().call("\(Self.interface).\(method)", try JSONValue(parsing: parameters))
            // The Python CLI prints members sorted by name.
            #expect(Self.sortingMembers(ours) == reply, "\(method)\n\(ours)\n\(reply)")
        }
        let missing = try PythonVarlink.run(["call", "\(address).GetJourney", #"{"id": 99}"#])
        #expect(missing.standardError.contains("JourneyNotFound"), "\(missing.output)\(missing.standardError)")

        // call --more prints each chunk's reply; joined, they are the export.
        let export = try PythonVarlink.run(["call", "--more", "\(address).Export", #"{"format": "geojson"}"#])
        #expect(export.status == 0, "\(export.standardError)")
        let chunks = try Self.jsonObjects(export.output).map { $0["chunk"]?.stringValue ?? "" }
        #expect(chunks.count >= 2, "\(export.output.prefix(500))")
        let offline = try Binaries.run("travelctl", ["export", "--format", "geojson", "--db", daemon.state.database])
        #expect(Data(chunks.joined().utf8) == offline.standardOutput)

        // Backup's base64 chunks, decoded and joined, are a database with the same trips.
        let backup = try PythonVarlink.run(["call", "--more", "\(address).Backup", "{}"])
        #expect(backup.status == 0, "\(backup.standardError)")
        let bytes = try Self.jsonObjects(backup.output).map {
            try #require(Data(base64Encoded: $0["chunk"]?.stringValue ?? ""))
        }
        let copy = daemon.state.url.appendingPathComponent("python-backup.sqlite")
        try bytes.reduce(Data(), +).write(to: copy)
        let trips = ["trips", "--json", "--db"]
        #expect(
            try Binaries.run("travelctl", trips + [copy.path]).output
                == Binaries.run("travelctl", trips + [daemon.state.database]).output
        )
    }

    /// `value` with every object's members sorted by name.
    static func sortingMembers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): .array(elements.map(sortingMembers))
        case .object(let members):
            .object(members.sorted { $0.key < $1.key }.map { .init($0.key, sortingMembers($0.value)) })
        default: value
        }
    }

    /// The JSON objects the Python CLI prints one after another.
    static func jsonObjects(_ text: String) throws -> [JSONValue] {
        var objects: [JSONValue] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = index }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let first = start { objects.append(try JSONValue(parsing: String(text[first...index]))) }
            default: break
            }
        }
        return objects
    }
}

extension VarlinkClient {
    /// Sends `call` and returns its one reply, error or not.
    fileprivate func nextReplyOf(_ call: VarlinkCall) throws -> VarlinkReply {
        try send(call)
        return try nextReply()
    }
}
