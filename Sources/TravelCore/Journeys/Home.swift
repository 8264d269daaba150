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

    /// For a configured home: where the vehicle spends its nights instead, when that is near
    /// `Home=` but beyond the place radius, so no trip ever ends "at home" and no journey closes
    /// there (`nil` when home is learned, or the nights are at it or far from it).
    package var nightsElsewhere: NightPlace?

    /// The place with most nights, and how far it lies from a configured home.
    package struct NightPlace: Sendable, Hashable {
        package var coordinate: Coordinate
        package var nights: Int
        /// Metres from `Home=`.
        package var distance: Double

        package init(coordinate: Coordinate, nights: Int, distance: Double) {
            self.coordinate = coordinate
            self.nights = nights
            self.distance = distance
        }
    }

    /// A configured home farther than the place radius from the place with most nights, but
    /// within this of it, is taken for that place written a little off (a geocoder's house
    /// number, a map click on the wrong side of the block): 2 km, a walk from the door.
    package static let misplacedReach = 2_000.0

    /// How sure we are, from 0 to 1: 1 for a configured home; for a learned one, the share of
    /// recorded nights spent there (a vehicle at home five nights of seven scores 0.71).
    package var confidence: Double {
        source == .configured ? 1 : nightsRecorded > 0 ? Double(nightsAtHome) / Double(nightsRecorded) : 0
    }

    /// The configured home (with `nightsElsewhere` when it looks misplaced), or the place with most nights once it has `minimumNightsForHome` of
    /// them (the first such place on a tie); `nil` while no place qualifies.
    package init?(places: PlaceMap, rules: JourneyRules) {
        var best: Place?
        for place in places.places where place.nights > (best?.nights ?? 0) { best = place }
        if let configured = rules.home {
            let nights = places.places.filter { Geodesy.fastDistance($0.centre, configured) <= rules.placeRadius }
            let nightsAtHome = nights.reduce(0) { $0 + $1.nights }
            self.init(
                coordinate: configured,
                source: .configured,
                nightsAtHome: nightsAtHome,
                nightsRecorded: places.nightsRecorded
            )
            if let best, best.nights >= rules.minimumNightsForHome, best.nights > nightsAtHome {
                let distance = Geodesy.fastDistance(best.centre, configured)
                if distance > rules.placeRadius, distance <= Self.misplacedReach {
                    nightsElsewhere = NightPlace(coordinate: best.centre, nights: best.nights, distance: distance)
                }
            }
            return
        }
        guard let best, best.nights >= rules.minimumNightsForHome else { return nil }
        self.init(
            coordinate: best.centre,
            source: .learned,
            nightsAtHome: best.nights,
            nightsRecorded: places.nightsRecorded
        )
    }

    package init(
        coordinate: Coordinate,
        source: Source,
        nightsAtHome: Int,
        nightsRecorded: Int,
        nightsElsewhere: NightPlace? = nil
    ) {
        self.nightsElsewhere = nightsElsewhere
        self.coordinate = coordinate
        self.source = source
        self.nightsAtHome = nightsAtHome
        self.nightsRecorded = nightsRecorded
    }
}
