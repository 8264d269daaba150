package import TravelCore

/// A stored zone with its saved inside/outside state.
package struct ZoneRecord: Sendable, Hashable {
    package var zone: Zone
    /// `nil` while the daemon has not yet known where the vehicle is relative to it.
    package var inside: Bool?
    package var since: UTCTime?

    /// `{"id","name","role","kind","radius_m","center"|"geometry","inside","since"}`: what
    /// `travelctl zone list --json` prints and the control socket will send.
    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .integer(zone.id)), .init("name", .string(zone.name)),
            .init("role", zone.role.map(JSONValue.string) ?? .null), .init("kind", .string(zone.shape.kind)),
        ]
        switch zone.shape {
        case .circle(let center, let radius):
            members.append(.init("radius_m", .double(radius)))
            members.append(.init("lat", .double(center.latitude)))
            members.append(.init("lon", .double(center.longitude)))
        case .polygons:
            members.append(.init("geometry", zone.shape.geoJSON))
        }
        members.append(.init("inside", inside.map(JSONValue.bool) ?? .null))
        members.append(.init("since", since.map { .string($0.iso8601) } ?? .null))
        return .object(members)
    }
}

/// A stored POI, with its distance from a reference point when one was asked for.
package struct POIRecord: Sendable, Hashable {
    package var poi: POI
    package var source: String?
    package var distance: Double?

    /// `{"id","name","category","lat","lon","source"[,"distance_m"]}`.
    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .integer(poi.id)), .init("name", .string(poi.name)),
            .init("category", poi.category.map(JSONValue.string) ?? .null),
            .init("lat", .double(poi.coordinate.latitude)), .init("lon", .double(poi.coordinate.longitude)),
            .init("source", source.map(JSONValue.string) ?? .null),
        ]
        if let distance { members.append(.init("distance_m", .double((distance * 10).rounded() / 10))) }
        return .object(members)
    }
}

/// A zone event or a nearby alert, as `travelctl events` lists them.
package struct PlaceEventRecord: Sendable, Hashable {
    /// `enter`, `exit` or `nearby`.
    package var kind: String
    package var time: UTCTime
    package var zoneID: Int64?
    package var zoneName: String?
    package var poiID: Int64?
    package var poiName: String?
    package var coordinate: Coordinate?
    package var tripID: Int64?
    package var whileOff: Bool
    /// Metres from the POI (alerts).
    package var distance: Double?
    package var message: String?

    /// `{"time","kind","zone","zone_id","poi","poi_id","lat","lon","trip_id","while_off"[,"distance_m","message"]}`.
    package var json: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
        var members: [JSONValue.Member] = [
            .init("time", .string(time.iso8601)), .init("kind", .string(kind)),
            .init("zone", optional(zoneName)), .init("zone_id", optional(zoneID)),
            .init("poi", optional(poiName)), .init("poi_id", optional(poiID)),
            .init("lat", coordinate.map { .double($0.latitude) } ?? .null),
            .init("lon", coordinate.map { .double($0.longitude) } ?? .null),
            .init("trip_id", optional(tripID)), .init("while_off", .bool(whileOff)),
        ]
        if let distance { members.append(.init("distance_m", .double((distance * 10).rounded() / 10))) }
        if let message { members.append(.init("message", .string(message))) }
        return .object(members)
    }
}
