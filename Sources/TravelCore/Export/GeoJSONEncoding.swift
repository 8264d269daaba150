internal import TravelFormats

/// GeoJSON (RFC 7946): a FeatureCollection with a LineString Feature per trip and a Point
/// Feature per stop, note and photo. Properties go through `JSONValue`, so every string is escaped correctly.
///
/// A route that crosses the antimeridian is cut there into a MultiLineString, as RFC 7946
/// §3.1.9 asks: a viewer would otherwise draw a line right round the world.
struct GeoJSONEncoding: ExportEncoding {
    private var featureCount = 0
    /// What the current trip's geometry is, chosen in `beginTrip` from the route's shape.
    private var geometry = Geometry.none
    /// Whether the current trip's positions carry an altitude (all of them, or none).
    private var withAltitude = false
    /// The previous position of the current trip, to find antimeridian crossings.
    private var previous: (longitude: Double, latitude: Double, altitude: Double)?

    private enum Geometry {
        /// No route point: `null`, which RFC 7946 allows for a feature without a location.
        case none
        /// One route point: a LineString needs two positions.
        case point
        case lineString
        case multiLineString
    }

    func begin(title: String, into output: inout [UInt8]) {
        output.appendLiteral(#"{"type":"FeatureCollection","name":"#)
        JSONValue.string(title).serialize(into: &output)
        output.appendLiteral(#","features":["#)
    }

    mutating func stop(_ stop: ExportStop, into output: inout [UInt8]) {
        let properties: JSONValue = [
            "kind": "stop",
            "name": .string(stop.name),
            "arrival": .string(stop.arrival.iso8601),
            "departure": stop.knownDeparture.map { .string($0.iso8601) } ?? .null,
            "moved_unrecorded": .bool(stop.movedUnrecorded),
            "description": .string(stop.description),
        ]
        beginFeature(properties, into: &output)
        output.appendLiteral(#"{"type":"Point","coordinates":"#)
        appendPosition(stop.coordinate.exportLongitude, stop.coordinate.latitude, nil, to: &output)
        output.appendLiteral("}}")
    }

    mutating func moment(_ moment: ExportMoment, into output: inout [UInt8]) {
        let properties: JSONValue = [
            "kind": .string(moment.kind.rawValue),
            "name": .string(moment.name),
            "time": .string(moment.time.iso8601),
            "description": .string(moment.description),
        ]
        beginFeature(properties, into: &output)
        output.appendLiteral(#"{"type":"Point","coordinates":"#)
        appendPosition(moment.coordinate.exportLongitude, moment.coordinate.latitude, nil, to: &output)
        output.appendLiteral("}}")
    }

    mutating func beginTrip(_ trip: ExportTrip, shape: ExportRouteShape, into output: inout [UInt8]) {
        let s = trip.summary
        let properties: JSONValue = [
            "kind": "trip",
            "id": .integer(trip.id),
            "name": .string(trip.name),
            "start": .string(s.startTime.iso8601),
            "end": s.endReason == nil ? .null : .string(s.endTime.iso8601),
            "distance_m": .double((s.distance * 10).rounded() / 10),
            "duration_s": .double(s.duration),
            "start_place": trip.startPlace.map(JSONValue.string) ?? .null,
            "end_place": trip.endPlace.map(JSONValue.string) ?? .null,
            "journey_id": trip.journeyID.map(JSONValue.integer) ?? .null,
        ]
        beginFeature(properties, into: &output)
        previous = nil
        withAltitude = shape.allHaveAltitude
        switch shape.count {
        case 0:
            geometry = .none
            output.appendLiteral("null")
        case 1:
            geometry = .point
            output.appendLiteral(#"{"type":"Point","coordinates":"#)
        default:
            geometry = shape.crossesAntimeridian ? .multiLineString : .lineString
            output.append(
                contentsOf: shape.crossesAntimeridian
                    ? #"{"type":"MultiLineString","coordinates":[["#.utf8
                    : #"{"type":"LineString","coordinates":["#.utf8
            )
        }
    }

    mutating func point(_ point: RoutePoint, into output: inout [UInt8]) {
        let longitude = point.coordinate.exportLongitude
        let latitude = point.coordinate.latitude
        let altitude = withAltitude ? point.exportAltitude : nil
        if let previous {
            if ExportRouteShape.crossesAntimeridian(from: previous.longitude, to: longitude) {
                // Where the straight line (in degrees) between the two points meets ±180°.
                let edge: Double = previous.longitude > 0 ? 180 : -180
                let unwrapped = longitude + 2 * edge
                let fraction = (edge - previous.longitude) / (unwrapped - previous.longitude)
                let cutLatitude = previous.latitude + fraction * (latitude - previous.latitude)
                let cutAltitude = altitude.map { previous.altitude + fraction * ($0 - previous.altitude) }
                output.append(UInt8(ascii: ","))
                appendPosition(edge, cutLatitude, cutAltitude, to: &output)
                output.appendLiteral("],[")
                appendPosition(-edge, cutLatitude, cutAltitude, to: &output)
            }
            output.append(UInt8(ascii: ","))
        }
        appendPosition(longitude, latitude, altitude, to: &output)
        previous = (longitude, latitude, altitude ?? 0)
    }

    func endTrip(into output: inout [UInt8]) {
        switch geometry {
        case .none: output.appendLiteral("}")
        case .point: output.appendLiteral("}}")
        case .lineString: output.appendLiteral("]}}")
        case .multiLineString: output.appendLiteral("]]}}")
        }
    }

    func end(into output: inout [UInt8]) {
        output.appendLiteral("\n]}\n")
    }

    /// Opens a Feature, one per line, up to its `"geometry":` value.
    private mutating func beginFeature(_ properties: JSONValue, into output: inout [UInt8]) {
        if featureCount > 0 { output.append(UInt8(ascii: ",")) }
        featureCount += 1
        output.appendLiteral(#"\#n{"type":"Feature","properties":"#)
        properties.serialize(into: &output)
        output.appendLiteral(#","geometry":"#)
    }

    /// `[lon,lat]` or `[lon,lat,alt]`.
    private func appendPosition(_ longitude: Double, _ latitude: Double, _ altitude: Double?, to output: inout [UInt8])
    {
        output.append(UInt8(ascii: "["))
        ExportBytes.appendDecimal(longitude, fractionDigits: 7, to: &output)
        output.append(UInt8(ascii: ","))
        ExportBytes.appendDecimal(latitude, fractionDigits: 7, to: &output)
        if let altitude {
            output.append(UInt8(ascii: ","))
            ExportBytes.appendDecimal(altitude, fractionDigits: 2, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}
