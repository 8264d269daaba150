/// A named geofence: a circle or polygons, with an optional role (`home`, `work`, …).
package struct Zone: Sendable, Hashable {
    /// The store's id; events and inside/outside state refer to it.
    package var id: Int64
    package var name: String
    package var role: String?
    package var shape: ZoneShape

    package init(id: Int64, name: String, role: String? = nil, shape: ZoneShape) {
        self.id = id
        self.name = name
        self.role = role
        self.shape = shape
    }
}

/// Where a zone is. Polygons are WGS84 rings, as GeoJSON has them: each polygon an outer ring
/// and optional holes; a point is inside when it is inside an odd number of the rings.
package enum ZoneShape: Sendable, Hashable {
    case circle(center: Coordinate, radius: Double)
    /// One or more polygons (a GeoJSON Polygon or MultiPolygon); each is a list of rings.
    case polygons([[[Coordinate]]])

    /// `circle` or `polygon`, as the store's `zones.kind` column holds it.
    package var kind: String {
        switch self {
        case .circle: "circle"
        case .polygons: "polygon"
        }
    }
}
