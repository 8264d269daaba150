/// What GeoJSON and KML must know of a trip's route before they write its first point: how many
/// of its points can be written (a line needs two), whether every one of them has an altitude
/// (GeoJSON writes a trip's positions all in 3D or all in 2D) and whether the route crosses the
/// antimeridian (GeoJSON then writes a MultiLineString).
///
/// Measured point by point in a first pass over the route, so a route of any length can then be
/// written in pieces without ever being held whole.
package struct ExportRouteShape: Sendable, Hashable {
    /// How many of the route's points can be placed on the globe; the others are left out.
    package private(set) var count = 0
    /// Whether each of those has a plausible altitude (true when there is none).
    package private(set) var allHaveAltitude = true
    /// Whether a step between two consecutive ones is the short way across ±180°.
    package private(set) var crossesAntimeridian = false
    private var lastLongitude: Double?

    /// The shape of a route with no point yet.
    package init() {}

    /// The shape of `route`, measured whole.
    package init(route: some Sequence<RoutePoint>) {
        for point in route { add(point) }
    }

    /// Takes the route's next point (in time order) into account.
    package mutating func add(_ point: RoutePoint) {
        guard point.coordinate.isExportable else { return }
        count += 1
        if point.exportAltitude == nil { allHaveAltitude = false }
        let longitude = point.coordinate.exportLongitude
        if let lastLongitude, Self.crossesAntimeridian(from: lastLongitude, to: longitude) {
            crossesAntimeridian = true
        }
        lastLongitude = longitude
    }

    /// A step of more than half the globe is the short way across ±180°, not the long way round.
    static func crossesAntimeridian(from: Double, to: Double) -> Bool { (to - from).magnitude > 180 }
}

extension ExportFormat {
    /// Whether the format needs a route's `ExportRouteShape` before its first point (GeoJSON and
    /// KML); GPX writes each point as it comes.
    package var needsRouteShape: Bool { self != .gpx }
}
