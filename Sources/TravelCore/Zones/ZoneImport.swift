package import TravelFormats

/// A zone read from GeoJSON, before the store gives it an id.
package struct ZoneDraft: Sendable, Hashable {
    package var name: String?
    package var role: String?
    package var shape: ZoneShape

    package init(name: String?, role: String?, shape: ZoneShape) {
        self.name = name
        self.role = role
        self.shape = shape
    }
}

/// Why a GeoJSON zone could not be read.
package enum ZoneImportError: Error, Sendable, Hashable, CustomStringConvertible {
    case notJSON(String)
    case unsupportedGeometry(feature: Int, type: String)
    case malformedCoordinates(feature: Int)

    package var description: String {
        switch self {
        case .notJSON(let reason): "not GeoJSON: \(reason)"
        case .unsupportedGeometry(let feature, let type):
            "feature \(feature): geometry \(type) is not a zone (Polygon, MultiPolygon, or Point with a radius)"
        case .malformedCoordinates(let feature): "feature \(feature): malformed coordinates"
        }
    }
}

/// Reads zones from GeoJSON: a FeatureCollection, a Feature or a bare geometry. Polygons and
/// MultiPolygons are zones as drawn; a Point with a `radius` property (metres) is a circle. The
/// name comes from `properties.name`, the role from `properties.role`.
package enum ZoneImport {
    /// Every zone of the document, or the first reason one could not be read.
    package static func read(geoJSON text: String) throws(ZoneImportError) -> [ZoneDraft] {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw .notJSON(error.description)
        }
        let features: [JSONValue]
        switch document["type"]?.stringValue {
        case "FeatureCollection": features = document["features"]?.arrayValue ?? []
        case "Feature": features = [document]
        default: features = [["type": "Feature", "geometry": document]]
        }
        var drafts: [ZoneDraft] = []
        for (number, feature) in zip(1..., features) {
            let properties = feature["properties"]
            let geometry = feature["geometry"] ?? .null
            let type = geometry["type"]?.stringValue ?? "none"
            let shape: ZoneShape
            switch type {
            case "Polygon":
                shape = .polygons([try rings(geometry["coordinates"], feature: number)])
            case "MultiPolygon":
                guard let polygons = geometry["coordinates"]?.arrayValue, !polygons.isEmpty else {
                    throw .malformedCoordinates(feature: number)
                }
                var all: [[[Coordinate]]] = []
                for polygon in polygons { all.append(try rings(polygon, feature: number)) }
                shape = .polygons(all)
            case "Point":
                guard let radius = properties?["radius"]?.doubleValue, radius > 0 else {
                    throw .unsupportedGeometry(feature: number, type: "Point without a radius")
                }
                shape = .circle(center: try position(geometry["coordinates"], feature: number), radius: radius)
            default:
                throw .unsupportedGeometry(feature: number, type: type)
            }
            drafts.append(
                ZoneDraft(name: properties?["name"]?.stringValue, role: properties?["role"]?.stringValue, shape: shape)
            )
        }
        return drafts
    }

    private static func rings(_ value: JSONValue?, feature: Int) throws(ZoneImportError) -> [[Coordinate]] {
        guard let rings = value?.arrayValue, !rings.isEmpty else { throw .malformedCoordinates(feature: feature) }
        var result: [[Coordinate]] = []
        for ring in rings {
            guard let points = ring.arrayValue, points.count >= 4 else { throw .malformedCoordinates(feature: feature) }
            var coordinates: [Coordinate] = []
            for point in points { coordinates.append(try position(point, feature: feature)) }
            // GeoJSON repeats the first position at the end; the geometry closes rings itself.
            if coordinates.first == coordinates.last { coordinates.removeLast() }
            result.append(coordinates)
        }
        return result
    }

    /// A GeoJSON position: `[longitude, latitude]`.
    private static func position(_ value: JSONValue?, feature: Int) throws(ZoneImportError) -> Coordinate {
        guard let pair = value?.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue,
            let latitude = pair[1].doubleValue, abs(latitude) <= 90, abs(longitude) <= 180
        else { throw .malformedCoordinates(feature: feature) }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

extension ZoneShape {
    /// The shape as a GeoJSON geometry (a circle as its centre Point), for the store and exports.
    package var geoJSON: JSONValue {
        func position(_ c: Coordinate) -> JSONValue { [.double(c.longitude), .double(c.latitude)] }
        switch self {
        case .circle(let center, _):
            return ["type": "Point", "coordinates": position(center)]
        case .polygons(let polygons):
            let coordinates = JSONValue.array(
                polygons.map { polygon in
                    .array(polygon.map { ring in .array((ring + ring.prefix(1)).map(position)) })
                }
            )
            return ["type": "MultiPolygon", "coordinates": coordinates]
        }
    }

    /// Reads back `geoJSON` (with the circle's radius kept apart, as the store does).
    package init?(geoJSON: JSONValue, radius: Double?) {
        let feature: JSONValue = [
            "type": "Feature", "geometry": geoJSON, "properties": radius.map { ["radius": .double($0)] } ?? .null,
        ]
        guard let draft = try? ZoneImport.read(geoJSON: feature.serializedString()).first else { return nil }
        self = draft.shape
    }
}
