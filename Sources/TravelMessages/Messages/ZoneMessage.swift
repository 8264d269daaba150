package import TravelCore
package import TravelFormats

/// A zone on the wire: `zone list --json`'s element, with its saved inside/outside state.
package struct ZoneMessage: Sendable, Hashable {
    /// A circle (`radius_m`, `lat`, `lon`) or polygons (`geometry`, GeoJSON, kept as it is written).
    package enum Shape: Sendable, Hashable {
        case circle(center: Coordinate, radius: Double)
        case polygons(geometry: JSONValue)
    }

    package var id: Int64
    package var name: String
    package var role: String?
    package var shape: Shape
    /// `nil` while the daemon has not yet known where the vehicle is relative to it.
    package var inside: Bool?
    package var since: UTCTime?

    package init(id: Int64, name: String, role: String?, shape: Shape, inside: Bool?, since: UTCTime?) {
        self.id = id
        self.name = name
        self.role = role
        self.shape = shape
        self.inside = inside
        self.since = since
    }

    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .integer(id)), .init("name", .string(name)), .init("role", role.map(JSONValue.string) ?? .null),
        ]
        switch shape {
        case .circle(let center, let radius):
            members += [
                .init("kind", "circle"), .init("radius_m", .double(radius)), .init("lat", .double(center.latitude)),
                .init("lon", .double(center.longitude)),
            ]
        case .polygons(let geometry):
            members += [.init("kind", "polygon"), .init("geometry", geometry)]
        }
        members.append(.init("inside", inside.map(JSONValue.bool) ?? .null))
        members.append(.init("since", since.map { .string($0.iso8601) } ?? .null))
        return .object(members)
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let shape: Shape
        switch try fields.string("kind") {
        case "circle": shape = .circle(center: try fields.coordinate(), radius: try fields.number("radius_m"))
        case "polygon": shape = .polygons(geometry: try fields.object("geometry") { $0.object })
        default: throw MessageFieldError(path: fields.path(of: "kind"), expected: "circle or polygon")
        }
        self.init(
            id: try fields.integer("id"),
            name: try fields.string("name"),
            role: try fields.optionalString("role"),
            shape: shape,
            inside: try fields.optionalBool("inside"),
            since: try fields.optionalTime("since")
        )
    }
}
