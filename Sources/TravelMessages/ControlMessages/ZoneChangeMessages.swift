package import TravelControl
package import TravelCore
package import TravelFormats

/// `AddZone`: the `zone` to add (the IDL's `NewZone`).
package struct AddZoneParameters: ControlParameters, Hashable {
    package var zone: NamedZone

    package init(zone: NamedZone) { self.zone = zone }

    package var json: JSONValue { ["zone": zone.parameterJSON] }

    /// A zone that is not a `NewZone` is `InvalidParameter`, one of no shape `InvalidZone`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["zone"])
        self.init(zone: try NamedZone(parameter: call.parameters["zone"], name: "zone"))
    }
}

/// `RemoveZone`: the `zone` to remove, by name or id.
package struct RemoveZoneParameters: ControlParameters, Hashable {
    package var zone: String

    package init(zone: String) { self.zone = zone }

    package var json: JSONValue { ["zone": .string(zone)] }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["zone"])
        self.init(zone: try call.text("zone"))
    }
}

/// `ImportZones`: the `zones` of a file, added together.
package struct ImportZonesParameters: ControlParameters, Hashable {
    package var zones: [NamedZone]

    package init(zones: [NamedZone]) { self.zones = zones }

    package var json: JSONValue { ["zones": .array(zones.map(\.parameterJSON))] }

    /// Refuses the whole list when one zone is not a `NewZone` or has no shape.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["zones"])
        guard let list = call.parameters["zones"]?.arrayValue else { throw .invalidParameter("zones") }
        var zones: [NamedZone] = []
        zones.reserveCapacity(list.count)
        for item in list { zones.append(try NamedZone(parameter: item, name: "zones")) }
        self.init(zones: zones)
    }
}

/// The answer of `AddZone` and `AddPlace`: the `id` of what was added.
package struct AddedReply: ControlReply, Hashable {
    package var id: Int64

    package init(id: Int64) { self.id = id }

    package var json: JSONValue { ["id": .integer(id)] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(id: try fields.integer("id"))
    }
}

/// The answer of `RemoveZone` and `RemovePlace`: the `id` and `name` of what was removed.
package struct RemovedReply: ControlReply, Hashable {
    package var id: Int64
    package var name: String

    package init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    package var json: JSONValue { ["id": .integer(id), "name": .string(name)] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(id: try fields.integer("id"), name: try fields.string("name"))
    }
}

/// `ImportZones`' answer: the ids `added`, and the names `skipped` because a zone has them.
package struct ImportZonesReply: ControlReply, Hashable {
    package var added: [Int64]
    package var skipped: [String]

    package init(added: [Int64], skipped: [String]) {
        self.added = added
        self.skipped = skipped
    }

    package var json: JSONValue {
        ["added": .array(added.map(JSONValue.integer)), "skipped": .array(skipped.map(JSONValue.string))]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(added: try fields.integers("added"), skipped: try fields.strings("skipped"))
    }
}

extension NamedZone {
    /// The IDL's `NewZone`: a GeoJSON geometry, and the radius of a circle.
    package var parameterJSON: JSONValue {
        let radius: JSONValue
        if case .circle(_, let metres) = shape { radius = .double(metres) } else { radius = .null }
        return [
            "name": .string(name), "role": role.map(JSONValue.string) ?? .null, "geometry": shape.geoJSON,
            "radius_m": radius,
        ]
    }

    /// Reads the IDL's `NewZone`; an unreadable shape is `InvalidZone`, a malformed one the
    /// parameter `parameterName`.
    package init(parameter: JSONValue?, name parameterName: String) throws(VarlinkError) {
        guard let parameter, let name = parameter["name"]?.stringValue, !name.allSatisfy(\.isWhitespace),
            let geometry = parameter["geometry"], geometry.objectMembers != nil
        else { throw .invalidParameter(parameterName) }
        let role: String?
        switch parameter["role"] {
        case nil, .null?: role = nil
        case .string(let text)?: role = text
        default: throw .invalidParameter(parameterName)
        }
        let radius = parameter["radius_m"]?.doubleValue
        if let radius, !(radius > 0 && radius <= 1_000_000) {
            throw .invalidZone(name, reason: "the radius must be 0 to 1000000 m")
        }
        guard let shape = ZoneShape(geoJSON: geometry, radius: radius) else {
            throw .invalidZone(name, reason: "not a Polygon, a MultiPolygon or a Point with radius_m")
        }
        self.init(name: name, role: role, shape: shape)
    }
}
