import Testing

@testable import TravelCore

/// Zones from GeoJSON, and the geometry they are tested with.
@Suite struct ZoneImportTests {
    static let collection = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "yard", "role": "work"},
           "geometry": {"type": "Polygon", "coordinates": [
             [[13.0, 45.0], [13.01, 45.0], [13.01, 45.01], [13.0, 45.01], [13.0, 45.0]],
             [[13.004, 45.004], [13.006, 45.004], [13.006, 45.006], [13.004, 45.006], [13.004, 45.004]]]}},
          {"type": "Feature", "properties": {"name": "islands"},
           "geometry": {"type": "MultiPolygon", "coordinates": [
             [[[14.0, 45.0], [14.001, 45.0], [14.001, 45.001], [14.0, 45.0]]],
             [[[14.01, 45.0], [14.011, 45.0], [14.011, 45.001], [14.01, 45.0]]]]}},
          {"type": "Feature", "properties": {"name": "home", "radius": 120},
           "geometry": {"type": "Point", "coordinates": [13.7212, 45.2831]}}
        ]}
        """

    @Test func polygonsWithHolesMultiPolygonsAndCircles() throws {
        let drafts = try ZoneImport.read(geoJSON: Self.collection)
        #expect(drafts.map(\.name) == ["yard", "islands", "home"])
        #expect(drafts.map(\.role) == ["work", nil, nil])
        #expect(drafts[2].shape == .circle(center: Coordinate(latitude: 45.2831, longitude: 13.7212), radius: 120))
        let yard = ZoneGeometry(drafts[0].shape)
        // Inside the outer ring, outside the hole; the hole's centre is 111 m from its edge.
        #expect(yard.signedDistance(to: Coordinate(latitude: 45.002, longitude: 13.002)) < 0)
        let hole = yard.signedDistance(to: Coordinate(latitude: 45.005, longitude: 13.005))
        #expect(hole > 75 && hole < 80)
        let islands = ZoneGeometry(drafts[1].shape)
        #expect(islands.signedDistance(to: Coordinate(latitude: 45.0002, longitude: 14.0007)) < 0)
        #expect(islands.signedDistance(to: Coordinate(latitude: 45.0002, longitude: 14.0107)) < 0)
        #expect(islands.signedDistance(to: Coordinate(latitude: 45.0002, longitude: 14.005)) > 0)
        // What the store keeps reads back as the same shape.
        for draft in drafts {
            let radius: Double? = if case .circle(_, let r) = draft.shape { r } else { nil }
            #expect(ZoneShape(geoJSON: draft.shape.geoJSON, radius: radius) == draft.shape)
        }
    }

    @Test(arguments: [
        "not json", #"{"type": "LineString", "coordinates": [[1, 2], [3, 4]]}"#,
        #"{"type": "Point", "coordinates": [1, 2]}"#, #"{"type": "Polygon", "coordinates": [[[1, 2], [3, 4]]]}"#,
        #"{"type": "Polygon", "coordinates": [[[1, 95], [3, 4], [5, 6], [1, 95]]]}"#,
    ])
    func whatIsNotAZoneIsRefused(text: String) {
        #expect(throws: ZoneImportError.self) { try ZoneImport.read(geoJSON: text) }
    }
}
