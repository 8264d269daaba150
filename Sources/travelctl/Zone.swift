import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
        @OptionGroup var settings: JourneyConfigurationOptions

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
            let zone = NamedZone(name: name, role: role, shape: shape)
            let added = try database.history(settings, readOnly: false).addZone(AddZoneParameters(zone: zone))
            print("zone \(added.id) \(name) added")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List zones with their inside/outside state.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        func run() throws {
            let reply = try database.history(settings).zones()
            let zones = reply.zones
            if output.json { return print(JSONValue.array(zones.map(\.json)).serializedString()) }
            guard !zones.isEmpty else {
                print("No zones. Add one with 'travelctl zone add NAME --lat LAT --lon LON --radius M'.")
                return
            }
            let local = LocalTimeZone.of(name: reply.timeZone)
            var table = Table(["ID", "NAME", "ROLE", "SHAPE", "STATE", "SINCE (\(local.name))"])
            for zone in zones {
                let shape =
                    switch zone.shape {
                    case .circle(_, let radius): "circle \(HumanText.distance(radius))"
                    case .polygons(let geometry):
                        geometry["coordinates"]?.arrayValue?.count == 1
                            ? "polygon" : "\(geometry["coordinates"]?.arrayValue?.count ?? 0) polygons"
                    }
                let state = zone.inside.map { $0 ? "inside" : "outside" } ?? "unknown"
                table.add([
                    String(zone.id), zone.name, zone.role ?? "", shape, state,
                    zone.since.map { Format.localDateTime($0, local) } ?? "",
                ])
            }
            print(table.rendered, terminator: "")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a zone, its events and its state.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The zone's name or ID.")
        var zone: String

        func run() throws {
            let removed = try database.history(settings, readOnly: false).removeZone(RemoveZoneParameters(zone: zone))
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
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "A GeoJSON file.")
        var file: String

        func run() throws {
            let base =
                String(file.split(separator: "/").last ?? "zone").split(separator: ".").first.map(String.init) ?? "zone"
            let zones = try zip(1..., ZoneFiles.read(file)).map { number, draft in
                NamedZone(name: draft.name ?? "\(base) \(number)", role: draft.role, shape: draft.shape)
            }
            let outcome = try database.history(settings, readOnly: false).importZones(
                ImportZonesParameters(zones: zones)
            )
            for name in outcome.skipped { printError("travelctl: \(file): zone \(name) exists, skipped") }
            let added = outcome.added.count
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
}
