import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `travelctl stats`: journeys and distance per month of a year, as a bar chart or JSON.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chart journeys and distance per month of a year.",
        discussion: """
            Months are local to the configured [Journeys] UTCOffset; a journey counts whole in the \
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
        let offset = try settings.rules().utcOffset
        let db = try database.open(readOnly: true)
        let journeys = try withStoreErrors { try db.journeys(offset: offset) }
        let year = year ?? journeys.last.map { offset.local($0.start).components.year }
        guard let year else {
            if output.json {
                let empty: JSONValue = ["year": nil, "journeys": 0, "distance_m": 0.0, "months": []]
                print(empty.serializedString())
            } else {
                print("No journeys yet. They appear here after your first drive.")
            }
            return
        }
        let totals = MonthlyTotals(year: year, journeys: journeys.map { ($0.start, $0.distance) }, offset: offset)
        if output.json {
            print(totals.json.serializedString())
            return
        }
        print("Journeys and distance per month, \(year) (months local to UTC\(offset))")
        let longest = totals.months.map(\.distance).max() ?? 0
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let countWidth = String(totals.months.map(\.journeys).max() ?? 0).count
        for month in totals.months {
            let cells = longest > 0 ? Int((month.distance / longest * Double(Self.barWidth)).rounded(.up)) : 0
            let count = String(month.journeys)
            let bar = String(repeating: "█", count: cells).padding(to: Self.barWidth)
            let padding = String(repeating: " ", count: countWidth - count.count)
            print("\(names[month.month - 1])  \(padding)\(count)  \(bar)  \(Format.distance(month.distance))")
        }
        print("\(totals.journeys) journey\(totals.journeys == 1 ? "" : "s"), \(Format.distance(totals.distance))")
    }
}

extension MonthlyTotals {
    /// The `stats --json` shape: the year, its totals and each month's.
    var json: JSONValue {
        [
            "year": .integer(Int64(year)),
            "journeys": .integer(Int64(journeys)),
            "distance_m": .double((distance * 10).rounded() / 10),
            "months": .array(
                months.map { month in
                    [
                        "month": .integer(Int64(month.month)),
                        "journeys": .integer(Int64(month.journeys)),
                        "distance_m": .double((month.distance * 10).rounded() / 10),
                    ]
                }
            ),
        ]
    }
}
