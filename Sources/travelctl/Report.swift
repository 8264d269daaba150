import ArgumentParser
import TravelControl
import TravelFormats
import TravelIO
import TravelMessages
import TravelReport
import TravelStore

/// `travelctl report`: one self-contained HTML file with a map of the routes, a heatmap of the
/// time spent per place, markers, zones and POIs, monthly charts and the journeys table, readable offline.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an offline HTML report: map of routes, heatmap, markers, monthly charts.",
        discussion: """
            Reports every trip unless --trip, --journey or a --since/--until range narrows it, as export \
            does; a narrowed report charts its own journeys, in its own months. The map also draws the zones \
            and the POIs near the routes. The page carries everything it shows (Leaflet, Chart.js, Natural Earth's borders and the \
            history's data) and fetches nothing: it opens from a USB stick on a laptop without network. \
            Routes are simplified for drawing only (the database keeps every point). The page goes to \
            standard output, or with --output to a file that is replaced only once it is complete; --json \
            writes the page's data instead. The same history gives the same bytes, through the daemon or \
            with --db.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @OptionGroup var trips: TripSelectionOptions

    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Write the page's data (JSON) instead of the page.")
    var json = false

    func run() throws {
        let data = try database.history(settings).report(ReportParameters(trips: trips.selection))
        var bytes = json ? data : ReportPage.html(data: data)
        if json { bytes.append(UInt8(ascii: "\n")) }
        do {
            try AtomicFile.write(toFileOrStandardOutput: output) { sink in try sink(bytes) }
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }
}
