/// A named point of interest with a category (`fuel`, `museum`, `city`…).
package struct POI: Sendable, Hashable {
    /// The store's id; alerts and their cooldowns refer to it.
    package var id: Int64
    package var name: String
    package var category: String?
    package var coordinate: Coordinate

    package init(id: Int64, name: String, category: String? = nil, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.category = category
        self.coordinate = coordinate
    }
}

/// The vehicle passed within a POI's alert radius.
package struct NearbyAlert: Sendable, Hashable {
    package var time: UTCTime
    package var poiID: Int64
    package var poiName: String
    package var category: String?
    /// Where the vehicle was.
    package var coordinate: Coordinate
    /// Metres from the vehicle to the POI.
    package var distance: Double
    /// The trip the vehicle was on, by its start time, if any.
    package var tripStart: UTCTime?

    package init(
        time: UTCTime,
        poiID: Int64,
        poiName: String,
        category: String?,
        coordinate: Coordinate,
        distance: Double,
        tripStart: UTCTime? = nil
    ) {
        self.time = time
        self.poiID = poiID
        self.poiName = poiName
        self.category = category
        self.coordinate = coordinate
        self.distance = distance
        self.tripStart = tripStart
    }

    /// `Near Fuel Stop (fuel), 120 m`: the alert's stored and logged text.
    package var message: String { Self.message(poiName: poiName, category: category, distance: distance) }

    /// `Near Fuel Stop (fuel), 120 m`.
    package static func message(poiName: String, category: String?, distance: Double) -> String {
        "Near \(poiName)\(category.map { " (\($0))" } ?? ""), \(Int(distance.rounded())) m"
    }
}

/// A POI read from a file, before the store gives it an id.
package struct POIDraft: Sendable, Hashable {
    package var name: String
    package var category: String?
    package var coordinate: Coordinate

    package init(name: String, category: String?, coordinate: Coordinate) {
        self.name = name
        self.category = category
        self.coordinate = coordinate
    }
}
