/// A place the user named (`travelctl place name LAT,LON NAME`), or home named "Home" when it is
/// learned or configured: a circle that names every place inside it, after zones and before POIs.
package struct NamedPlace: Sendable, Hashable {
    /// The store's id (`place remove ID`).
    package var id: Int64
    package var name: String
    package var coordinate: Coordinate
    /// How far the name reaches, metres.
    package var radius: Double
    /// Home, named by the program rather than the user: any place the user named wins over it.
    package var isLearned: Bool

    /// The name home gets when nobody named it.
    package static let homeName = "Home"
    /// How far a name reaches when the user gives no radius, metres.
    package static let defaultRadius = 150.0
    /// The radii a name may have, metres: a parking space to a town.
    package static let radiusRange = 1.0...100_000.0

    package init(id: Int64, name: String, coordinate: Coordinate, radius: Double, isLearned: Bool = false) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.radius = radius
        self.isLearned = isLearned
    }
}

extension [NamedPlace] {
    /// The name of the place `coordinate` lies in: a place the user named before a learned one,
    /// then the nearest centre (the earlier id on a tie); `nil` when none reaches it.
    func name(at coordinate: Coordinate) -> String? {
        var best: (learned: Bool, distance: Double, id: Int64, name: String)?
        for place in self {
            let distance = Geodesy.fastDistance(place.coordinate, coordinate)
            guard distance <= place.radius else { continue }
            let candidate = (place.isLearned, distance, place.id, place.name)
            if let current = best,
                (current.learned ? 1 : 0, current.distance, current.id) <= (candidate.0 ? 1 : 0, distance, place.id)
            {
                continue
            }
            best = candidate
        }
        return best?.name
    }
}
