import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore

/// `travelctl stats`: journeys and distance per month of a year, as a bar chart or JSON.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chart journeys and distance per month of a year.",
        discussion: """
            Months are local to the configured [Journeys] TimeZone; a journey counts whole in the \
            month it starts in. Without --year, the year of the latest journey.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "The year to chart (default: the year of the latest journey).")
    var year: Int?

    /// The longest bar, in characters: a chart and its labels fit in 80 columns.
    static let barWidth = 40

    func run() throws {
        let reply = try database.read(.stats, ["year": year.map { .integer(Int64($0)) } ?? .null]) { db in
            try db.statsDocument(year: year, zone: try settings.rules().timeZone)
        }
        let document = reply["stats"] ?? MonthlyTotals.emptyJSON
        let zone = reply.timeZone
        if output.json { return print(document.serializedString()) }
        // Drawn from the JSON document, so the daemon's answer and the database's look the same.
        guard let year = document["year"]?.intValue, let months = document["months"]?.arrayValue else {
            return print("No journeys yet. They appear here after your first drive.")
        }
        print("Journeys and distance per month, \(year) (months local to \(zone.name))")
        let rows = months.map { month in
            (
                month: month["month"]?.intValue ?? 1, journeys: month["journeys"]?.intValue ?? 0,
                distance: month["distance_m"]?.doubleValue ?? 0
            )
        }
        let longest = rows.map(\.distance).max() ?? 0
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let countWidth = String(rows.map(\.journeys).max() ?? 0).count
        for month in rows {
            let cells = longest > 0 ? Int((month.distance / longest * Double(Self.barWidth)).rounded(.up)) : 0
            let count = String(month.journeys)
            let bar = String(repeating: "█", count: cells).padding(to: Self.barWidth)
            let padding = String(repeating: " ", count: countWidth - count.count)
            print("\(names[month.month - 1])  \(padding)\(count)  \(bar)  \(HumanText.distance(month.distance))")
        }
        let journeys = document["journeys"]?.intValue ?? 0
        let distance = document["distance_m"]?.doubleValue ?? 0
        print("\(journeys) journey\(journeys == 1 ? "" : "s"), \(HumanText.distance(distance))")
    }
}
