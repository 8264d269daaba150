/// Nearby alerts: fixes in, `NearbyAlert`s out. A POI alerts when the vehicle comes within its
/// radius, then stays quiet until the vehicle has gone `leaveMargin` beyond it (hysteresis) and
/// `cooldown` has passed since its last alert; so a car parked at a POI alerts once.
public struct NearbyWatcher: Sendable {
    public let rules: NearbyRules
    public let index: POIIndex
    /// POIs alerted (or reached during their cooldown) that the vehicle has not left yet.
    /// Each with the distance it must get beyond to be left.
    private var near: [Int64: (coordinate: Coordinate, leaveDistance: Double)] = [:]
    /// The last alert per POI, for the cooldown.
    private var lastAlert: [Int64: UTCTime]

    /// - Parameter recentAlerts: the last alert time per POI, from the store, so a restart keeps
    ///   the cooldowns.
    public init(index: POIIndex = POIIndex([]), rules: NearbyRules = .init(), recentAlerts: [Int64: UTCTime] = [:]) {
        self.index = index
        self.rules = rules
        lastAlert = recentAlerts
    }

    /// Tests one accepted fix against the POIs near it.
    public mutating func observe(
        _ coordinate: Coordinate,
        at time: UTCTime,
        tripStart: UTCTime? = nil,
        emit: (NearbyAlert) -> Void
    ) {
        guard index.count > 0 || !near.isEmpty else { return }
        let frame = LocalFrame(at: coordinate)
        for (id, place) in near where frame.distance(to: place.coordinate) > place.leaveDistance {
            near[id] = nil
        }
        for (position, distance) in index.nearby(coordinate, within: rules.largestRadius) {
            let poi = index.pois[position]
            let radius = rules.radius(for: poi.category)
            guard distance <= radius, near[poi.id] == nil else { continue }
            near[poi.id] = (poi.coordinate, radius + rules.leaveMargin)
            if let last = lastAlert[poi.id], time.seconds(since: last) < rules.cooldown { continue }
            lastAlert[poi.id] = time
            emit(
                NearbyAlert(
                    time: time,
                    poiID: poi.id,
                    poiName: poi.name,
                    category: poi.category,
                    coordinate: coordinate,
                    distance: distance,
                    tripStart: tripStart
                )
            )
        }
        if lastAlert.count > 4_096 { lastAlert = lastAlert.filter { time.seconds(since: $0.value) < rules.cooldown } }
    }
}
