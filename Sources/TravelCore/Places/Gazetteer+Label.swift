extension Gazetteer {
    /// How far from the nearest place a coordinate is still named after it ("12 km SW of Adare"):
    /// beyond, at sea or in a desert, the label is its coordinates.
    package static let labelLimit = 100_000.0

    /// `"Castletroy, Munster"` inside a town's extent (of the towns whose extents hold it, the one
    /// nearest for its size: `places(around:within:)`), else `"4 km NE of Annacotty"` after the
    /// nearest place; `nil` when no place lies within `labelLimit`. The town's first-level region
    /// follows its name, or its country where it has none (or shares its name: `Beijing, China`).
    package func label(for coordinate: Coordinate) -> String? {
        let (town, nearest) = places(around: coordinate, within: Self.labelLimit)
        if let place = town?.place {
            let region = place.region.isEmpty || place.region == place.name ? place.country : place.region
            return region.isEmpty ? place.name : "\(place.name), \(region)"
        }
        guard let match = nearest else { return nil }
        let kilometres = Int((match.distance / 1000).rounded())
        return "\(kilometres) km \(Self.compassPoint(match.bearing)) of \(match.place.name)"
    }

    /// How far a place's name reaches, metres. GeoNames gives a point per place, not its outline,
    /// so the extent grows with the people: 20 m × √population (the area in proportion to them) up
    /// to 10 km at 250 000, from 2 km for a village of up to 10 000 (6.1 km for Limerick, whose
    /// suburbs reach 5 km from its point); beyond 250 000 a city grows more densely, so with the
    /// fourth root: 14 km for a million (Dublin), 24 km for London's 9 million, 30 km for Beijing's
    /// 19 million (its sixth ring road runs 15–30 km out), at most `maximumTownRadius`.
    package static func townRadius(population: Int) -> Double {
        let people = Double(max(population, 0))
        guard people > 250_000 else { return max(people.squareRoot() * 20, 2000) }
        return min(10_000 * (people / 250_000).squareRoot().squareRoot(), maximumTownRadius)
    }

    /// The largest town radius: no city's name reaches farther from its point.
    package static let maximumTownRadius = 40_000.0

    /// The nearest of the eight compass points to `bearing` (degrees clockwise from north).
    static func compassPoint(_ bearing: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let turns = (bearing / 45).rounded()
        guard turns.isFinite else { return "N" }
        return points[((Int(turns) % 8) + 8) % 8]
    }
}
