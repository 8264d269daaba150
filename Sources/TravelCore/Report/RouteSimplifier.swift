/// Douglas–Peucker simplification of a route, for drawing only: the report shows a year of routes
/// in a few megabytes, while the database keeps every point.
///
/// Distances are measured in a local plane around each route's first point (equirectangular,
/// metres), which at the tolerances of a map (metres to tens of metres) differs from the
/// ellipsoid by far less than the tolerance itself. Iterative, so a route of hours at 10 Hz
/// cannot exhaust the stack.
package enum RouteSimplifier {
    /// The indices of `points` to keep, ascending: the first and the last always, and every point
    /// farther than `tolerance` metres from the line through the kept points around it.
    package static func keptIndices(_ points: [Coordinate], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        let reference = points[0]
        let metresPerDegree = 111_319.49
        let xScale = metresPerDegree * cos(radians: reference.latitude * .pi / 180)
        let x = points.map { ($0.longitude - reference.longitude) * xScale }
        let y = points.map { ($0.latitude - reference.latitude) * metresPerDegree }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var spans = [(points.startIndex, points.count - 1)]
        let limit = tolerance * tolerance
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            let (dx, dy) = (x[last] - x[first], y[last] - y[first])
            let length = dx * dx + dy * dy
            var (farthest, distance) = (first, -1.0)
            for index in (first + 1)..<last {
                let (px, py) = (x[index] - x[first], y[index] - y[first])
                let squared: Double
                if length == 0 {
                    squared = px * px + py * py
                } else {
                    // Distance to the segment, so a route doubling back keeps its turning point.
                    let t = min(1, max(0, (px * dx + py * dy) / length))
                    let (ex, ey) = (px - t * dx, py - t * dy)
                    squared = ex * ex + ey * ey
                }
                if squared > distance { (farthest, distance) = (index, squared) }
            }
            guard distance > limit else { continue }
            keep[farthest] = true
            spans.append((first, farthest))
            spans.append((farthest, last))
        }
        return keep.indices.filter { keep[$0] }
    }

    /// `points` less those `keptIndices` drops.
    package static func simplify(_ points: [Coordinate], tolerance: Double) -> [Coordinate] {
        keptIndices(points, tolerance: tolerance).map { points[$0] }
    }
}
