import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `travelctl zone add|list|remove|import`: the geofences.
struct ZoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zone",
        abstract: "Manage zones (geofences): circles and GeoJSON polygons with enter/exit events.",
        subcommands: [Add.self, List.self, Remove.self, ImportFile.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a circle (--lat --lon --radius) or a GeoJSON polygon (--geojson FILE).",
            discussion: """
                A zone drawn around where the vehicle last was starts inside, without an enter event.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The zone's name, unique.")
        var name: String
        @Option(parsing: .unconditional, help: "Centre latitude, degrees.") var lat: Double?
        @Option(parsing: .unconditional, help: "Centre longitude, degrees (negative west).") var lon: Double?
        @Option(help: "Radius, metres.") var radius: Double?
        @Option(help: ArgumentHelp("A GeoJSON file with one Polygon or MultiPolygon.", valueName: "file"))
        var geojson: String?
        @Option(help: "Its role: home, work, …") var role: String?

        func validate() throws {
            if geojson != nil {
                guard lat == nil, lon == nil, radius == nil else {
                    throw ValidationError("give either --geojson or --lat, --lon and --radius")
                }
                return
            }
            guard let lat, let lon, let radius else {
                throw ValidationError("a circle needs --lat, --lon and --radius (or give --geojson FILE)")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw ValidationError("--lat/--lon out of range") }
            guard radius > 0, radius <= 1_000_000 else { throw ValidationError("--radius must be 0 to 1000000 m") }
        }

        func run() throws {
            let shape: ZoneShape
            if let geojson {
                let drafts = try ZoneFiles.read(geojson)
                guard drafts.count == 1, let draft = drafts.first else {
                    printError("travelctl: \(geojson): \(drafts.count) zones; 'zone import' adds several")
                    throw ExitCode(1)
                }
                shape = draft.shape
            } else {
                shape = .circle(center: Coordinate(latitude: lat!, longitude: lon!), radius: radius!)
            }
            let db = try database.open(readOnly: false)
            let zone = try ZoneFiles.add(name: name, role: role, shape: shape, to: db)
            print("zone \(zone) \(name) added")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List zones with their inside/outside state.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let db = try database.open(readOnly: true)
            let zones = try withStoreErrors { try db.zoneRecords() }
            if output.json {
                print(JSONValue.array(zones.map(\.json)).serializedString())
                return
            }
            guard !zones.isEmpty else {
                print("No zones. Add one with 'travelctl zone add NAME --lat LAT --lon LON --radius M'.")
                return
            }
            var table = Table(["ID", "NAME", "ROLE", "SHAPE", "STATE", "SINCE (UTC)"])
            for record in zones {
                let shape =
                    switch record.zone.shape {
                    case .circle(_, let radius): "circle \(Format.distance(radius))"
                    case .polygons(let polygons): polygons.count == 1 ? "polygon" : "\(polygons.count) polygons"
                    }
                let state = record.inside.map { $0 ? "inside" : "outside" } ?? "unknown"
                table.add([
                    String(record.zone.id), record.zone.name, record.zone.role ?? "", shape, state,
                    record.since.map(Format.dateTime) ?? "",
                ])
            }
            print(table.rendered, terminator: "")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a zone, its events and its state.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The zone's name or ID.")
        var zone: String

        func run() throws {
            let db = try database.open(readOnly: false)
            guard let removed = try withStoreErrors({ try db.removeZone(zone) }) else {
                printError("travelctl: no zone \(zone)")
                throw ExitCode(1)
            }
            print("zone \(removed.id) \(removed.name) removed")
        }
    }

    struct ImportFile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add every Polygon, MultiPolygon and Point-with-radius of a GeoJSON file.",
            discussion: "Names come from properties.name (else the file name and a number), roles from properties.role."
        )

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "A GeoJSON file.")
        var file: String

        func run() throws {
            let drafts = try ZoneFiles.read(file)
            let db = try database.open(readOnly: false)
            let base =
                String(file.split(separator: "/").last ?? "zone").split(separator: ".").first.map(String.init) ?? "zone"
            var added = 0
            for (number, draft) in zip(1..., drafts) {
                let name = draft.name ?? "\(base) \(number)"
                let existing = try withStoreErrors { try db.zoneRecords().contains { $0.zone.name == name } }
                if existing {
                    printError("travelctl: \(file): zone \(name) exists, skipped")
                    continue
                }
                _ = try ZoneFiles.add(name: name, role: draft.role, shape: draft.shape, to: db)
                added += 1
            }
            print("\(file): \(added) zone\(added == 1 ? "" : "s") added")
        }
    }
}

/// What the zone subcommands share.
enum ZoneFiles {
    /// The zones of a GeoJSON file, or one line on stderr and exit 1.
    static func read(_ path: String) throws -> [ZoneDraft] {
        do {
            let bytes = try InputFile(path: path).readAll()
            return try ZoneImport.read(geoJSON: String(decoding: bytes, as: UTF8.self))
        } catch {
            printError("travelctl: \(path): \(error)")
            throw ExitCode(1)
        }
    }

    /// Adds a zone, inside when it holds the vehicle's last known position (no false enter).
    static func add(name: String, role: String?, shape: ZoneShape, to db: TravelDatabase) throws -> Int64 {
        let id = try withStoreErrors { () throws -> Int64? in
            let inside = try db.lastKnownPosition().map { last in
                (ZoneGeometry(shape).signedDistance(to: last.coordinate) < 0, since: last.time)
            }
            return try db.addZone(name: name, role: role, shape: shape, inside: inside)
        }
        guard let id else {
            printError("travelctl: a zone named \(name) exists")
            throw ExitCode(1)
        }
        return id
    }
}
