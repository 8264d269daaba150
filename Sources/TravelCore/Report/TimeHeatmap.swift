/// Time spent per place: seconds summed on a grid of latitude/longitude cells, for the report's
/// heatmap. Parked time counts where the vehicle stood, driving time along the route.
///
/// The grid starts at `finestCell` degrees and coarsens (doubling) until at most `maximumCells`
/// cells hold time, so a year of driving stays a small part of the report while one journey
/// keeps street-level detail. Cells are integers (`row = ⌊latitude / size⌋`), so the same
/// history always gives the same grid.
package struct TimeHeatmap: Sendable {
    package struct Cell: Sendable, Hashable {
        package var row: Int
        package var column: Int
        package var seconds: Int64
    }

    private struct Key: Hashable {
        var row: Int
        var column: Int
    }

    /// The finest cell, degrees (about 200 m of latitude).
    package static let finestCell = 0.002
    /// The most cells `cells` returns.
    package let maximumCells: Int
    /// Milliseconds per cell of the finest grid: integers, so the sums do not depend on the
    /// order a dictionary (seeded per process) visits them in, and every process gives the same bytes.
    private var finest: [Key: Int64] = [:]

    package init(maximumCells: Int = 20_000) {
        self.maximumCells = maximumCells
    }

    /// Counts `milliseconds` spent at `coordinate`; nothing for no time.
    package mutating func add(_ coordinate: Coordinate, milliseconds: Int64) {
        guard milliseconds > 0, coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return }
        let key = Key(
            row: Int((coordinate.latitude / Self.finestCell).rounded(.down)),
            column: Int((coordinate.longitude / Self.finestCell).rounded(.down))
        )
        finest[key, default: 0] += milliseconds
    }

    /// Counts the time between each point of a route and the next at the earlier one, a gap
    /// longer than `maximumGap` milliseconds (the receiver off, a tunnel) as `maximumGap`.
    package mutating func add(route: [RoutePoint], maximumGap: Int64 = 60_000) {
        for (point, next) in zip(route, route.dropFirst()) {
            add(point.coordinate, milliseconds: min(maximumGap, next.time.milliseconds - point.time.milliseconds))
        }
    }

    /// The cell size in degrees and the cells holding time, by row then column, with their
    /// seconds rounded to whole ones.
    package func cells() -> (size: Double, cells: [Cell]) {
        var (size, grid) = (Self.finestCell, finest)
        // Halving the rows and columns (rounding down) is the grid of twice the size.
        while grid.count > maximumCells, size < 1 {
            var coarser: [Key: Int64] = [:]
            for (key, seconds) in grid {
                coarser[Key(row: key.row >> 1, column: key.column >> 1), default: 0] += seconds
            }
            (size, grid) = (size * 2, coarser)
        }
        let cells = grid.map { Cell(row: $0.key.row, column: $0.key.column, seconds: ($0.value + 500) / 1000) }
        return (size, cells.sorted { ($0.row, $0.column) < ($1.row, $1.column) })
    }
}
