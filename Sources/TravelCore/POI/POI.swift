/// A named point of interest with a category (`fuel`, `museum`, `city`…).
public struct POI: Sendable, Hashable {
    /// The store's id; alerts and their cooldowns refer to it.
    public var id: Int64
    public var name: String
    public var category: String?
    public var coordinate: Coordinate

    public init(id: Int64, name: String, category: String? = nil, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.category = category
        self.coordinate = coordinate
    }
}

/// The vehicle passed within a POI's alert radius.
public struct NearbyAlert: Sendable, Hashable {
    public var time: UTCTime
    public var poiID: Int64
    public var poiName: String
    public var category: String?
    /// Where the vehicle was.
    public var coordinate: Coordinate
    /// Metres from the vehicle to the POI.
    public var distance: Double
    /// The trip the vehicle was on, by its start time, if any.
    public var tripStart: UTCTime?

    public init(
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
    public var message: String { Self.message(poiName: poiName, category: category, distance: distance) }

    /// `Near Fuel Stop (fuel), 120 m`.
    public static func message(poiName: String, category: String?, distance: Double) -> String {
        "Near \(poiName)\(category.map { " (\($0))" } ?? ""), \(Int(distance.rounded())) m"
    }
}

/// A POI read from a file, before the store gives it an id.
public struct POIDraft: Sendable, Hashable {
    public var name: String
    public var category: String?
    public var coordinate: Coordinate

    public init(name: String, category: String?, coordinate: Coordinate) {
        self.name = name
        self.category = category
        self.coordinate = coordinate
    }
}
