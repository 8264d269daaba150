internal import TravelFormats

/// The unit of the OsmAnd protocol's `speed`: Traccar reads knots unless its server is told
/// otherwise (`osmand.speed`), so the uplink's `[Traccar] Speed` must match the server's.
package enum OsmAndSpeedUnit: String, Sendable, Hashable, CaseIterable {
    case knots
    case kmh
    case mps

    /// Metres per second in this unit.
    package func convert(metresPerSecond speed: Double) -> Double {
        switch self {
        case .knots: speed * 3600 / 1852
        case .kmh: speed * 3.6
        case .mps: speed
        }
    }
}

/// Encodes outbox items as Traccar's OsmAnd protocol: one point per request, as the path and
/// query to append to the server's URL (`/?id=…&timestamp=…&lat=…`). docs/uplink.md lists the
/// parameters.
package struct OsmAndQuery: Sendable, Hashable {
    /// The device's identifier on the Traccar server.
    package var deviceID: String
    package var speedUnit: OsmAndSpeedUnit

    package init(deviceID: String, speedUnit: OsmAndSpeedUnit = .knots) {
        self.deviceID = deviceID
        self.speedUnit = speedUnit
    }

    /// The request for `item`: a route point moving, a trip's end parked at the arrival with
    /// `trip_*` parameters, a zone event or a POI alert at the vehicle's position with `zone`,
    /// `zone_event` or `poi` parameters (Traccar keeps unknown parameters as the position's
    /// attributes). `nil` for events an uplink does not carry.
    package func pathAndQuery(for item: UplinkItem) -> String? {
        switch item.event {
        case .routePoint(_, let point):
            return pathAndQuery(point, motion: true)
        case .tripEnded(let trip):
            var query = Query(deviceID: deviceID, time: trip.endTime, coordinate: trip.end)
            query.add("speed", 0, fractionDigits: 0)
            query.add("accuracy", "\(UplinkNumbers.defaultAccuracy)")
            query.add("motion", "false")
            query.add("trip_start", "\(UplinkNumbers.seconds(trip.startTime))")
            query.add("trip_km", trip.distance / 1000, fractionDigits: 2)
            query.add("trip_min", "\(HumanText.minutes(trip.duration))")
            return query.text
        case .zone(let event):
            var query = Query(deviceID: deviceID, time: event.time, coordinate: event.coordinate)
            query.add("accuracy", "\(UplinkNumbers.defaultAccuracy)")
            query.add("motion", event.tripStart == nil ? "false" : "true")
            query.add("zone", event.zoneName)
            query.add("zone_event", event.kind == .enter ? "enter" : "leave")
            return query.text
        case .nearby(let alert):
            var query = Query(deviceID: deviceID, time: alert.time, coordinate: alert.coordinate)
            query.add("accuracy", "\(UplinkNumbers.defaultAccuracy)")
            query.add("motion", alert.tripStart == nil ? "false" : "true")
            query.add("poi", alert.poiName)
            return query.text
        case .fixRejected, .tripStarted:
            return nil
        }
    }

    /// A parked heartbeat: the point with `motion=false`.
    package func heartbeat(_ point: RoutePoint) -> String {
        pathAndQuery(point, motion: false)
    }

    private func pathAndQuery(_ point: RoutePoint, motion: Bool) -> String {
        var query = Query(deviceID: deviceID, time: point.time, coordinate: point.coordinate)
        if let speed = point.speed, speed.isFinite {
            query.add("speed", speedUnit.convert(metresPerSecond: speed), fractionDigits: 2)
        }
        if let track = point.track, track.isFinite { query.add("bearing", "\(UplinkNumbers.course(track))") }
        if let altitude = point.altitude, altitude.isFinite { query.add("altitude", altitude, fractionDigits: 1) }
        query.add("accuracy", "\(UplinkNumbers.accuracy(point.horizontalError))")
        query.add("motion", motion ? "true" : "false")
        return query.text
    }

    /// `/?id=…&timestamp=…&lat=…&lon=…`, then parameters in the order added.
    private struct Query {
        var bytes = Array("/?".utf8)

        init(deviceID: String, time: UTCTime, coordinate: Coordinate) {
            add("id", deviceID)
            add("timestamp", "\(UplinkNumbers.seconds(time))")
            add("lat", coordinate.latitude, fractionDigits: 7)
            add("lon", coordinate.longitude, fractionDigits: 7)
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func add(_ name: String, _ value: String) {
            if bytes.count > 2 { bytes.append(UInt8(ascii: "&")) }
            bytes += name.utf8
            bytes.append(UInt8(ascii: "="))
            OsmAndQuery.appendPercentEncoded(value, to: &bytes)
        }

        mutating func add(_ name: String, _ value: Double, fractionDigits: Int) {
            var digits: [UInt8] = []
            if value.isFinite, value.magnitude < 1e8 {
                ExportBytes.appendDecimal(value, fractionDigits: fractionDigits, to: &digits)
            }
            add(name, String(decoding: digits, as: UTF8.self))
        }
    }

    /// `value`'s UTF-8 with everything but RFC 3986's unreserved characters (letters, digits,
    /// `-._~`) written `%XX`, so a name with `&`, `=`, spaces or accents stays one parameter.
    static func appendPercentEncoded(_ value: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
    }
}
