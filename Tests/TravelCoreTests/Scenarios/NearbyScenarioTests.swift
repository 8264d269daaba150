import Foundation
import Testing

@testable import TravelCore

/// Nearby alerts on real drives and real parked drift: once per pass, never a storm.
@Suite struct NearbyScenarioTests {
    static let start = ZoneScenarioTests.start
    static let spot = ZoneScenarioTests.spot

    static func alerts(_ fixes: [Fix], pois: [POI], rules: NearbyRules = .init()) -> [NearbyAlert] {
        var engine = TrackingEngine()
        engine.nearby = NearbyWatcher(index: POIIndex(pois), rules: rules)
        var alerts: [NearbyAlert] = []
        for fix in fixes {
            engine.ingest(fix) { if case .nearby(let alert) = $0 { alerts.append(alert) } }
        }
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
