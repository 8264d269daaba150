import SeededRandom
import Testing

@testable import TravelCore

/// The report's drawing helpers: Douglas–Peucker for routes, the grid of time spent per place.
@Suite struct ReportGeometryTests {
    /// About a metre in degrees of latitude.
    static let metre = 1 / 111_319.49

    /// The POIs' area: along a simplified route's long straight segment, 2 to 4 km either side, not farther.
    @Test func theAreaFollowsTheRouteBetweenItsPoints() {
        var area = ReportArea()
        #expect(area.bounds == nil)
        // A straight 111 km north, drawn as its two ends.
        area.add(route: [Coordinate(latitude: 52, longitude: 13), Coordinate(latitude: 53, longitude: 13)])
        #expect(area.contains(Coordinate(latitude: 52.5, longitude: 13)))
        #expect(area.contains(Coordinate(latitude: 52.5, longitude: 13.025)), "about 1.7 km east")
        #expect(!area.contains(Coordinate(latitude: 52.5, longitude: 13.07)), "about 4.7 km east")
        #expect(!area.contains(Coordinate(latitude: 53.07, longitude: 13)), "beyond the end")
        let bounds = area.bounds
        #expect(bounds.map { $0.southWest.latitude < 52 && $0.northEast.latitude > 53 } == true)
        #expect(bounds.map { $0.southWest.longitude < 13 && $0.northEast.longitude > 13 } == true)
        // A note away from the route adds its own neighbourhood.
        area.add(Coordinate(latitude: 52.5, longitude: 14))
        #expect(area.contains(Coordinate(latitude: 52.51, longitude: 14.01)))
    }

    @Test func aStraightRouteKeepsItsEnds() {
        let points = (0...100).map { Coordinate(latitude: 52 + Double($0) * 10 * Self.metre, longitude: -8.6) }
        #expect(RouteSimplifier.keptIndices(points, tolerance: 5) == [0, 100])
    }

    @Test func aCornerAndATurnBackAreKept() {
        // North 500 m, east 500 m, then back west 300 m: the corner and the far end of the east leg stay.
        var points = (0...50).map { Coordinate(latitude: 52 + Double($0) * 10 * Self.metre, longitude: -8.6) }
        let east = 10 * Self.metre / cos(radians: 52.0045 * .pi / 180)
        points += (1...50).map { Coordinate(latitude: points[50].latitude, longitude: -8.6 + Double($0) * east) }
        points += (1...30).map {
            Coordinate(latitude: points[50].latitude, longitude: points[100].longitude - Double($0) * east)
        }
        #expect(RouteSimplifier.keptIndices(points, tolerance: 5) == [0, 50, 100, 130])
    }

    @Test func noPointIsFartherThanTheToleranceFromTheSimplifiedLine() {
        var random = SplitMix64(seed: 16)
        var points = [Coordinate(latitude: 52.6, longitude: -8.6)]
        for _ in 0..<2000 {
            let last = points[points.count - 1]
            points.append(
                Coordinate(
                    latitude: last.latitude + (Double(random.next() % 21) - 8) * Self.metre,
                    longitude: last.longitude + (Double(random.next() % 21) - 10) * Self.metre
                )
            )
        }
        let kept = RouteSimplifier.keptIndices(points, tolerance: 10)
        #expect(kept.first == 0 && kept.last == points.count - 1 && kept.count < points.count / 4)
        for (from, to) in zip(kept, kept.dropFirst()) {
            for index in from...to {
                #expect(Self.distance(points[index], from: points[from], to: points[to]) <= 10.001)
            }
        }
    }

    @Test func shortRoutesStayWhole() {
        let points = [Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 1.1, longitude: 2.1)]
        #expect(RouteSimplifier.simplify(points, tolerance: 10) == points)
        #expect(RouteSimplifier.simplify([], tolerance: 10) == [])
    }

    @Test func timeIsSummedPerCellWithGapsCapped() {
        var heat = TimeHeatmap()
        let start = UTCTime(milliseconds: 1_000_000)
        let route = [0, 1_000, 2_000, 602_000].map { offset in
            RoutePoint(
                time: UTCTime(milliseconds: start.milliseconds + Int64(offset)),
                coordinate: .init(latitude: 52.6001, longitude: -8.6001)
            )
        }
        heat.add(route: route)
        heat.add(Coordinate(latitude: -33.9, longitude: 151.2), milliseconds: 3_600_000)
        let (size, cells) = heat.cells()
        #expect(size == TimeHeatmap.finestCell)
        // 1 s + 1 s + a 600 s gap counted as 60 s, in the cell holding (52.6001, -8.6001).
        #expect(cells.map(\.seconds) == [3_600, 62])
        #expect(cells[1].row == 26_300 && cells[1].column == -4_301)
        #expect(cells[0].row == Int((-33.9 / size).rounded(.down)))
    }

    @Test func theGridCoarsensToItsLimit() {
        var heat = TimeHeatmap(maximumCells: 10)
        for step in 0..<100 {
            heat.add(Coordinate(latitude: 50 + Double(step) * 0.002, longitude: 5), milliseconds: 1_000)
        }
        let (size, cells) = heat.cells()
        #expect(cells.count <= 10 && size > TimeHeatmap.finestCell)
        #expect(cells.reduce(0) { $0 + $1.seconds } == 100)
    }

    /// Metres from `point` to the segment `from`–`to`, in the plane the simplifier uses.
    static func distance(_ point: Coordinate, from: Coordinate, to: Coordinate) -> Double {
        let scale = 111_319.49
        let xScale = scale * cos(radians: from.latitude * .pi / 180)
        let (px, py) = ((point.longitude - from.longitude) * xScale, (point.latitude - from.latitude) * scale)
        let (dx, dy) = ((to.longitude - from.longitude) * xScale, (to.latitude - from.latitude) * scale)
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : min(1, max(0, (px * dx + py * dy) / length))
        let (ex, ey) = (px - t * dx, py - t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}
