import SeededRandom
import TravelCore
import TravelIO

// Per-fix cost of the zone and POI checks with 10 000 zones and 1 000 000 POIs (issue 6: goal
// ≤ 20 µs), next to a linear scan of the same data. Run in release mode: scripts/bench-zones.sh.

@main
enum ZoneBenchmark {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        let zoneCount = arguments.first.flatMap { Int($0) } ?? 10_000
        let poiCount = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
        let fixCount = 200_000
        var random = SplitMix64(seed: 6)
        // A 2° × 3° region around Limerick (≈ 220 × 200 km): 45 POIs and 0.2 zones per km².
        let south = 51.8
        let west = -10.0
        func randomPlace() -> Coordinate {
            Coordinate(
                latitude: south + Double.random(in: 0..<2, using: &random),
                longitude: west + Double.random(in: 0..<3, using: &random)
            )
        }

        var zones: [Zone] = []
        for id in 0..<zoneCount {
            let center = randomPlace()
            if id.isMultiple(of: 2) {
                zones.append(
                    Zone(
                        id: Int64(id),
                        name: "z\(id)",
                        shape: .circle(center: center, radius: Double.random(in: 50...500, using: &random))
                    )
                )
            } else {
                // A star-shaped polygon of 8–32 vertices, 100–800 m across.
                let frame = PlanarFrame(at: center)
                let vertices = Int.random(in: 8...32, using: &random)
                let ring = (0..<vertices).map { index -> Coordinate in
                    let angle = Double(index) / Double(vertices) * 2 * Double.pi
                    let radius = Double.random(in: 50...400, using: &random)
                    return frame.unproject(PlanarPoint(x: radius * angle.cosine, y: radius * angle.sine))
                }
                zones.append(Zone(id: Int64(id), name: "z\(id)", shape: .polygons([[ring]])))
            }
        }
        let pois = (0..<poiCount).map {
            POI(
                id: Int64($0),
                name: "p\($0)",
                category: $0.isMultiple(of: 10) ? "fuel" : nil,
                coordinate: randomPlace()
            )
        }

        // A drive: 15 m/s at 1 Hz, turning now and then, bouncing inside the region.
        var fixes: [(Coordinate, UTCTime)] = []
        var position = Coordinate(latitude: south + 1, longitude: west + 1.5)
        var heading = 0.0
        var time = UTCTime(year: 2026, month: 11, day: 22)!
        for _ in 0..<fixCount {
            heading += Double.random(in: -0.2...0.2, using: &random)
            let frame = PlanarFrame(at: position)
            var next = frame.unproject(PlanarPoint(x: 15 * heading.sine, y: 15 * heading.cosine))
            if next.latitude < south || next.latitude > south + 2 || next.longitude < west || next.longitude > west + 3
            {
                heading += Double.pi
                next = position
            }
            position = next
            time = time.adding(seconds: 1)
            fixes.append((position, time))
        }

        let clock = ContinuousClock()
        func microseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        }

        let setup = clock.measure {
            _ = ZoneWatcher(zones: zones)
            _ = POIIndex(pois)
        }
        print(
            "zones: \(zoneCount), POIs: \(poiCount), drive: \(fixCount) fixes at 1 Hz; index build \(Int(microseconds(setup) / 1000)) ms"
        )

        var rules = NearbyRules()
        rules.categoryRadius = ["fuel": 500]
        var watcher = ZoneWatcher(zones: zones, known: Dictionary(uniqueKeysWithValues: zones.map { ($0.id, false) }))
        var nearby = NearbyWatcher(index: POIIndex(pois), rules: rules)
        var zoneEvents = 0
        var alerts = 0
        let indexed = clock.measure {
            for (place, instant) in fixes {
                watcher.observe(place, at: instant, error: 5) { _ in zoneEvents += 1 }
                nearby.observe(place, at: instant) { _ in alerts += 1 }
            }
        }
        let perFix = microseconds(indexed) / Double(fixCount)

        // The same questions by looking at everything, on fewer fixes (it is slow).
        let geometries = zones.map { ZoneGeometry($0.shape) }
        let index = POIIndex(pois)
        let scanned = 200
        var scanHits = 0
        let linear = clock.measure {
            for (place, _) in fixes.prefix(scanned) {
                for geometry in geometries where geometry.signedDistance(to: place) < 15 { scanHits += 1 }
                scanHits += index.linearNearby(place, within: 500).count
            }
        }
        let perScan = microseconds(linear) / Double(scanned)
        print(
            "indexed: \(String(format1: perFix)) µs per fix (zones + POIs; \(zoneEvents) zone events, \(alerts) alerts)"
        )
        print("linear scan: \(String(format1: perScan)) µs per fix (\(Int((perScan / perFix).rounded()))× slower)")
        print(perFix <= 20 ? "goal ≤ 20 µs per fix: met" : "goal ≤ 20 µs per fix: NOT met")
        benchmarkGazetteer(drive: fixes.map(\.0), random: &random)

    }
}

extension Double {
    var sine: Double { _sin(self) }
    var cosine: Double { _cos(self) }
}

/// sin and cos without Foundation, by the Taylor series after reduction to [−π, π].
func _sin(_ x: Double) -> Double {
    var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if r > Double.pi { r -= 2 * Double.pi } else if r < -Double.pi { r += 2 * Double.pi }
    var term = r
    var sum = r
    for n in 1...10 {
        term *= -r * r / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

func _cos(_ x: Double) -> Double { _sin(x + Double.pi / 2) }

extension String {
    /// `value` with one decimal.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}

/// Label lookups in the shipped gazetteer (issue 15: median ≤ 20 µs per coordinate at 150 000
/// places): along the drive, and near places all over the world.
func benchmarkGazetteer(drive: [Coordinate], random: inout SplitMix64) {
    guard let path = GazetteerFile.defaultPath() else { return print("gazetteer: no file found, skipped") }
    let gazetteer: Gazetteer
    do { gazetteer = try GazetteerFile.map(path: path) } catch { return print("gazetteer: \(error)") }
    let world = (0..<20_000).map { _ in
        let place = gazetteer.place(at: Int.random(in: 0..<gazetteer.count, using: &random)).coordinate
        return Coordinate(
            latitude: place.latitude + Double.random(in: -0.1...0.1, using: &random),
            longitude: place.longitude + Double.random(in: -0.1...0.1, using: &random)
        )
    }
    let clock = ContinuousClock()
    func median(_ coordinates: some Collection<Coordinate>) -> Double {
        var samples: [Duration] = []
        samples.reserveCapacity(coordinates.count)
        var labelled = 0
        for coordinate in coordinates {
            let start = clock.now
            if gazetteer.label(for: coordinate) != nil { labelled += 1 }
            samples.append(clock.now - start)
        }
        samples.sort()
        let middle = samples[samples.count / 2].components
        precondition(labelled > 0)
        return Double(middle.seconds) * 1e6 + Double(middle.attoseconds) / 1e12
    }
    let along = median(drive.prefix(20_000))
    let anywhere = median(world)
    print(
        "gazetteer: \(gazetteer.count) places; label median \(String(format1: along)) µs along the drive, "
            + "\(String(format1: anywhere)) µs near places worldwide"
    )
    print(max(along, anywhere) <= 20 ? "goal ≤ 20 µs per label: met" : "goal ≤ 20 µs per label: NOT met")
}
