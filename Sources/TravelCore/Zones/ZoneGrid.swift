/// Which zones may contain a point: each zone is listed under every 0.01° cell (about 1 km) its
/// bounding box touches; zones spanning more than `maximumCells` cells are checked for every fix.
struct ZoneGrid: Sendable {
    static let cellDegrees = 0.01
    static let maximumCells = 256

    private var cells: [Int64: [Int]] = [:]
    private var everywhere: [Int] = []

    /// `geometries` by position in the watcher's zone list.
    init(_ geometries: [ZoneGeometry]) {
        for (index, geometry) in geometries.enumerated() {
            let b = geometry.bounds
            let (south, north) = (Self.cell(b.south), Self.cell(b.north))
            let (west, east) = (Self.cell(b.west), Self.cell(b.east))
            guard (north - south + 1) * (east - west + 1) <= Self.maximumCells else {
                everywhere.append(index)
                continue
            }
            for latitude in south...north {
                for longitude in west...east { cells[Self.key(latitude, longitude), default: []].append(index) }
            }
        }
    }

    /// Indexes of zones whose box may contain a point of the box south…north, west…east (a single
    /// point when both are equal); `nil` when that box covers too many cells to look up.
    func candidates(south: Double, west: Double, north: Double, east: Double) -> [Int]? {
        let (s, n, w, e) = (Self.cell(south), Self.cell(north), Self.cell(west), Self.cell(east))
        guard (n - s + 1) * (e - w + 1) <= 64 else { return nil }
        var found = everywhere
        for latitude in s...n {
            for longitude in w...e { found += cells[Self.key(latitude, longitude)] ?? [] }
        }
        return found
    }

    private static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }

    private static func key(_ latitude: Int, _ longitude: Int) -> Int64 {
        Int64(latitude) << 32 | Int64(UInt32(truncatingIfNeeded: longitude))
    }
}
