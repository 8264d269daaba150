extension Gazetteer {
    /// How far from the nearest place a coordinate is still named after it ("12 km SW of Adare"):
    /// beyond, at sea or in a desert, the label is its coordinates.
    package static let labelLimit = 100_000.0

    /// `"Castletroy, Munster"` within a town's radius of its nearest place, else
    /// `"4 km NE of Annacotty"`; `nil` when no place lies within `labelLimit`. The place's
    /// first-level region follows its name, or its country where it has none (or shares its name).
    package func label(for coordinate: Coordinate) -> String? {
        guard let match = nearest(to: coordinate, within: Self.labelLimit) else { return nil }
        let place = match.place
        if match.distance <= Self.townRadius(population: place.population) {
            let region = place.region.isEmpty || place.region == place.name ? place.country : place.region
            return region.isEmpty ? place.name : "\(place.name), \(region)"
        }
        let kilometres = Int((match.distance / 1000).rounded())
        return "\(kilometres) km \(Self.compassPoint(match.bearing)) of \(place.name)"
    }

    /// How far a place's name reaches, metres: 20 m × √population, between 2 and 10 km — 2 km for a
    /// village of up to 10 000, 6.1 km for a city of 94 000 (Limerick, whose suburbs reach 5 km
    /// from its GeoNames point), 10 km from 250 000 up.
    package static func townRadius(population: Int) -> Double {
        min(max(Double(max(population, 0)).squareRoot() * 20, 2000), 10_000)
    }

    /// The nearest of the eight compass points to `bearing` (degrees clockwise from north).
    static func compassPoint(_ bearing: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let turns = (bearing / 45).rounded()
        guard turns.isFinite else { return "N" }
        return points[((Int(turns) % 8) + 8) % 8]
    }
}
