internal import TravelControl
internal import TravelCore
internal import TravelStore
internal import TravelFormats
internal import TravelMessages
internal import TravelDecoding

extension ControlMethods {
    /// The change methods: their parameters checked here, the change made by `writer`.
    func startChange(_ method: ControlInterface.Method, _ call: VarlinkCall) throws(VarlinkError) -> VarlinkOutcome {
        let writer = writer
        switch method {
        case .startJourney:
            try call.allowParameters(["destination", "at"])
            let (destination, at) = (try call.text("destination"), try call.instant("at"))
            return .later { await writer.startJourney(destination: destination, at: at) }
        case .stopJourney:
            try call.allowParameters(["at"])
            let at = try call.instant("at")
            return .later { await writer.stopJourney(at: at) }
        case .addNote:
            try call.allowParameters(["text", "at"])
            let (text, at) = (try call.text("text"), try call.instant("at"))
            return .later { await writer.addNote(text, at: at) }
        case .addPhoto:
            try call.allowParameters(["path", "sha256", "time", "latitude", "longitude"])
            let path = try call.text("path")
            guard path.hasPrefix("/") else { throw .invalidParameter("path") }
            let sha256 = try call.text("sha256")
            guard sha256.utf8.count == 64,
                sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { throw .invalidParameter("sha256") }
            guard let time = try call.instant("time") else { throw .invalidParameter("time") }
            var coordinate: Coordinate?
            switch (call.parameters["latitude"], call.parameters["longitude"]) {
            case (nil, nil), (.null?, .null?), (nil, .null?), (.null?, nil): coordinate = nil
            case (let latitude?, let longitude?):
                guard let latitude = latitude.doubleValue, latitude.magnitude <= 90 else {
                    throw .invalidParameter("latitude")
                }
                guard let longitude = longitude.doubleValue, longitude.magnitude <= 180 else {
                    throw .invalidParameter("longitude")
                }
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            default: throw .invalidParameter(call.parameters["latitude"] == nil ? "latitude" : "longitude")
            }
            let photo = PhotoDraft(path: path, sha256: sha256, time: time, coordinate: coordinate)
            return .later { await writer.addPhoto(photo) }
        case .removeTrip, .removeNote, .removePhoto:
            let id = try IDParameters(call).id
            switch method {
            case .removeTrip: return .later { await writer.removeTrip(id: id) }
            case .removeNote: return .later { await writer.removeMoment(.note, id: id) }
            default: return .later { await writer.removeMoment(.photo, id: id) }
            }
        case .removeImport:
            try call.allowParameters(["import", "sha256"])
            let (key, sha256) = (try call.text("import"), try call.string("sha256"))
            return .later { await writer.removeImport(key, sha256: sha256) }
        case .addPlan:
            let plan = try AddPlanParameters(call)
            return .later { await writer.addPlan(plan) }
        case .removePlan:
            let id = try IDParameters(call).id
            return .later { await writer.removePlan(id: id) }
        case .addZone:
            try call.allowParameters(["zone"])
            let zone = try NamedZone(parameter: call.parameters["zone"], name: "zone")
            return .later { await writer.addZone(zone) }
        case .removeZone:
            try call.allowParameters(["zone"])
            let zone = try call.text("zone")
            return .later { await writer.removeZone(zone) }
        case .importZones:
            try call.allowParameters(["zones"])
            guard let list = call.parameters["zones"]?.arrayValue else { throw .invalidParameter("zones") }
            var zones: [NamedZone] = []
            for item in list { zones.append(try NamedZone(parameter: item, name: "zones")) }
            let parsed = zones
            return .later { await writer.importZones(parsed) }
        case .addPlace:
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
            let place = Coordinate(latitude: latitude, longitude: longitude)
            return .later { [radius] in await writer.addPlace(name, at: place, radius: radius) }
        case .removePlace:
            try call.allowParameters(["place"])
            let place = try call.text("place")
            return .later { await writer.removePlace(place) }
        case .importPOIs:
            try call.allowParameters(["import_id", "pois", "commit", "source"])
            let importID = try call.integer("import_id")
            guard let list = call.parameters["pois"]?.arrayValue else { throw .invalidParameter("pois") }
            var pois: [POIDraft] = []
            pois.reserveCapacity(list.count)
            for item in list { pois.append(try POIDraft(parameter: item)) }
            guard let commit = call.parameters["commit"]?.boolValue else { throw .invalidParameter("commit") }
            let (source, batch) = (try call.string("source"), pois)
            return .later { await writer.importPOIs(batch, into: importID, commit: commit, source: source) }
        default:
            return .now(.failure(.methodNotImplemented(call.method)))
        }
    }
}

extension NamedZone {
    /// The IDL's `NewZone`; an unreadable shape is `InvalidZone`, a malformed one the parameter.
    fileprivate init(parameter: JSONValue?, name parameterName: String) throws(VarlinkError) {
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

extension POIDraft {
    /// The IDL's `NewPOI`.
    fileprivate init(parameter: JSONValue) throws(VarlinkError) {
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
