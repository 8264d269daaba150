import Foundation
import Testing

/// `travelctl export` on the real tracks, read back by tools we did not write: gpsbabel for GPX,
/// GDAL's ogrinfo for GeoJSON and KML, xmllint for well-formed XML and, for GPX, validity against
/// the GPX 1.1 schema (scripts/setup.sh installs them).
@Suite struct ExportCommandTests {
    /// GPX 1.1 as an XML Schema, written for this project from the published specification: the
    /// machine has no internet to fetch the `schemaLocation` an export names.
    static let gpxSchema = Binaries.fixtures.appendingPathComponent("gpx/gpx-1.1.xsd").path

    /// `xmllint --schema` on `file`, whatever its verdict (callers expect success or failure).
    static func schemaCheck(_ file: String) throws -> Binaries.Result {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint"), "xmllint is needed")
        return try Binaries.run("/usr/bin/xmllint", ["--noout", "--schema", gpxSchema, file], absolute: true)
    }

    /// Requires `file` to be valid GPX 1.1.
    static func requireValidGPX(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try schemaCheck(file)
        #expect(
            result.status == 0,
            "\(file) is not valid GPX 1.1: \(result.standardError)",
            sourceLocation: sourceLocation
        )
        #expect(result.standardError.contains("validates"), "\(result.standardError)", sourceLocation: sourceLocation)
    }

    /// A database with both real tracks imported, and each trip's stored route point count.
    static func importedTracks() throws -> (directory: URL, db: String, points: [Int]) {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        let result = try Binaries.run("travelctl", ["--db", db, "import"] + ImportCommandTests.tracks)
        #expect(result.status == 0, "\(result.standardError)")
        let points = try ImportCommandTests.trips(db).map { try #require($0["points"] as? Int) }
        #expect(points.count == 2)
        return (directory, db, points)
    }

    /// Runs a system tool, failing the test with a hint when it is missing.
    static func tool(_ name: String, _ arguments: [String]) throws -> Binaries.Result {
        let path = "/usr/bin/\(name)"
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "\(name) is needed (scripts/setup.sh installs it)"
        )
        let result = try Binaries.run(path, arguments, absolute: true)
        #expect(result.status == 0, "\(name) \(arguments): \(result.standardError)")
        return result
    }

    /// The lines of gpsbabel's unicsv output (CRLF-terminated) after its header.
    static func csvRows(_ result: Binaries.Result) -> Int {
        result.output.split(whereSeparator: \.isNewline).count - 1
    }

    /// Exports with `--output` into `directory` and returns the file's path.
    static func export(_ db: String, _ format: String, _ selection: [String] = [], in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("export-\(selection.joined(separator: "-")).\(format)").path
        let result = try Binaries.run(
            "travelctl",
            ["--db", db, "export", "--format", format, "--output", file] + selection
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.isEmpty, "--output leaves standard output empty")
        return file
    }

    /// The `LINESTRING : N points` counts and the number of `POINT` geometries ogrinfo sees.
    static func ogrGeometries(_ file: String) throws -> (lines: [Int], points: Int) {
        let lines = try tool("ogrinfo", ["-ro", "-al", "-geom=SUMMARY", file]).output
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let lineStrings = lines.filter { $0.hasPrefix("LINESTRING") }.compactMap {
            Int($0.split(separator: " ").dropFirst(2).first ?? "")
        }
        return (lineStrings, lines.filter { $0.hasPrefix("POINT") }.count)
    }

    @Test func gpxIsReadByGpsbabelWithEveryRoutePointAndStop() throws {
        let (directory, db, points) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.export(db, "gpx", in: directory)
        try Self.requireValidGPX(file)

        // unicsv writes a header line, then one line per track point (-t) or waypoint (-w).
        let track = try Self.tool("gpsbabel", ["-t", "-i", "gpx", "-f", file, "-o", "unicsv", "-F", "-"])
        #expect(Self.csvRows(track) == points.reduce(0, +))
        #expect(track.output.contains("52.629279,-8.661504,19.7,2019/02/18,07:50:08"), "first point of the bus ride")
        // Each drive ended parked: one stop after each trip.
        let waypoints = try Self.tool("gpsbabel", ["-w", "-i", "gpx", "-f", file, "-o", "unicsv", "-F", "-"])
        #expect(Self.csvRows(waypoints) == points.count)
    }

    @Test func geoJSONIsReadByOgrinfoAsOneLinePerTripAndAPointPerStop() throws {
        let (directory, db, points) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.export(db, "geojson", in: directory)
        let summary = try Self.tool("ogrinfo", ["-ro", "-al", "-so", file]).output
        #expect(summary.contains("using driver `GeoJSON' successful"))
        #expect(summary.contains("Feature Count: \(points.count * 2)"), "\(summary)")
        for field in ["distance_m: Real", "duration_s: Real", "start_place: String", "journey_id: Integer"] {
            #expect(summary.contains(field), "ogrinfo lacks \(field)")
        }
        let geometries = try Self.ogrGeometries(file)
        #expect(geometries.lines == points)
        #expect(geometries.points == points.count)
    }

    @Test func kmlIsReadByOgrinfoAsATripsLayerAndAStopsLayer() throws {
        let (directory, db, points) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.export(db, "kml", in: directory)
        _ = try Self.tool("xmllint", ["--noout", file])
        let summary = try Self.tool("ogrinfo", ["-ro", "-al", "-so", file]).output
        let layers = summary.components(separatedBy: "Layer name: ").dropFirst()
        #expect(layers.map { String($0.prefix { $0 != "\n" }) } == ["Stops", "Trips"])
        #expect(layers.allSatisfy { $0.contains("Feature Count: \(points.count)") }, "\(summary)")
        let geometries = try Self.ogrGeometries(file)
        #expect(geometries.lines == points)
        #expect(geometries.points == points.count)
    }

    @Test func oneTripOrOneJourneyGoesToStandardOutput() throws {
        let (directory, db, points) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trip = try Binaries.run("travelctl", ["--db", db, "export", "--format", "gpx", "--trip", "2"])
        #expect(trip.status == 0, "\(trip.standardError)")
        let file = directory.appendingPathComponent("trip.gpx")
        try trip.standardOutput.write(to: file)
        let track = try Self.tool("gpsbabel", ["-t", "-i", "gpx", "-f", file.path, "-o", "unicsv", "-F", "-"])
        #expect(Self.csvRows(track) == points[1])

        // Without a home, each trip is a journey of its own: journey 1 is the bus ride.
        let journey = try Self.export(db, "geojson", ["--journey", "1"], in: directory)
        #expect(try Self.ogrGeometries(journey).lines == [points[0]])
    }

    /// The Višnjan drive moved to straddle 180°, where it crosses the antimeridian twice: GDAL
    /// reads three line strings, cut at ±180° (two more points each cut), never one round the world.
    @Test func aDriveAcrossTheAntimeridianIsCutThereInGeoJSON() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOfFile: ImportCommandTests.tracks[1], encoding: .utf8)
        let moved = original.replacing(/lon="([0-9.]+)"/) { match in
            let longitude = (Double(match.1) ?? 0) + 166.283
            return #"lon="\#(longitude > 180 ? longitude - 360 : longitude)""#
        }
        let gpx = directory.appendingPathComponent("antimeridian.gpx")
        try moved.write(to: gpx, atomically: true, encoding: .utf8)
        let result = try Binaries.run("travelctl", ["--db", db, "import", gpx.path])
        #expect(result.status == 0, "\(result.standardError)")
        let points = try #require(try ImportCommandTests.trips(db).first?["points"] as? Int)

        let file = try Self.export(db, "geojson", in: directory)
        let summary = try Self.tool("ogrinfo", ["-ro", "-al", "-geom=SUMMARY", file]).output
        #expect(summary.contains("MULTILINESTRING : 3 geometries"), "\(summary)")
        #expect(try Self.ogrGeometries(file).lines.reduce(0, +) == points + 2 * 2)
        #expect(summary.contains("Extent: (-180.000000, 45.272476) - (180.000000, 45.280915)"), "\(summary)")
    }

    @Test func anEmptySelectionIsAValidEmptyDocument() throws {
        let (directory, db, _) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kml = try Self.export(db, "kml", ["--since", "2030-01-01"], in: directory)
        _ = try Self.tool("xmllint", ["--noout", kml])
        let gpx = try Self.export(db, "gpx", ["--since", "2030-01-01"], in: directory)
        try Self.requireValidGPX(gpx)
        let empty = try Self.tool("gpsbabel", ["-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", "-"])
        #expect(Self.csvRows(empty) == 0)
        let geojson = try Self.export(db, "geojson", ["--since", "2030-01-01", "--until", "2030-12-31"], in: directory)
        #expect(try Self.tool("ogrinfo", ["-ro", "-al", "-so", geojson]).output.contains("Feature Count: 0"))
    }

    /// Every GPX selection on the week with notes and photos: the whole history, one trip, a
    /// journey with its notes and photos as waypoints, a date range.
    @Test func gpxExportsAreValidGPX11() throws {
        let (directory, db, _) = try NotePhotoCommandTests.weekWithMoments()
        defer { try? FileManager.default.removeItem(at: directory) }
        let selections = [
            [], ["--trip", "3"], ["--journey", "1"], ["--since", "2019-02-19", "--until", "2019-02-21"],
        ]
        for selection in selections {
            let file = try Self.export(db, "gpx", selection, in: directory)
            try Self.requireValidGPX(file)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains("<trkpt "), "\(selection) has track points")
            if selection.first == "--journey" {
                #expect(text.contains("<type>note</type>") && text.contains("<type>photo</type>"), "\(text)")
            }
        }
    }

    /// Ways a GPX document can break the schema while staying well-formed XML.
    enum GPXBreakage: String, CaseIterable, Sendable {
        case trackPointWithoutLatitude
        case latitudeBeyondNinety
        case longitudeOfOneEighty
        case timeBeforeElevation
        case descriptionBeforeName
        case waypointAfterTrack
        case versionOneZero

        func apply(to gpx: String) -> String {
            switch self {
            case .trackPointWithoutLatitude:
                gpx.replacing(#/<trkpt lat="[^"]*" /#, with: "<trkpt ", maxReplacements: 1)
            case .latitudeBeyondNinety:
                gpx.replacing(#/<trkpt lat="[^"]*"/#, with: #"<trkpt lat="90.0000001""#, maxReplacements: 1)
            case .longitudeOfOneEighty:
                gpx.replacing(#/ lon="[^"]*"><ele>/#, with: #" lon="180"><ele>"#, maxReplacements: 1)
            case .timeBeforeElevation:
                gpx.replacing(#/(<ele>[^<]*</ele>)(<time>[^<]*</time>)/#, maxReplacements: 1) { "\($0.2)\($0.1)" }
            case .descriptionBeforeName:
                gpx.replacing(#/(<name>[^<]*</name>)(<desc>[^<]*</desc>)<type>/#, maxReplacements: 1) {
                    "\($0.2)\($0.1)<type>"
                }
            case .waypointAfterTrack:
                gpx.replacing(#/</trk>\n/#, with: "</trk>\n<wpt lat=\"1\" lon=\"2\"/>\n", maxReplacements: 1)
            case .versionOneZero:
                gpx.replacing(#"version="1.1" creator"#, with: #"version="1.0" creator"#)
            }
        }
    }

    /// The schema check can fail: each breakage of a valid export, still well-formed, is refused.
    @Test(arguments: GPXBreakage.allCases)
    func theSchemaRefusesABrokenGPXDocument(_ breakage: GPXBreakage) throws {
        let (directory, db, _) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let valid = try Self.export(db, "gpx", in: directory)
        try Self.requireValidGPX(valid)
        let original = try String(contentsOfFile: valid, encoding: .utf8)
        let broken = breakage.apply(to: original)
        #expect(broken != original, "\(breakage) changed nothing")
        let file = directory.appendingPathComponent("\(breakage).gpx")
        try broken.write(to: file, atomically: true, encoding: .utf8)
        _ = try Self.tool("xmllint", ["--noout", file.path])
        let result = try Self.schemaCheck(file.path)
        #expect(result.status != 0, "\(breakage) passed the schema")
        #expect(result.standardError.contains("fails to validate"), "\(result.standardError)")
    }

    @Test func anUnknownTripOrJourneyIsAOneLineError() throws {
        let (directory, db, _) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (option, noun) in [("--trip", "trip"), ("--journey", "journey")] {
            let result = try Binaries.run("travelctl", ["--db", db, "export", "--format", "kml", option, "99"])
            #expect(result.status == 1)
            #expect(result.standardError == "travelctl: no \(noun) 99\n")
            #expect(result.standardOutput.isEmpty)
        }
        let both = try Binaries.run(
            "travelctl",
            ["--db", db, "export", "--format", "gpx", "--trip", "1", "--journey", "1"]
        )
        #expect(both.status == 2, "one selection at a time is a usage error")
    }

    /// A write that fails half-way (here at the file size limit, `ulimit -f` in KiB: above the
    /// database's 32 KiB shared-memory file, below the 220 KB export; with SIGXFSZ ignored so the
    /// write returns EFBIG) leaves the previous file as it was and no temporary file behind.
    @Test func aFailedExportLeavesThePreviousFileUntouched() throws {
        let (directory, db, _) = try Self.importedTracks()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trips.gpx")
        try Data("previous export\n".utf8).write(to: file)
        let travelctl = Binaries.productsDirectory.appendingPathComponent("travelctl").path
        let result = try Binaries.run(
            "/bin/bash",
            [
                "-c", #"trap "" XFSZ; ulimit -f 100; exec "$0" "$@""#, travelctl, "--db", db, "export", "--format",
                "gpx",
                "--output", file.path,
            ],
            absolute: true
        )
        #expect(result.status == 1)
        #expect(result.standardError == "travelctl: cannot write \(file.path): File too large\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "previous export\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("partial") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }
}
