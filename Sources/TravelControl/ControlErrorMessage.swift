package import TravelFormats

/// The error replies `travelctl` words, with their parameters typed: written by the daemon
/// (`VarlinkError.tripNotFound` and the others are made from it) and read back by the client.
package enum ControlErrorMessage: Sendable, Hashable {
    case tripNotFound(id: Int64)
    case journeyNotFound(id: Int64)
    case planNotFound(id: Int64)
    case zoneNotFound(zone: String)
    case poiNotFound(poi: String)
    case zoneExists(name: String)
    case placeExists(name: String)
    case placeNotFound(place: String)
    case tooManyConnections(limit: Int)
    case permissionDenied(method: String, uid: Int64)
    /// One of `VarlinkError.refusalsWithReason` (unqualified `name`): `reason` is the offline
    /// command's sentence.
    case refused(name: String, reason: String)
    /// `DatabaseError`, `DatabaseWriteError`, `ConfigurationRefused`, `InvalidMessage`: what failed, in words.
    case failed(name: String, reason: String)

    /// The error's unqualified name (`TripNotFound`).
    package var name: String {
        switch self {
        case .tripNotFound: "TripNotFound"
        case .journeyNotFound: "JourneyNotFound"
        case .planNotFound: "PlanNotFound"
        case .zoneNotFound: "ZoneNotFound"
        case .poiNotFound: "POINotFound"
        case .zoneExists: "ZoneExists"
        case .placeExists: "PlaceExists"
        case .placeNotFound: "PlaceNotFound"
        case .tooManyConnections: "TooManyConnections"
        case .permissionDenied: "PermissionDenied"
        case .refused(let name, _), .failed(let name, _): name
        }
    }

    /// The error's parameters.
    package var json: JSONValue {
        switch self {
        case .tripNotFound(let id), .journeyNotFound(let id), .planNotFound(let id): ["id": .integer(id)]
        case .zoneNotFound(let zone): ["zone": .string(zone)]
        case .poiNotFound(let poi): ["poi": .string(poi)]
        case .zoneExists(let name), .placeExists(let name): ["name": .string(name)]
        case .placeNotFound(let place): ["place": .string(place)]
        case .tooManyConnections(let limit): ["limit": .integer(Int64(limit))]
        case .permissionDenied(let method, let uid): ["method": .string(method), "uid": .integer(uid)]
        case .refused(_, let reason), .failed(_, let reason): ["reason": .string(reason)]
        }
    }

    /// The Varlink error reply.
    package var varlinkError: VarlinkError {
        VarlinkError(name: "\(ControlInterface.name).\(name)", parameters: json)
    }

    /// Reads `error`: `nil` for an error not listed here, a missing or mistyped parameter throws.
    package init?(_ error: VarlinkError) throws(MessageFieldError) {
        let prefix = "\(ControlInterface.name)."
        guard error.name.hasPrefix(prefix) else { return nil }
        let name = String(error.name.dropFirst(prefix.count))
        let fields = try JSONFields(error.parameters, path: name)
        switch name {
        case "TripNotFound": self = .tripNotFound(id: try fields.integer("id"))
        case "JourneyNotFound": self = .journeyNotFound(id: try fields.integer("id"))
        case "PlanNotFound": self = .planNotFound(id: try fields.integer("id"))
        case "ZoneNotFound": self = .zoneNotFound(zone: try fields.string("zone"))
        case "POINotFound": self = .poiNotFound(poi: try fields.string("poi"))
        case "ZoneExists": self = .zoneExists(name: try fields.string("name"))
        case "PlaceExists": self = .placeExists(name: try fields.string("name"))
        case "PlaceNotFound": self = .placeNotFound(place: try fields.string("place"))
        case "TooManyConnections": self = .tooManyConnections(limit: Int(clamping: try fields.integer("limit")))
        case "PermissionDenied":
            self = .permissionDenied(method: try fields.string("method"), uid: try fields.integer("uid"))
        case _ where VarlinkError.refusalsWithReason.contains(error.name):
            self = .refused(name: name, reason: try fields.string("reason"))
        case "DatabaseError", "DatabaseWriteError", "ConfigurationRefused", "InvalidMessage":
            self = .failed(name: name, reason: try fields.string("reason"))
        default: return nil
        }
    }
}
