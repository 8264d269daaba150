package import TravelCore
package import TravelFormats

/// `stats --json` and the report's years: a year's journeys and distance, in total and per local
/// month, distances to 0.1 m as they travel (the total rounded on its own, not summed from months).
package struct StatsMessage: Sendable, Hashable {
    /// One month's totals.
    package struct Month: Sendable, Hashable {
        /// 1 to 12.
        package var month: Int
        package var journeys: Int
        /// Metres, to 0.1 m.
        package var distance: Double

        package init(month: Int, journeys: Int, distance: Double) {
            self.month = month
            self.journeys = journeys
            self.distance = distance
        }
    }

    package var year: Int
    package var journeys: Int
    /// Metres, to 0.1 m.
    package var distance: Double
    /// January to December.
    package var months: [Month]

    package init(year: Int, journeys: Int, distance: Double, months: [Month]) {
        self.year = year
        self.journeys = journeys
        self.distance = distance
        self.months = months
    }

    /// The wire's totals of `totals`.
    package init(_ totals: MonthlyTotals) {
        self.init(
            year: totals.year,
            journeys: totals.journeys,
            distance: (totals.distance * 10).rounded() / 10,
            months: totals.months.map {
                Month(month: $0.month, journeys: $0.journeys, distance: ($0.distance * 10).rounded() / 10)
            }
        )
    }

    package var json: JSONValue {
        [
            "year": .integer(Int64(year)),
            "journeys": .integer(Int64(journeys)),
            "distance_m": .double(distance),
            "months": .array(
                months.map { month in
                    [
                        "month": .integer(Int64(month.month)),
                        "journeys": .integer(Int64(month.journeys)),
                        "distance_m": .double(month.distance),
                    ]
                }
            ),
        ]
    }

    /// `stats --json` when there is no journey to chart.
    package static let emptyJSON: JSONValue = ["year": nil, "journeys": 0, "distance_m": 0.0, "months": []]

    /// Reads back what `json` (or `emptyJSON`, as `nil`) wrote; a missing or mistyped member throws.
    package static func read(_ fields: JSONFields) throws(MessageFieldError) -> StatsMessage? {
        guard let year = try fields.optionalInteger("year") else { return nil }
        return StatsMessage(
            year: Int(clamping: year),
            journeys: Int(clamping: try fields.integer("journeys")),
            distance: try fields.number("distance_m"),
            months: try fields.array("months") { month throws(MessageFieldError) in
                let number = try month.integer("month")
                guard (1...12).contains(number) else {
                    throw MessageFieldError(path: "\(month.path).month", expected: "a month from 1 to 12")
                }
                return Month(
                    month: Int(number),
                    journeys: Int(clamping: try month.integer("journeys")),
                    distance: try month.number("distance_m")
                )
            }
        )
    }
}
