import Foundation
import TestSupport
import Testing
import TravelControl
import TravelFormats
/// Every change `travelctl` makes, through the running daemon's control socket: the database
/// ends up as `--db` leaves it, a zone added is watched from the next fix, only root and the
/// admin group may change anything, and POI imports go in batches that commit together.
@Suite(.serialized) struct ControlChangeTests {
    static let car = ControlDaemon.car
    static let carStart = (latitude: 45.2735188510, longitude: 13.7142099626)

    /// A daemon on a serial receiver (a pty the test writes to, or leaves silent) with its control
    /// socket in a fresh directory. `prepare` runs on the directory before the daemon starts.
    final class LiveDaemon {
        let state: DaemonReplayTests.StateDirectory
        let receiver: PTYReceiver
        let process: DaemonProcess
        var socket: String { state.url.appendingPathComponent("control").path }

        init(
            configuration: String = "",
            prepare: (DaemonReplayTests.StateDirectory) throws -> Void = { _ in }
        ) throws {
            state = try DaemonReplayTests.StateDirectory()
            // Reachable for the permission test's second user.
            chmod(state.url.path, 0o755)
            try configuration.write(toFile: state.config, atomically: true, encoding: .utf8)
            try prepare(state)
            receiver = try PTYReceiver()
            process = try DaemonProcess(
                [
                    "run", "--config", state.config, "--db", state.database, "--socket",
                    state.url.appendingPathComponent("control").path, "--source",
                    "serial://\(receiver.device)?baud=38400",
                ]
            )
            guard process.waitForLine(containing: "control socket listening") != nil else {
                throw ControlTestError("the daemon did not listen: \(process.output)")
            }
        }

        /// `travelctl ARGUMENTS --socket` as root.
        func travelctl(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("travelctl", arguments + ["--socket", socket])
        }

        /// A raw Varlink client that gives up on a read after 60 s.
        func client() throws -> VarlinkClient {
            let client = try VarlinkClient(path: socket)
            client.setReceiveTimeout(seconds: 60)
            return client
        }

        /// SIGTERM, the exit status, and the directory removed.
        func stop() -> Int32 {
            process.send(SIGTERM)
            let status = process.waitForExit()
            state.remove()
            return status
        }
    }

    /// `--json` listings read straight from `database`: what a change left in the file.
    static func listing(_ database: String, _ arguments: [String]) throws -> String {
        let result = try Binaries.run("travelctl", arguments + ["--json", "--db", database])
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result.output
    }

    static func importCar(into database: String, config: String) throws {
        let imported = try Binaries.run("travelctl", ["--db", database, "import", "--config", config, car])
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    @Test func everyChangeThroughTheSocketLeavesTheDatabaseAsDBDoes() throws {
        let daemon = try LiveDaemon { state in try Self.importCar(into: state.database, config: state.config) }
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        let directory = daemon.state.url
        let config = daemon.state.config
        let offline = directory.appendingPathComponent("offline.sqlite").path
        try Self.importCar(into: offline, config: config)

        let (lat, lon) = Self.carStart
        let square = directory.appendingPathComponent("square.geojson").path
        try #"{"type": "Polygon", "coordinates": [[[13.70, 45.26], [13.73, 45.26], [13.73, 45.29], [13.70, 45.26]]]}"#
            .write(toFile: square, atomically: true, encoding: .utf8)
        let collection = directory.appendingPathComponent("towns.geojson").path
        try
            (#"{"type": "FeatureCollection", "features": ["#
            + #"{"type": "Feature", "properties": {"name": "Motovun", "radius": 500}, "#
            + #""geometry": {"type": "Point", "coordinates": [13.83, 45.34]}}, "#
            + #"{"type": "Feature", "properties": {"role": "work", "radius": 300}, "#
            + #""geometry": {"type": "Point", "coordinates": [13.60, 45.23]}}, "#
            + #"{"type": "Feature", "properties": {"name": "start", "radius": 10}, "#
            + #""geometry": {"type": "Point", "coordinates": [13.71, 45.27]}}]}"#)
            .write(toFile: collection, atomically: true, encoding: .utf8)
        let photos = Binaries.fixtures.appendingPathComponent("photos")
        let rules = ["--config", config]

        let commands: [[String]] = [
            ["plan", "add", "--destination", "Poreč", "--from", "2020-12-18", "--to", "2020-12-18", "--type", "day"]
                + rules,
            [
                "plan", "add", "--destination", "Rovinj", "--from", "2021-01-02", "--to", "2021-01-03", "--type",
                "multi-day",
            ]
                + rules,
            ["plan", "add", "--destination", "Pula", "--from", "2021-01-03", "--to", "2021-01-04", "--type", "day"]
                + rules,
            ["plan", "remove", "2"] + rules,
            ["plan", "remove", "99"] + rules,
            ["journey", "stop", "--at", "2020-12-19T10:00:00Z"] + rules,
            ["journey", "start", "--destination", "Motovun", "--at", "2020-12-19T08:00:00Z"] + rules,
            ["journey", "start", "--destination", "Grožnjan", "--at", "2020-12-19T09:00:00Z"] + rules,
            ["journey", "stop", "--at", "2020-12-19T07:00:00Z"] + rules,
            ["journey", "stop", "--at", "2020-12-19T18:00:00Z"] + rules,
            ["note", "add", "coffee on the way", "--at", "2020-12-18T06:20:00Z"] + rules,
            ["note", "add", "before any trip", "--at", "2020-11-01T12:00:00Z"] + rules,
            ["photo", "add", photos.appendingPathComponent("no-exif.jpg").path, "--at", "2020-12-18T06:22:00Z"]
                + rules,
            ["photo", "add", photos.appendingPathComponent("exif-intel-offset.jpg").path] + rules,
            ["photo", "add", photos.appendingPathComponent("no-exif.jpg").path] + rules,
            ["zone", "add", "start", "--lat", "\(lat)", "--lon", "\(lon)", "--radius", "200", "--role", "home"],
            ["zone", "add", "start", "--lat", "45", "--lon", "13", "--radius", "50"],
            ["zone", "add", "square", "--geojson", square],
            ["zone", "import", collection],
            ["zone", "remove", "square"],
            ["zone", "remove", "nowhere"],
            ["poi", "import"] + ZoneCommandTests.poiFiles,
        ]
        for command in commands {
            let viaDB = try Binaries.run("travelctl", command + ["--db", offline])
            let viaSocket = try daemon.travelctl(command)
            #expect(viaSocket.status == viaDB.status, "\(command): \(viaSocket.standardError)")
            #expect(viaSocket.output == viaDB.output, "\(command)")
            #expect(viaSocket.standardError == viaDB.standardError, "\(command)")
        }
        // The refusals were refused both ways, with the offline command's sentence.
        let refused = try daemon.travelctl(["plan", "remove", "99"])
        #expect(refused.status == 1 && refused.standardError == "travelctl: no plan 99\n")
        let overlap = try daemon.travelctl(
            ["plan", "add", "--destination", "Pula", "--from", "2020-12-17", "--to", "2020-12-18", "--type", "day"]
        )
        #expect(overlap.standardError.hasPrefix("travelctl: those dates overlap plan"), "\(overlap.standardError)")

        let listings = [["journeys"], ["plan", "list"], ["zone", "list"], ["poi", "list"], ["events"]]
        for listing in listings {
            let (live, file) = (try Self.listing(daemon.state.database, listing), try Self.listing(offline, listing))
            #expect(live == file, "\(listing)")
            #expect(live.count > 2 || listing == ["events"], "\(listing): \(live)")
        }
        let journeys = try JSONValue(parsing: try Self.listing(offline, ["journeys"])).arrayValue ?? []
        let destinations = journeys.compactMap { $0["destination"]?.stringValue }
        #expect(destinations.contains("Poreč"), "\(journeys)")
        var shown = ""
        for id in journeys.compactMap({ $0["id"]?.intValue }) {
            let show = ["journey", "show", "\(id)"]
            let (live, file) = (try Self.listing(daemon.state.database, show), try Self.listing(offline, show))
            shown += file
            #expect(live == file, "\(show)")
        }
        #expect(shown.contains("coffee on the way") && shown.contains("no-exif.jpg"), "\(shown)")
        #expect(daemon.process.output.contains("watching 3 zones and 0 POIs"), "\(daemon.process.output)")
    }

    @Test func aZoneAddedOverTheSocketFiresOnTheNextCrossingWithoutSIGHUP() throws {
        let daemon = try LiveDaemon()
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        #expect(daemon.process.waitForLine(containing: "source connected") != nil, "\(daemon.process.output)")
        let drive = try DaemonGPSDTests.Drive()
        let points = try NMEALogWriter.points(ofGPX: DaemonGPSDTests.car)
        let middle = points[points.count / 2]
        let added = try daemon.travelctl(
            [
                "zone", "add", "halfway", "--lat", "\(middle.latitude)", "--lon", "\(middle.longitude)", "--radius",
                "150",
            ]
        )
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.output == "zone 1 halfway added\n")
        #expect(daemon.process.waitForLine(containing: "watching 1 zone and 0 POIs") != nil, "\(daemon.process.output)")

        daemon.receiver.write(DaemonSerialTests.line(drive.epochs[...]))
        #expect(daemon.process.waitForLine(containing: "entered zone halfway") != nil, "\(daemon.process.output)")
        #expect(daemon.process.waitForLine(containing: "left zone halfway") != nil, "\(daemon.process.output)")
        #expect(daemon.process.waitForLine(containing: "trip ended") != nil, "\(daemon.process.output)")
        #expect(!daemon.process.output.contains("configuration reloaded"))

        // Removed over the socket, it is no longer watched either.
        let removed = try daemon.travelctl(["zone", "remove", "halfway"])
        #expect(removed.output == "zone 1 halfway removed\n", "\(removed.standardError)")
        #expect(daemon.process.waitForLine(containing: "watching 0 zones and 0 POIs") != nil)
    }

    @Test(.enabled(if: ControlPermissionTests.isRoot, "needs root to create a second user and group"))
    func onlyRootAndTheAdminGroupMayChangeAndARefusalChangesNothing() throws {
        try ControlPermissionTests.ensureAccounts()
        let daemon = try LiveDaemon(
            configuration: "[Control]\nGroup=\(ControlPermissionTests.readers)\n"
                + "AdminGroup=\(ControlPermissionTests.admins)\n"
        )
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        let before = try Self.listing(daemon.state.database, ["zone", "list"])
        let zone = [
            "zone", "add", "gate", "--lat", "45.27", "--lon", "13.71", "--radius", "50", "--socket", daemon.socket,
        ]

        let denied = try ControlPermissionTests.travelctl(asUser: [], zone)
        #expect(denied.status == 77, "\(denied.standardError)")
        #expect(
            denied.standardError
                == "travelctl: permission denied: org.travelcompanion.control.AddZone needs root or the admin group\n"
        )
        let note = try ControlPermissionTests.travelctl(
            asUser: [],
            ["note", "add", "not mine to write", "--at", "2020-12-18T06:20:00Z", "--socket", daemon.socket]
        )
        #expect(note.status == 77, "\(note.standardError)")
        let unchanged = try Self.listing(daemon.state.database, ["zone", "list"])
        #expect(unchanged == before)
        #expect(!daemon.process.output.contains("watching 1 zone"))

        let uid = try #require(getpwnam(ControlPermissionTests.user)?.pointee.pw_uid)
        #expect(daemon.process.output.contains("refused org.travelcompanion.control.AddZone to uid \(uid)"))

        let allowed = try ControlPermissionTests.travelctl(asUser: [ControlPermissionTests.admins], zone)
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(allowed.output == "zone 1 gate added\n")
        #expect(daemon.process.waitForLine(containing: "AddZone called by uid \(uid)") != nil)
        let zones = try Self.listing(daemon.state.database, ["zone", "list"])
        #expect(zones.contains("\"gate\""))
    }

    @Test func aPOIImportLargerThanOneMessageGoesInBatchesAndACutOffImportAddsNothing() throws {
        let daemon = try LiveDaemon()
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        // 30 000 POIs: about 3 MB of JSON, six times the batch and three times the message limit.
        let count = 30_000
        let file = daemon.state.url.appendingPathComponent("many.csv").path
        var csv = "name,lat,lon,category\n"
        for index in 0..<count {
            csv +=
                "Fuel station number \(index),\(45 + Double(index % 300) / 1000),\(13 + Double(index / 300) / 1000),fuel\n"
        }
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(csv.utf8.count > 1 << 20)

        let imported = try daemon.travelctl(["poi", "import", file])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.output == "\(file) (csv): \(count) POIs read, \(count) new; 0 rows skipped\n")
        #expect(
            daemon.process.waitForLine(containing: "watching 0 zones and \(count) POIs") != nil,
            "\(daemon.process.output)"
        )
        let offline = daemon.state.url.appendingPathComponent("offline.sqlite").path
        let viaDB = try Binaries.run("travelctl", ["poi", "import", file, "--db", offline])
        #expect(viaDB.output == imported.output)
        let listing = try Self.listing(daemon.state.database, ["poi", "list"])
        let offlineListing = try Self.listing(offline, ["poi", "list"])
        #expect(listing == offlineListing)

        // An import cut off after two batches: the connection goes, nothing is committed.
        let batch: JSONValue = .array(
            (0..<1000).map { index in
                ["name": .string("Cut off \(index)"), "latitude": 46, "longitude": .double(14 + Double(index) / 1000)]
            }
        )
        let importID: JSONValue
        do {
            let client = try daemon.client()
            let first = try client.call(
                ControlInterface.Method.importPOIs.qualified,
                ["pois": batch, "commit": false, "source": "cut.csv"]
            )
            importID = first["import_id"] ?? .null
            #expect(importID.intValue != nil)
            #expect(first["staged"]?.intValue == 1000)
            #expect(first["added"] == .null)
            let second = try client.call(
                ControlInterface.Method.importPOIs.qualified,
                ["import_id": importID, "pois": batch, "commit": false, "source": "cut.csv"]
            )
            #expect(second["staged"]?.intValue == 2000)
        }
        let afterCut = try Self.listing(daemon.state.database, ["poi", "list"])
        #expect(afterCut == listing)
        // An id never given out is refused; a new import does not take the cut-off one's POIs.
        #expect(throws: VarlinkClientError.self) {
            try daemon.client().call(
                ControlInterface.Method.importPOIs.qualified,
                ["import_id": 999, "pois": [], "commit": true]
            )
        }
        let again = try daemon.travelctl(["poi", "import", ZoneCommandTests.poiFiles[2]])
        #expect(again.status == 0, "\(again.standardError)")
        let after = try JSONValue(parsing: try Self.listing(daemon.state.database, ["poi", "list"])).arrayValue ?? []
        #expect(after.count == count + 4)
        #expect(!after.contains { $0["name"]?.stringValue?.hasPrefix("Cut off") == true })
    }

    @Test(.enabled(if: PythonVarlink.isInstalled, "needs the varlink package from PyPI (scripts/setup.sh)"))
    func pythonsVarlinkClientCallsEveryChangeMethod() throws {
        let daemon = try LiveDaemon { state in try Self.importCar(into: state.database, config: state.config) }
        defer { #expect(daemon.stop() == 0, "\(daemon.process.output)") }
        let address = "unix:\(daemon.socket)/org.travelcompanion.control"
        let note = try PythonVarlink.run(
            ["call", "\(address).AddNote", #"{"text": "from python", "at": "2020-12-18T06:20:00Z"}"#]
        )
        #expect(note.output.contains("\"note\""), "\(note.output)\(note.standardError)")
        let zone = try PythonVarlink.run(
            [
                "call", "\(address).AddZone",
                #"{"zone": {"name": "py", "geometry": {"type": "Point", "coordinates": [13.7, 45.2]}, "radius_m": 40}}"#,
            ]
        )
        #expect(zone.output.contains("\"id\": 1"), "\(zone.output)\(zone.standardError)")
        let missing = try PythonVarlink.run(["call", "\(address).RemoveZone", #"{"zone": "nope"}"#])
        #expect(
            (missing.output + missing.standardError).contains("org.travelcompanion.control.ZoneNotFound"),
            "\(missing.output)\(missing.standardError)"
        )
        // Every other change method, each answered without an error.
        let sha256 = String(repeating: "ab", count: 32)
        for (method, parameters, answer) in [
            ("StartJourney", #"{"destination": "Python", "at": "2020-12-18T05:00:00Z"}"#, #""start""#),
            ("StopJourney", #"{"at": "2020-12-18T10:00:00Z"}"#, #""end""#),
            (
                "AddPhoto", #"{"path": "/photos/py.jpg", "sha256": "\#(sha256)", "time": "2020-12-18T06:30:00Z"}"#,
                #""photo""#
            ),
            (
                "AddPlan",
                #"{"destination": "Trieste", "from": "2021-01-02", "to": "2021-01-03", "type": "multi-day"}"#,
                #""plan""#
            ),
            // An empty reply prints nothing; the plan list below shows it worked.
            ("RemovePlan", #"{"id": 1}"#, ""),
            (
                "ImportZones",
                #"{"zones": [{"name": "py2", "geometry": {"type": "Point", "coordinates": [13.8, 45.3]}, "radius_m": 30}]}"#,
                #""added""#
            ),
            (
                "ImportPOIs", #"{"pois": [{"name": "Py cafe", "latitude": 45.2, "longitude": 13.7}], "commit": true}"#,
                #""added": 1"#
            ),
            ("RemoveNote", #"{"id": 1}"#, #""note""#),
            ("RemovePhoto", #"{"id": 1}"#, #""photo""#),
            ("RemoveTrip", #"{"id": 1}"#, #""trip""#),
            ("RemoveImport", #"{"import": "\#(Self.car)"}"#, #""trips_removed": 0"#),
        ] {
            let reply = try PythonVarlink.run(["call", "\(address).\(method)", parameters])
            let text = reply.output + reply.standardError
            #expect(
                (answer.isEmpty || text.contains(answer)) && !text.contains("org.travelcompanion.control."),
                "\(method): \(text)"
            )
        }
        let help = try PythonVarlink.run(["help", address])
        #expect(help.output.contains("method ImportPOIs("), "\(help.output)\(help.standardError)")
        let zones = try Self.listing(daemon.state.database, ["zone", "list"])
        #expect(zones.contains("\"py\"") && zones.contains("\"py2\""))
        #expect(try Self.listing(daemon.state.database, ["poi", "list"]).contains("Py cafe"))
        #expect(try Self.listing(daemon.state.database, ["plan", "list"]) == "[]\n")
        #expect(try Self.listing(daemon.state.database, ["journeys"]).contains("\"Python\""))
    }
}
