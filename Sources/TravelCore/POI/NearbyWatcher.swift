/// Nearby alerts: fixes in, `NearbyAlert`s out. A POI is noticed when the vehicle comes within
/// its radius; its alert reports the closest approach, so it is given once the vehicle is
/// `passedMargin` farther than its closest fix so far (it has passed the POI; GPS noise of a few
/// metres does not count), or has left the radius, or has come no closer for `longestWait` (it
/// stopped there), or at the end of the input (`finish`). At driving speed that is a fix or
/// two after the closest point; the alert's time, position and distance are the closest fix's. The POI then stays quiet until the vehicle has gone
/// `leaveMargin` beyond its radius (hysteresis) and `cooldown` has passed since its last alert;
/// so a car parked at a POI alerts once.
package struct NearbyWatcher: Sendable {
    /// The longest an alert waits for the vehicle to come closer than its closest fix so far,
    /// seconds: a car parked at a POI is told this long after it stopped.
    package static let longestWait = 60.0
    /// How much farther than its closest fix the vehicle must be to have passed a POI, metres.
    package static let passedMargin = 20.0

    package let rules: NearbyRules
    package let index: POIIndex
    /// POIs alerted (or reached during their cooldown) that the vehicle has not left yet.
    /// Each with the distance it must get beyond to be left.
    private var near: [Int64: (coordinate: Coordinate, leaveDistance: Double)] = [:]
    /// POIs within their radius whose alert waits for the closest approach: the closest fix so
    /// far, as the alert it would give, and the POI's radius.
    private var pending: [Int64: (closest: NearbyAlert, poi: Coordinate, radius: Double)] = [:]
    /// The last alert per POI, for the cooldown.
    private var lastAlert: [Int64: UTCTime]

    /// - Parameter recentAlerts: the last alert time per POI, from the store, so a restart keeps
    ///   the cooldowns.
    package init(index: POIIndex = POIIndex([]), rules: NearbyRules = .init(), recentAlerts: [Int64: UTCTime] = [:]) {
        self.index = index
        self.rules = rules
        lastAlert = recentAlerts
    }

    /// Tests one accepted fix against the POIs near it; alerts whose closest approach is now
    /// known are handed to `emit`, by time and POI id.
    package mutating func observe(
        _ coordinate: Coordinate,
        at time: UTCTime,
        tripStart: UTCTime? = nil,
        emit: (NearbyAlert) -> Void
    ) {
        guard index.count > 0 || !near.isEmpty else { return }
        let frame = LocalFrame(at: coordinate)
        var due: [NearbyAlert] = []
        for id in pending.keys.sorted() {
            guard var waiting = pending[id] else { continue }
            let distance = frame.distance(to: waiting.poi)
            if distance < waiting.closest.distance {
                waiting.closest.time = time
                waiting.closest.coordinate = coordinate
                waiting.closest.distance = distance
                waiting.closest.tripStart = tripStart
                pending[id] = waiting
            }
            if distance > waiting.closest.distance + Self.passedMargin || distance > waiting.radius
                || time.seconds(since: waiting.closest.time) >= Self.longestWait
            {
                due.append(waiting.closest)
                pending[id] = nil
            }
        }
        for (id, place) in near where frame.distance(to: place.coordinate) > place.leaveDistance {
            near[id] = nil
        }
        for (position, distance) in index.nearby(coordinate, within: rules.largestRadius) {
            let poi = index.pois[position]
            let radius = rules.radius(for: poi.category)
            guard distance <= radius, near[poi.id] == nil else { continue }
            near[poi.id] = (poi.coordinate, radius + rules.leaveMargin)
            if let last = lastAlert[poi.id], time.seconds(since: last) < rules.cooldown { continue }
            let alert = NearbyAlert(
                time: time,
                poiID: poi.id,
                poiName: poi.name,
                category: poi.category,
                coordinate: coordinate,
                distance: distance,
                tripStart: tripStart
            )
            pending[poi.id] = (alert, poi.coordinate, radius)
        }
        deliver(due, emit: emit)
        if lastAlert.count > 4_096 { lastAlert = lastAlert.filter { time.seconds(since: $0.value) < rules.cooldown } }
    }

    /// The input ended (an import, a replay): the alerts still waiting for a closer fix are
    /// given with the closest one seen.
    package mutating func finish(emit: (NearbyAlert) -> Void) {
        let due = pending.values.map(\.closest)
        pending = [:]
        deliver(due, emit: emit)
    }

    private mutating func deliver(_ alerts: [NearbyAlert], emit: (NearbyAlert) -> Void) {
        for alert in alerts.sorted(by: { ($0.time, $0.poiID) < ($1.time, $1.poiID) }) {
            lastAlert[alert.poiID] = alert.time
            emit(alert)
        }
    }
}
