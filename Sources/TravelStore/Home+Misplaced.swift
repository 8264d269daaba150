package import TravelCore

extension Home.NightPlace {
    /// What `travelctl home`, `journeys` and the daemon's start say of a configured home the
    /// vehicle never parks at (`Home.nightsElsewhere`): how far off it is, why that matters, and
    /// the line to write.
    package func warning(home: Coordinate, placeRadius: Double = JourneyRules().placeRadius) -> String {
        "Home= (\(home.coordinateLabel)) is \(HumanText.distance(distance)) from where the vehicle spends its nights "
            + "(\(coordinateLabel), \(nights) nights), beyond the \(HumanText.distance(placeRadius)) place radius: "
            + "no trip ends at home, so no journey closes there. If that is home, write "
            + "Home=\(coordinateLabel) in [Journeys]."
    }

    private var coordinateLabel: String { coordinate.coordinateLabel }
}
