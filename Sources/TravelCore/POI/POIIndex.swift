/// POIs sorted by grid cell (0.01°, about 1.1 km north–south), for nearby queries that read a
/// handful of cells instead of every POI. Coordinates are kept as 1e-7° integers (1 cm), so a
/// million POIs take about 24 MB.
package struct POIIndex: Sendable {
    static let cellDegrees = 0.01
    /// The POIs, in cell order.
    package let pois: [POI]
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    /// Each occupied cell's key, ascending, and where its POIs start in `pois`.
    private let cellKeys: [Int64]
    private let cellStarts: [Int32]

    package init(_ pois: [POI]) {
        let keyed = pois.map { (Self.key(for: $0.coordinate), $0) }.sorted {
            $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.id < $1.1.id
        }
        self.pois = keyed.map(\.1)
        latitudes = self.pois.map { Int32(($0.coordinate.latitude * 1e7).rounded()) }
        longitudes = self.pois.map { Int32(($0.coordinate.longitude * 1e7).rounded()) }
        var keys: [Int64] = []
        var starts: [Int32] = []
        for (index, (key, _)) in keyed.enumerated() where keys.last != key {
            keys.append(key)
            starts.append(Int32(index))
        }
        starts.append(Int32(keyed.count))
        cellKeys = keys
        cellStarts = starts
    }

    package var count: Int { pois.count }

    /// Indexes into `pois` of those within `radius` metres of `point` (radius up to a few km),
    /// with their distances.
    package func nearby(_ point: Coordinate, within radius: Double) -> [(index: Int, distance: Double)] {
        let frame = LocalFrame(at: point)
        let planar = PlanarFrame(at: point)
        let dLat = radius / planar.metresPerDegreeLatitude
        let dLon = radius / max(planar.metresPerDegreeLongitude, 1)
        let (south, north) = (Self.cell(point.latitude - dLat), Self.cell(point.latitude + dLat))
        let (west, east) = (Self.cell(point.longitude - dLon), Self.cell(point.longitude + dLon))
        var found: [(index: Int, distance: Double)] = []
        guard (north - south + 1) * (east - west + 1) <= 400 else { return linearNearby(point, within: radius) }
        for latitude in south...north {
            for longitude in west...east {
                guard let cell = position(of: Self.key(latitude, longitude)) else { continue }
                for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let distance = frame.distance(to: coordinate(at: index))
                    if distance <= radius { found.append((index, distance)) }
                }
            }
        }
        return found
    }

    /// The same answer as `nearby` by looking at every POI: the benchmark's baseline.
    package func linearNearby(_ point: Coordinate, within radius: Double) -> [(index: Int, distance: Double)] {
        let frame = LocalFrame(at: point)
        var found: [(index: Int, distance: Double)] = []
        for index in pois.indices {
            let distance = frame.distance(to: coordinate(at: index))
            if distance <= radius { found.append((index, distance)) }
        }
        return found
    }

    @inline(__always)
    private func coordinate(at index: Int) -> Coordinate {
        Coordinate(latitude: Double(latitudes[index]) * 1e-7, longitude: Double(longitudes[index]) * 1e-7)
    }

    private func position(of key: Int64) -> Int? {
        var (low, high) = (0, cellKeys.count)
        while low < high {
            let middle = (low + high) / 2
            if cellKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < cellKeys.count && cellKeys[low] == key ? low : nil
    }

    private static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }

    private static func key(for c: Coordinate) -> Int64 { key(cell(c.latitude), cell(c.longitude)) }

    private static func key(_ latitude: Int, _ longitude: Int) -> Int64 {
        Int64(latitude) << 32 | Int64(UInt32(truncatingIfNeeded: longitude))
    }
}
