/// Where the vehicle lives: the centre of journeys, configured or learned.
package struct Home: Sendable, Hashable {
    /// How home became known.
    package enum Source: String, Sendable, Hashable {
        /// `[Journeys] Home=` in the configuration.
        case configured
        /// The place where the vehicle spent most nights.
        case learned
    }

    package var coordinate: Coordinate
    package var source: Source
    /// Nights spent at home, and nights recorded anywhere: the evidence for a learned home.
    package var nightsAtHome: Int
    package var nightsRecorded: Int

    /// How sure we are, from 0 to 1: 1 for a configured home; for a learned one, the share of
    /// recorded nights spent there (a vehicle at home five nights of seven scores 0.71).
    package var confidence: Double {
        source == .configured ? 1 : nightsRecorded > 0 ? Double(nightsAtHome) / Double(nightsRecorded) : 0
    }

    /// The configured home, or the place with most nights once it has `minimumNightsForHome` of
    /// them (the first such place on a tie); `nil` while no place qualifies.
    package init?(places: PlaceMap, rules: JourneyRules) {
        if let configured = rules.home {
            let nights = places.places.filter { Geodesy.fastDistance($0.centre, configured) <= rules.placeRadius }
            self.init(
                coordinate: configured,
                source: .configured,
                nightsAtHome: nights.reduce(0) { $0 + $1.nights },
                nightsRecorded: places.nightsRecorded
            )
            return
        }
        var best: Place?
        for place in places.places where place.nights > (best?.nights ?? 0) { best = place }
        guard let best, best.nights >= rules.minimumNightsForHome else { return nil }
        self.init(
            coordinate: best.centre,
            source: .learned,
            nightsAtHome: best.nights,
            nightsRecorded: places.nightsRecorded
        )
    }

    package init(coordinate: Coordinate, source: Source, nightsAtHome: Int, nightsRecorded: Int) {
        self.coordinate = coordinate
        self.source = source
        self.nightsAtHome = nightsAtHome
        self.nightsRecorded = nightsRecorded
    }
}
