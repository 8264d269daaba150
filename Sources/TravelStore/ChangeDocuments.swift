internal import TravelCore
package import TravelFormats
package import TravelDecoding

// The records the control socket's change methods reply with (the IDL's `Moment` and `Plan`),
// written by the daemon and read back by `travelctl`.

extension MomentRecord {
    /// The IDL's `Moment`.
    package var controlJSON: JSONValue {
        [
            "id": .integer(id), "time": .string(time.iso8601),
            "latitude": coordinate.map { .double($0.latitude) } ?? .null,
            "longitude": coordinate.map { .double($0.longitude) } ?? .null,
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
        ]
    }
}

extension MomentRecord {
    /// A `Moment` reply of `kind`; `text` is the note's text or the photo's path.
    package init?(controlJSON json: JSONValue, kind: Kind, text: String, sha256: String? = nil) {
        guard let id = json["id"]?.intValue.map(Int64.init),
            let time = json["time"]?.stringValue.flatMap(UTCTime.init(iso8601:))
        else { return nil }
        let coordinate = json["latitude"]?.doubleValue.flatMap { latitude in
            json["longitude"]?.doubleValue.map { Coordinate(latitude: latitude, longitude: $0) }
        }
        self.init(
            id: id,
            kind: kind,
            time: time,
            text: text,
            sha256: sha256,
            coordinate: coordinate,
            journeyID: json["journey_id"]?.intValue.map(Int64.init)
        )
    }
}

extension NamedZone {
    /// The IDL's `NewZone`: a GeoJSON geometry, and the radius of a circle.
    package var controlJSON: JSONValue {
        let radius: JSONValue
        if case .circle(_, let metres) = shape { radius = .double(metres) } else { radius = .null }
        return [
            "name": .string(name), "role": role.map(JSONValue.string) ?? .null, "geometry": shape.geoJSON,
            "radius_m": radius,
        ]
    }
}

extension POIDraft {
    /// The IDL's `NewPOI`.
    package var controlJSON: JSONValue {
        [
            "name": .string(name), "category": category.map(JSONValue.string) ?? .null,
            "latitude": .double(coordinate.latitude), "longitude": .double(coordinate.longitude),
        ]
    }
}
