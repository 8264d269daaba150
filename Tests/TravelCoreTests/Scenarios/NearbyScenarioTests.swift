import Foundation
import SeededRandom
import Testing

@testable import TravelCore

/// Nearby alerts on real drives and real parked drift: once per pass, never a storm.
@Suite struct NearbyScenarioTests {
    static let start = ZoneScenarioTests.start
    static let spot = ZoneScenarioTests.spot

    static func alerts(_ fixes: [Fix], pois: [POI], rules: NearbyRules = .init()) -> [NearbyAlert] {
        given(fixes, pois: pois, rules: rules).map(\.alert)
    }

    /// The alerts with the time of the fix they were given at (`nil`: at the end of the input).
    static func given(
        _ fixes: [Fix],
        pois: [POI],
        rules: NearbyRules = .init()
    ) -> [(alert: NearbyAlert, at: UTCTime?)] {
        var engine = TrackingEngine()
        engine.nearby = NearbyWatcher(index: POIIndex(pois), rules: rules)
        var alerts: [(alert: NearbyAlert, at: UTCTime?)] = []
        for fix in fixes {
            engine.ingest(fix) { if case .nearby(let alert) = $0 { alerts.append((alert, fix.time)) } }
        }
        engine.endOfInput { if case .nearby(let alert) = $0 { alerts.append((alert, nil)) } }
        return alerts
    }

    @Test(
        "parked at a POI's alert radius for 2 h: one alert at most, for every drift",
        arguments: ZoneScenarioTests.drifts
    )
    func parkedAtTheRadius(name: String) {
        let fixes = ZoneScenarioTests.parked(name)
        var storms: [String] = []
        var bareRule = 0
        for distance in stride(from: 130.0, through: 170.0, by: 5) {
            let pois = [0.0, 90, 180, 270].enumerated().map { index, azimuth in
                POI(
                    id: Int64(index),
                    name: "POI \(index)",
                    coordinate: Geodesy.direct(from: Self.spot, azimuth: azimuth, distance: distance)
                )
            }
            let alerts = Self.alerts(fixes, pois: pois)
            for poi in pois where alerts.filter({ $0.poiID == poi.id }).count > 1 {
                storms.append("\(poi.name) at \(distance) m")
            }
            var bare = NearbyRules()
            (bare.leaveMargin, bare.cooldown) = (0, 0)
            bareRule += Self.alerts(fixes, pois: pois, rules: bare).count
        }
        print(
            "nearby, \(name), parked 2 h at 4 POIs × 9 distances: \(storms.count) storms; without hysteresis or cooldown: \(bareRule) alerts"
        )
        #expect(storms.isEmpty)
        #expect(bareRule > 40, "the drift never crosses the radius: the test proves nothing")
    }

    @Test("a drive past POIs alerts once per POI, within its category's radius")
    func drivePast() throws {
        var builder = ScenarioBuilder(start: Self.start, at: Self.spot)
        builder.park(seconds: 60, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, drift: .raspberryPiHAT)
        let fixes = builder.scenario("bus").fixes
        let route = fixes.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) }
        // POIs 60 m beside the route at points it passes once.
        var pois: [POI] = []
        for index in stride(from: 300, to: route.count - 300, by: 150) {
            let poi = Geodesy.direct(from: route[index], azimuth: 0, distance: 60)
            let near = route.indices.filter { Geodesy.distance(route[$0], poi) < 300 }
            guard near.last! - near.first! == near.count - 1 else { continue }
            pois.append(POI(id: Int64(pois.count + 1), name: "P\(index)", category: "test", coordinate: poi))
        }
        try #require(pois.count >= 5)
        let alerts = Self.alerts(fixes, pois: pois)
        #expect(alerts.map(\.poiID).sorted() == pois.map(\.id))
        #expect(alerts.allSatisfy { $0.distance <= 150 })
        // The category's own radius: 20 m alerts only the POIs the route comes that close to.
        var rules = NearbyRules()
        rules.categoryRadius = ["test": 20]
        let close = pois.filter { poi in route.contains { LocalFrame(at: $0).distance(to: poi.coordinate) <= 20 } }
        #expect(close.count < pois.count)
        #expect(Self.alerts(fixes, pois: pois, rules: rules).map(\.poiID).sorted() == close.map(\.id))
    }

    @Test("a POI on the route reports the closest approach, not the distance it was noticed at")
    func closestApproachOnTheRoute() throws {
        var builder = ScenarioBuilder(start: Self.start, at: Self.spot)
        builder.park(seconds: 60, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, drift: nil)
        let fixes = builder.scenario("bus").fixes
        let route = fixes.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) }
        // POIs on route points the route passes once, between two of its points.
        var pois: [POI] = []
        for index in stride(from: 300, to: route.count - 300, by: 150) {
            let poi = Geodesy.direct(from: route[index], azimuth: 90, distance: 3)
            let near = route.indices.filter { Geodesy.distance(route[$0], poi) < 300 }
            guard near.last! - near.first! == near.count - 1 else { continue }
            pois.append(POI(id: Int64(pois.count + 1), name: "P\(index)", coordinate: poi))
        }
        try #require(pois.count >= 5)
        let given = Self.given(fixes, pois: pois)
        let alerts = given.map(\.alert)
        #expect(alerts.map(\.poiID).sorted() == pois.map(\.id))
        // Given soon after the closest fix: the driver is told as the POI goes by.
        let delays = given.map { pair in pair.at.map { $0.seconds(since: pair.alert.time) } ?? .infinity }.sorted()
        print("nearby, bus ride past \(pois.count) POIs on the route: alerts given \(delays) s after the closest fix")
        #expect(delays[delays.count / 2] <= 5 && delays.last! <= NearbyWatcher.longestWait, "\(delays)")
        var noticedFar = 0
        for alert in alerts {
            let poi = pois.first { $0.id == alert.poiID }!
            let distances = route.map { LocalFrame(at: $0).distance(to: poi.coordinate) }
            let closest = distances.indices.min { distances[$0] < distances[$1] }!
            // The closest fix of the pass, its time and position with it.
            #expect(alert.distance == distances[closest], "\(poi.name): \(alert.distance) m")
            #expect(alert.time == fixes[closest].time && alert.coordinate == route[closest])
            #expect(alert.distance < 10, "\(poi.name): \(alert.distance) m")
            if distances.first(where: { $0 <= 150 })! > 100 { noticedFar += 1 }
        }
        // Noticed at the radius, as the alert used to report.
        #expect(noticedFar >= alerts.count / 2, "the POIs are noticed close by: the test proves nothing")
    }

    @Test("an alert waits for the vehicle to stop coming closer, then reports that fix")
    func straightPass() {
        let poi = POI(id: 7, name: "Bridge", coordinate: Self.spot)
        var watcher = NearbyWatcher(index: POIIndex([poi]))
        var alerts: [(NearbyAlert, Int)] = []
        // Along a road 4 m beside the POI, 14 m/s, from 200 m before it.
        for second in 0..<30 {
            let along = -200.0 + 14 * Double(second)
            let place = Geodesy.direct(
                from: Geodesy.direct(from: Self.spot, azimuth: 90, distance: 4),
                azimuth: along < 0 ? 180 : 0,
                distance: abs(along)
            )
            watcher.observe(place, at: Self.start.adding(seconds: Double(second))) { alerts.append(($0, second)) }
        }
        watcher.finish { alerts.append(($0, -1)) }
        #expect(alerts.count == 1)
        let (alert, givenAt) = (alerts[0].0, alerts[0].1)
        // Closest at 14 s (-4 m along, 4 m beside), given at the first fix over 20 m farther (17 s).
        #expect(alert.time == Self.start.adding(seconds: 14))
        #expect(givenAt == 17)
        #expect(abs(alert.distance - 32.0.squareRoot()) < 0.1, "\(alert.distance)")
        #expect(alert.message == "Near Bridge, 6 m")
    }

    @Test("the cooldown holds a POI passed twice in an hour; the leave distance re-arms it after")
    func cooldown() {
        let poi = POI(id: 1, name: "Fuel", category: "fuel", coordinate: Self.spot)
        var watcher = NearbyWatcher(index: POIIndex([poi]))
        var alerts: [NearbyAlert] = []
        let away = Geodesy.direct(from: Self.spot, azimuth: 0, distance: 1_000)
        for (second, place) in [
            (0, away), (10, Self.spot), (20, away), (600, Self.spot), (700, away), (4_000, Self.spot),
        ] {
            watcher.observe(place, at: Self.start.adding(seconds: Double(second))) { alerts.append($0) }
        }
        watcher.finish { alerts.append($0) }
        #expect(alerts.map(\.time) == [Self.start.adding(seconds: 10), Self.start.adding(seconds: 4_000)])
        #expect(alerts.first?.message == "Near Fuel (fuel), 0 m")
    }

    @Test("the cell index answers exactly as a linear scan")
    func indexMatchesScan() {
        var generator = SplitMix64(seed: 42)
        func random(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
        let pois = (0..<20_000).map { id in
            POI(
                id: Int64(id),
                name: "\(id)",
                coordinate: Coordinate(latitude: random(52.5...52.8), longitude: random(-8.8 ... -8.4))
            )
        }
        let index = POIIndex(pois)
        for _ in 0..<200 {
            let point = Coordinate(latitude: random(52.5...52.8), longitude: random(-8.8 ... -8.4))
            let radius = random(10...2_000)
            let fast = index.nearby(point, within: radius).map(\.index).sorted()
            let slow = index.linearNearby(point, within: radius).map(\.index).sorted()
            #expect(fast == slow)
        }
    }
}
