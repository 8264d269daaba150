import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
        let reply = try database.history(settings).stats(StatsParameters(year: year))
        if output.json { return print((reply.stats?.json ?? StatsMessage.emptyJSON).serializedString()) }
        guard let stats = reply.stats else {
            return print("No journeys yet. They appear here after your first drive.")
        }
        let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
        print("Journeys and distance per month, \(stats.year) (months local to \(zone.name))")
        let longest = stats.months.map(\.distance).max() ?? 0
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let countWidth = String(stats.months.map(\.journeys).max() ?? 0).count
        for month in stats.months {
            let cells = longest > 0 ? Int((month.distance / longest * Double(Self.barWidth)).rounded(.up)) : 0
            let count = String(month.journeys)
            let bar = String(repeating: "█", count: cells).padding(to: Self.barWidth)
            let padding = String(repeating: " ", count: countWidth - count.count)
            print("\(names[month.month - 1])  \(padding)\(count)  \(bar)  \(HumanText.distance(month.distance))")
        }
        print("\(stats.journeys) journey\(stats.journeys == 1 ? "" : "s"), \(HumanText.distance(stats.distance))")
    }
}
