package import TravelCore
package import TravelFormats

/// A POI on the wire: `poi list --json`'s element, with its distance when listed near a place.
package struct POIMessage: Sendable, Hashable {
    package var poi: POI
    /// The file it was imported from.
    package var source: String?
    /// Metres from the place asked about, to a tenth; `nil` when none was.
    package var distance: Double?

    package init(poi: POI, source: String?, distance: Double?) {
        self.poi = poi
        self.source = source
        self.distance = distance.map { ($0 * 10).rounded() / 10 }
    }

    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .integer(poi.id)), .init("name", .string(poi.name)),
            .init("category", poi.category.map(JSONValue.string) ?? .null),
            .init("lat", .double(poi.coordinate.latitude)), .init("lon", .double(poi.coordinate.longitude)),
            .init("source", source.map(JSONValue.string) ?? .null),
        ]
        if let distance { members.append(.init("distance_m", .double(distance))) }
        return .object(members)
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let poi = POI(
            id: try fields.integer("id"),
            name: try fields.string("name"),
            category: try fields.optionalString("category"),
            coordinate: try fields.coordinate()
        )
        self.init(
            poi: poi,
            source: try fields.optionalString("source"),
            distance: try fields.optionalNumber("distance_m")
        )
    }
}
