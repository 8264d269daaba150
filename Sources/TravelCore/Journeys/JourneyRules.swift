/// What grouping trips into journeys needs beyond the trips: where home is, how big its area is,
/// and how instants map to local calendar days.
package struct JourneyRules: Sendable, Hashable {
    /// The configured home; `nil` to learn it from where the vehicle spends its nights.
    package var home: Coordinate?
    /// A journey that never goes farther than this from home is `local` (25 km, as in the seed
    /// apps); coming back within it after going farther ends the journey.
    package var homeRadius: Double
    /// Stops this close to a place's first stop belong to that place. 200 m gathers the parking
    /// spots along a street or in a car park, and keeps the next street's car park apart.
    package var placeRadius: Double
    /// Local calendar days are those of this zone.
    package var timeZone: LocalTimeZone
    /// Where the vehicle stands at this local time of day (seconds) is where it spent the night:
    /// 03:00, when late arrivals have parked and early departures have not left.
    package var nightSecondOfDay: Int
    /// A stop longer than this (seconds) ends the journey, wherever it is: 30 days. What the
    /// vehicle did in between is unknown (a receiver unplugged for a season), while a fortnight's
    /// holiday with the car at a cottage or an airport car park is still one journey.
    package var maximumStop: Double
    /// A place needs at least this many nights to be learned as home: one night is a guess.
    package var minimumNightsForHome: Int

    package init(
        home: Coordinate? = nil,
        homeRadius: Double = 25_000,
        placeRadius: Double = 200,
        timeZone: LocalTimeZone = .utc,
        nightSecondOfDay: Int = 3 * 3600,
        minimumNightsForHome: Int = 2,
        maximumStop: Double = 30 * 86_400
    ) {
        self.maximumStop = maximumStop
        self.home = home
        self.homeRadius = homeRadius
        self.placeRadius = placeRadius
        self.timeZone = timeZone
        self.nightSecondOfDay = nightSecondOfDay
        self.minimumNightsForHome = minimumNightsForHome
    }
}
