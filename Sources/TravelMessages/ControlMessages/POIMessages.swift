package import TravelControl
package import TravelCore
package import TravelFormats

/// `ListPOIs`: POIs of one `category` (all when `nil`), or with `near` (`"LAT,LON"`) those within
/// `radius_m` of it, nearest first.
package struct ListPOIsParameters: ControlParameters, Hashable {
    package var category: String?
    /// `LAT,LON` as given, sent as it is.
    package var near: String?
    package var radius: Double

    /// The default `radius_m`.
    package static let defaultRadius = 5_000.0

    package init(category: String?, near: String?, radius: Double = Self.defaultRadius) {
        self.category = category
        self.near = near
        self.radius = radius
    }

    /// `near` as a position.
    package var center: Coordinate? { near.flatMap(Coordinate.init(parsing:)) }

    package var json: JSONValue {
        [
            "category": category.map(JSONValue.string) ?? .null, "near": near.map(JSONValue.string) ?? .null,
            "radius_m": .double(radius),
        ]
    }

    /// A `near` that is no position, or a radius not above zero, is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["category", "near", "radius_m"])
        let category = try call.string("category")
        let near = try call.string("near")
        if let near, Coordinate(parsing: near) == nil { throw .invalidParameter("near") }
        var radius = Self.defaultRadius
        switch call.parameters["radius_m"] {
        case nil, .null?: break
        case let value?:
            guard let number = value.doubleValue, number.isFinite, number > 0 else {
                throw .invalidParameter("radius_m")
            }
            radius = number
        }
        self.init(category: category, near: near, radius: radius)
    }
}

/// `ListPOIs`' answer: `pois`, exactly `poi list --json`.
package struct ListPOIsReply: ControlReply, Hashable {
    package var pois: [POIMessage]

    package init(pois: [POIMessage]) { self.pois = pois }

    package var json: JSONValue { ["pois": .array(pois.map(\.json))] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(pois: try fields.array("pois", POIMessage.init))
    }
}

/// `ImportPOIs`: a batch of `pois` parsed by the client, staged under `import_id` (a new import
/// when `nil`); with `commit` everything staged under it is added, as from `source`.
package struct ImportPOIsParameters: ControlParameters, Hashable {
    package var importID: Int64?
    package var pois: [POIDraft]
    package var commit: Bool
    package var source: String?

    package init(importID: Int64?, pois: [POIDraft], commit: Bool, source: String?) {
        self.importID = importID
        self.pois = pois
        self.commit = commit
        self.source = source
    }

    package var json: JSONValue {
        [
            "import_id": importID.map(JSONValue.integer) ?? .null, "pois": .array(pois.map(\.parameterJSON)),
            "commit": .bool(commit), "source": source.map(JSONValue.string) ?? .null,
        ]
    }

    /// A POI that is not a `NewPOI`, or no `commit`, is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["import_id", "pois", "commit", "source"])
        let importID = try call.integer("import_id")
        guard let list = call.parameters["pois"]?.arrayValue else { throw .invalidParameter("pois") }
        var pois: [POIDraft] = []
        pois.reserveCapacity(list.count)
        for item in list { pois.append(try POIDraft(parameter: item)) }
        guard let commit = call.parameters["commit"]?.boolValue else { throw .invalidParameter("commit") }
        self.init(importID: importID, pois: pois, commit: commit, source: try call.string("source"))
    }
}

/// `ImportPOIs`' answer: the `import_id` to send the next batch under, how many POIs it has
/// `staged`, and once committed how many were `added` (new ones).
package struct ImportPOIsReply: ControlReply, Hashable {
    package var importID: Int64
    package var staged: Int
    package var added: Int?

    package init(importID: Int64, staged: Int, added: Int?) {
        self.importID = importID
        self.staged = staged
        self.added = added
    }

    package var json: JSONValue {
        [
            "import_id": .integer(importID), "staged": .integer(Int64(staged)),
            "added": added.map { .integer(Int64($0)) } ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            importID: try fields.integer("import_id"),
            staged: Int(clamping: try fields.integer("staged")),
            added: try fields.optionalInteger("added").map { Int(clamping: $0) }
        )
    }
}

extension POIDraft {
    /// The IDL's `NewPOI`.
    package var parameterJSON: JSONValue {
        [
            "name": .string(name), "category": category.map(JSONValue.string) ?? .null,
            "latitude": .double(coordinate.latitude), "longitude": .double(coordinate.longitude),
        ]
    }

    /// Reads the IDL's `NewPOI`; anything else is `InvalidParameter` `pois`.
    package init(parameter: JSONValue) throws(VarlinkError) {
        guard let name = parameter["name"]?.stringValue, let latitude = parameter["latitude"]?.doubleValue,
            let longitude = parameter["longitude"]?.doubleValue, abs(latitude) <= 90, abs(longitude) <= 180
        else { throw .invalidParameter("pois") }
        let category: String?
        switch parameter["category"] {
        case nil, .null?: category = nil
        case .string(let text)?: category = text
        default: throw .invalidParameter("pois")
        }
        self.init(name: name, category: category, coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }
}
