public import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

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
            let db = try database.open(readOnly: false)
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
                let added = try withStoreErrors { try db.addPOIs(result.pois, source: file) }
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
            let db = try database.open(readOnly: true)
            let center = near.flatMap(Coordinate.init(parsing:))
            let pois = try withStoreErrors { try db.poiRecords(category: category, near: center, radius: radius) }
            if output.json {
                print(JSONValue.array(pois.map(\.json)).serializedString())
                return
            }
            guard !pois.isEmpty else {
                print("No POIs\(center == nil ? "" : " there"). Import some with 'travelctl poi import FILE'.")
                return
            }
            var table = Table(["ID", "NAME", "CATEGORY", "LAT", "LON"] + (center == nil ? [] : ["DISTANCE"]))
            for record in pois {
                let c = record.poi.coordinate
                table.add(
                    [
                        String(record.poi.id), record.poi.name.oneLine, record.poi.category ?? "",
                        String(c.latitude), String(c.longitude),
                    ] + (record.distance.map { [Format.distance($0)] } ?? [])
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
