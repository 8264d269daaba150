package import TravelControl
package import TravelCore
package import TravelFormats

/// `AddPlace`: the `name` of the circle of `radius_m` (the default when absent) around
/// `latitude`, `longitude`.
package struct AddPlaceParameters: ControlParameters, Hashable {
    package var name: String
    package var coordinate: Coordinate
    package var radius: Double

    package init(name: String, coordinate: Coordinate, radius: Double = NamedPlace.defaultRadius) {
        self.name = name
        self.coordinate = coordinate
        self.radius = radius
    }

    package var json: JSONValue {
        [
            "name": .string(name), "latitude": .double(coordinate.latitude), "longitude": .double(coordinate.longitude),
            "radius_m": .double(radius),
        ]
    }

    /// A blank name, a position out of range or a radius out of `NamedPlace.radiusRange` is
    /// `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["name", "latitude", "longitude", "radius_m"])
        let name = try call.text("name")
        guard let latitude = call.parameters["latitude"]?.doubleValue, latitude.magnitude <= 90 else {
            throw .invalidParameter("latitude")
        }
        guard let longitude = call.parameters["longitude"]?.doubleValue, longitude.magnitude <= 180 else {
            throw .invalidParameter("longitude")
        }
        var radius = NamedPlace.defaultRadius
        switch call.parameters["radius_m"] {
        case nil, .null?: break
        case let value?:
            guard let given = value.doubleValue, NamedPlace.radiusRange.contains(given) else {
                throw .invalidParameter("radius_m")
            }
            radius = given
        }
        self.init(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    }
}

/// `RemovePlace`: the `place` whose name to forget, by name or id.
package struct RemovePlaceParameters: ControlParameters, Hashable {
    package var place: String

    package init(place: String) { self.place = place }

    package var json: JSONValue { ["place": .string(place)] }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["place"])
        self.init(place: try call.text("place"))
    }
}

/// `ListPlaces`' answer: `places` (`places --json`, the longest time first) and the `time_zone`
/// their last arrivals are shown in.
package struct ListPlacesReply: ControlReply, Hashable {
    package var places: [VisitedPlaceMessage]
    package var timeZone: String?

    package init(places: [VisitedPlaceMessage], timeZone: String?) {
        self.places = places
        self.timeZone = timeZone
    }

    package var json: JSONValue {
        ["places": .array(places.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            places: try fields.array("places", VisitedPlaceMessage.init),
            timeZone: try fields.optionalString("time_zone")
        )
    }
}
