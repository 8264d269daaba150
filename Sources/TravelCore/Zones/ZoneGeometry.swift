/// A zone prepared for the per-fix test: projected once into a plane around the zone, so a fix
/// costs one projection and a pass over the edges.
package struct ZoneGeometry: Sendable {
    package let frame: PlanarFrame
    private let radius: Double?
    /// Edges of every ring, as (start, end) in the frame.
    private let edges: [(PlanarPoint, PlanarPoint)]
    /// The zone's extent in degrees: south, west, north, east.
    package let bounds: (south: Double, west: Double, north: Double, east: Double)

    package init(_ shape: ZoneShape) {
        switch shape {
        case .circle(let center, let radius):
            frame = PlanarFrame(at: center)
            self.radius = radius
            edges = []
            let dLat = radius / frame.metresPerDegreeLatitude
            let dLon = radius / max(frame.metresPerDegreeLongitude, 1)
            bounds = (center.latitude - dLat, center.longitude - dLon, center.latitude + dLat, center.longitude + dLon)
        case .polygons(let polygons):
            let points = polygons.joined().joined()
            let south = points.map(\.latitude).min() ?? 0
            let north = points.map(\.latitude).max() ?? 0
            let west = points.map(\.longitude).min() ?? 0
            let east = points.map(\.longitude).max() ?? 0
            bounds = (south, west, north, east)
            frame = PlanarFrame(at: Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2))
            radius = nil
            var edges: [(PlanarPoint, PlanarPoint)] = []
            for ring in polygons.joined() where ring.count >= 2 {
                let projected = ring.map(frame.project)
                for index in projected.indices {
                    let next = projected[(index + 1) % projected.count]
                    if next != projected[index] { edges.append((projected[index], next)) }
                }
            }
            self.edges = edges
        }
    }

    /// Metres from `point` to the zone's border: negative inside, positive outside.
    package func signedDistance(to point: Coordinate) -> Double {
        signedDistance(to: frame.project(point))
    }

    /// `signedDistance` for a point already in this zone's frame.
    package func signedDistance(to p: PlanarPoint) -> Double {
        if let radius { return (p.x * p.x + p.y * p.y).squareRoot() - radius }
        var inside = false
        var nearestSquared = Double.infinity
        for (a, b) in edges {
            // Even-odd rule: count the edges a ray towards +x crosses.
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            let (dx, dy) = (b.x - a.x, b.y - a.y)
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared, 0), 1) : 0
            let (ex, ey) = (a.x + t * dx - p.x, a.y + t * dy - p.y)
            nearestSquared = min(nearestSquared, ex * ex + ey * ey)
        }
        let distance = nearestSquared.squareRoot()
        return inside ? -distance : distance
    }
}
