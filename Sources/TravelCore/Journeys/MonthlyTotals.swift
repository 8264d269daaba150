/// Journeys and distance per local calendar month of one year: what `travelctl stats` charts.
package struct MonthlyTotals: Sendable, Hashable {
    /// One month's totals.
    package struct Month: Sendable, Hashable {
        /// 1 to 12.
        package var month: Int
        package var journeys: Int
        /// Metres.
        package var distance: Double
    }

    package var year: Int
    /// January to December, months without journeys included, so a chart has every month.
    package private(set) var months: [Month]

    /// Totals of the journeys that start in `year` (local time); each `journeys` element is a
    /// journey's start and distance. A journey counts in the month it starts in, whole.
    package init(year: Int, journeys: [(start: UTCTime, distance: Double)], zone: LocalTimeZone) {
        self.year = year
        months = (1...12).map { Month(month: $0, journeys: 0, distance: 0) }
        for journey in journeys {
            let local = zone.local(journey.start).components
            guard local.year == year else { continue }
            months[local.month - 1].journeys += 1
            months[local.month - 1].distance += journey.distance
        }
    }

    package var journeys: Int { months.reduce(0) { $0 + $1.journeys } }
    package var distance: Double { months.reduce(0) { $0 + $1.distance } }
}
