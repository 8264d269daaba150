import ArgumentParser
import TravelControl
import TravelCore
import TravelDecoding
import TravelFormats
import TravelIO
import TravelMessages
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
        @OptionGroup var settings: JourneyConfigurationOptions

        @Option(help: "auto, geojson, gpx, csv or geonames.")
        var format: POIFormat = .auto
        @Option(help: "The category of POIs the file gives none (for GeoNames: of all).")
        var category: String?
        @Argument(help: "The files.")
        var files: [String]

        func run() throws {
            let history = try database.history(settings, readOnly: false)
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
                let added = try history.importPOIs(result.pois, source: file)
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
        @OptionGroup var settings: JourneyConfigurationOptions
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
            let parameters = ListPOIsParameters(category: category, near: near, radius: radius)
            let center = parameters.center
            let pois = try database.history(settings).pois(parameters).pois
            if output.json { return print(JSONValue.array(pois.map(\.json)).serializedString()) }
            guard !pois.isEmpty else {
                print("No POIs\(center == nil ? "" : " there"). Import some with 'travelctl poi import FILE'.")
                return
            }
            var table = Table(["ID", "NAME", "CATEGORY", "LAT", "LON"] + (center == nil ? [] : ["DISTANCE"]))
            for message in pois {
                let poi = message.poi
                table.add(
                    [
                        String(poi.id), poi.name.oneLine, poi.category ?? "", String(poi.coordinate.latitude),
                        String(poi.coordinate.longitude),
                    ] + (message.distance.map { [HumanText.distance($0)] } ?? [])
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
