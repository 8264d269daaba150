/// When a POI alert fires and when it may fire again (docs/zones.md).
package struct NearbyRules: Sendable, Hashable {
    /// An alert fires when the vehicle comes within this many metres of a POI.
    package var radius = 150.0
    /// Radius by category, overriding `radius` (`fuel` → 500 m).
    package var categoryRadius: [String: Double] = [:]
    /// `categoryRadius` as the configuration spells it (`fuel=500 museum=300`); setting it sets
    /// `categoryRadius`.
    package var categoryRadiusText = "" {
        didSet { categoryRadius = Self.parseCategoryRadius(categoryRadiusText) }
    }
    /// The vehicle must get this many metres beyond the radius before the POI can alert again:
    /// drift of a car parked at the radius never re-arms it.
    package var leaveMargin = 100.0
    /// Seconds before the same POI may alert again, even after leaving.
    package var cooldown = 3_600.0

    package init() {}

    /// The alert radius for a POI of `category`.
    package func radius(for category: String?) -> Double {
        category.flatMap { categoryRadius[$0] } ?? radius
    }

    /// The largest radius any POI has, for the index query.
    package var largestRadius: Double { max(radius, categoryRadius.values.max() ?? 0) }
}
