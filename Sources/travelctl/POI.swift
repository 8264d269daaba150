public import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore
import TravelFormats
import TravelDecoding

/// `travelctl poi import|list`: points of interest for nearby alerts and place labels.
struct POICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poi",
        abstract: "Import and list points of interest.",
        subcommands: [ImportFiles.self, List.self]
    )

    struct ImportFiles: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import POIs from GeoJSON (Overpass), GPX waypoints, CSV or GeoNames dumps.",
            discussion: """
                CSV files need a header with name, lat and lon columns (category optional). Rows that \
                cannot be read are reported with their line (or feature) number; the others are imported. \
                A POI with the same name and position is stored once.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "auto, geojson, gpx, csv or geonames.")
        var format: POIFormat = .auto
        @Option(help: "The category of POIs the file gives none (for GeoNames: of all).")
        var category: String?
        @Argument(help: "The files.")
        var files: [String]

        func run() throws {
            let target: POITarget =
                database.db == nil ? .daemon(try DaemonClient(database)) : .database(try database.open(readOnly: false))
            var failed = false
            for file in files {
                let bytes: [UInt8]
                do {
                    bytes = try InputFile(path: file).readAll()
                } catch {
                    printError("travelctl: \(file): \(error)")
                    failed = true
                    continue
                }
                let result = POIImport.read(bytes, format: format, path: file, category: category)
                let added = try target.add(result.pois, source: file)
                let skipped = result.rejected.count
                print(
                    "\(file) (\(result.format.rawValue)): \(result.pois.count) POIs read, \(added) new; "
                        + "\(skipped) row\(skipped == 1 ? "" : "s") skipped"
                )
                for rejection in result.rejected.prefix(20) { printError("  \(file): \(rejection)") }
                if skipped > 20 { printError("  \(file): … and \(skipped - 20) more") }
            }
            if failed { throw ExitCode(1) }
        }
    }

    /// Where imported POIs go: the database file, or the daemon, sent the POIs parsed here (it
    /// never opens a client's file) in batches within its message limit.
    enum POITarget {
        case database(TravelDatabase)
        case daemon(DaemonClient)

        /// How many bytes of POIs one `ImportPOIs` call carries: half the daemon's 1 MiB limit.
        static let batchBytes = 512 * 1024

        /// Adds `pois` in one transaction and returns how many were new. Through the daemon they
        /// are staged batch by batch and added by the last call: an import cut off adds nothing.
        func add(_ pois: [POIDraft], source: String) throws -> Int {
            switch self {
            case .database(let db):
                return try withStoreErrors { try db.addPOIs(pois, source: source) }
            case .daemon(let client):
                var importID: JSONValue = .null
                var batch: [JSONValue] = []
                var bytes = 0
                for (index, poi) in pois.enumerated() {
                    let json = poi.controlJSON
                    batch.append(json)
                    bytes += json.serializedString().utf8.count + 1
                    guard bytes >= Self.batchBytes, index < pois.count - 1 else { continue }
                    let reply = try client.call(
                        .importPOIs,
                        ["import_id": importID, "pois": .array(batch), "commit": false, "source": .string(source)]
                    )
                    importID = reply["import_id"] ?? .null
                    (batch, bytes) = ([], 0)
                }
                let reply = try client.call(
                    .importPOIs,
                    ["import_id": importID, "pois": .array(batch), "commit": true, "source": .string(source)]
                )
                guard let added = reply["added"]?.intValue else { throw DaemonClient.malformedReply(.importPOIs) }
                return added
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List POIs, by name or nearest first.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Only POIs near this place, nearest first.", valueName: "lat,lon")
        )
        var near: String?
        @Option(help: "With --near: how far, metres.") var radius = 5_000.0
        @Option(help: "Only this category.") var category: String?

        func validate() throws {
            if let near, Coordinate(parsing: near) == nil {
                throw ValidationError("--near takes LAT,LON in degrees, such as 52.66,-8.63")
            }
        }

        func run() throws {
            let center = near.flatMap(Coordinate.init(parsing:))
            let parameters: JSONValue = [
                "category": category.map(JSONValue.string) ?? .null, "near": near.map(JSONValue.string) ?? .null,
                "radius_m": .double(radius),
            ]
            let reply = try database.read(.listPOIs, parameters) { db in
                ["pois": try db.poisDocument(category: category, near: center, radius: radius)]
            }
            let pois = reply["pois"]?.arrayValue ?? []
            if output.json { return print(JSONValue.array(pois).serializedString()) }
            guard !pois.isEmpty else {
                print("No POIs\(center == nil ? "" : " there"). Import some with 'travelctl poi import FILE'.")
                return
            }
            // Drawn from the document, so the daemon's answer and the database's look the same.
            var table = Table(["ID", "NAME", "CATEGORY", "LAT", "LON"] + (center == nil ? [] : ["DISTANCE"]))
            for poi in pois {
                table.add(
                    [poi.text("id"), poi.text("name").oneLine, poi.text("category"), poi.text("lat"), poi.text("lon")]
                        + (poi["distance_m"]?.doubleValue.map { [HumanText.distance($0)] } ?? [])
                )
            }
            print(table.rendered, terminator: "")
        }
    }
}

extension POIFormat: ExpressibleByArgument {}

extension String {
    /// Line breaks (a quoted CSV field may hold them) as spaces, for table cells.
    var oneLine: String { String(map { $0.isNewline ? " " : $0 }) }
}
