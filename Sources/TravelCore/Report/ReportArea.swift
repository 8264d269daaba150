/// The area a report covers: the cells of a grid (`cellSize` degrees) that its routes, trip ends
/// and markers touch, with their neighbours. The report draws the POIs inside it, so a POI file
/// of a whole country (thousands of GeoNames points) adds to the page only those along the way.
package struct ReportArea: Sendable {
    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }

    /// Degrees of a cell, about 2 km of latitude: a POI is kept within 2 to 4 km of the route.
    package static let cellSize = 0.02
    private var cells: Set<Cell> = []
    /// Southernmost, westernmost, northernmost and easternmost cell touched.
    private var rows = (Int.max, Int.min)
    private var columns = (Int.max, Int.min)

    package init() {}

    /// Adds the cell of `coordinate`.
    package mutating func add(_ coordinate: Coordinate) {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return }
        let cell = Self.cell(of: coordinate)
        cells.insert(cell)
        rows = (min(rows.0, cell.row), max(rows.1, cell.row))
        columns = (min(columns.0, cell.column), max(columns.1, cell.column))
    }

    /// Adds the cells along `route`, its straight segments included (a simplified route keeps only
    /// the ends of a long straight road).
    package mutating func add(route: [Coordinate]) {
        for (from, to) in zip(route, route.dropFirst()) {
            let span = max(abs(to.latitude - from.latitude), abs(to.longitude - from.longitude))
            let steps = min(Int((span / (Self.cellSize / 2)).rounded(.up)), 100_000)
            for step in 0..<max(steps, 1) {
                let fraction = Double(step) / Double(max(steps, 1))
                add(
                    Coordinate(
                        latitude: from.latitude + (to.latitude - from.latitude) * fraction,
                        longitude: from.longitude + (to.longitude - from.longitude) * fraction
                    )
                )
            }
        }
        if let last = route.last { add(last) }
    }

    /// Whether `coordinate` is in a touched cell or next to one.
    package func contains(_ coordinate: Coordinate) -> Bool {
        let cell = Self.cell(of: coordinate)
        for row in cell.row - 1...cell.row + 1 {
            for column in cell.column - 1...cell.column + 1 where cells.contains(Cell(row: row, column: column)) {
                return true
            }
        }
        return false
    }

    /// The box around the area, its neighbour cells included; `nil` when nothing was added.
    package var bounds: (southWest: Coordinate, northEast: Coordinate)? {
        guard !cells.isEmpty else { return nil }
        return (
            Coordinate(latitude: Double(rows.0 - 1) * Self.cellSize, longitude: Double(columns.0 - 1) * Self.cellSize),
            Coordinate(latitude: Double(rows.1 + 2) * Self.cellSize, longitude: Double(columns.1 + 2) * Self.cellSize)
        )
    }

    private static func cell(of coordinate: Coordinate) -> Cell {
        Cell(
            row: Int((coordinate.latitude / cellSize).rounded(.down)),
            column: Int((coordinate.longitude / cellSize).rounded(.down))
        )
    }
}
