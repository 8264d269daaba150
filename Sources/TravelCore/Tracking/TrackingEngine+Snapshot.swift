package import TravelFormats

/// The engine's state as JSON, so a restarted daemon resumes the trip it was on.
///
/// Small on purpose (a few hundred bytes): it is written often, to an SD card. The back-dating
/// window is kept only while a departure is being confirmed or a trip is not yet announced (at
/// most a few minutes of samples); otherwise the phase holds all a restart needs.
extension TrackingEngine {
    /// Format version of `snapshot`; a snapshot of another version is refused, not guessed at.
    package static let snapshotVersion: Int64 = 1

    /// The persistable state.
    package var snapshot: JSONValue {
        var members: [JSONValue.Member] = [.init("version", .integer(Self.snapshotVersion))]
        if let last = filterLast {
            members.append(.init("lastAccepted", Self.encode(time: last.time, last.coordinate)))
        }
        let held = filterHeld
        if !held.ahead.isEmpty { members.append(.init("heldAhead", .array(held.ahead.map(Self.encode)))) }
        if !held.behind.isEmpty { members.append(.init("heldBehind", .array(held.behind.map(Self.encode)))) }
        members.append(.init("phase", Self.encode(detectorPhase)))
        let window = detectorWindow
        if !window.isEmpty { members.append(.init("window", .array(window.map(Self.encode)))) }
        return .object(members)
    }

    /// Resumes from `snapshot`.
    package init(configuration: TrackingConfiguration, restoring snapshot: JSONValue) throws(SnapshotError) {
        guard snapshot["version"]?.intValue.map(Int64.init) == Self.snapshotVersion else {
            throw .unsupportedVersion(snapshot["version"]?.description ?? "none")
        }
        var last: (time: UTCTime, coordinate: Coordinate)?
        if let value = snapshot["lastAccepted"] {
            let (time, coordinate) = try Self.decodeTimeAndCoordinate(value)
            last = (time, coordinate)
        }
        var held = FixFilter.Held()
        for value in snapshot["heldAhead"]?.arrayValue ?? [] { held.ahead.append(try Self.fix(value)) }
        for value in snapshot["heldBehind"]?.arrayValue ?? [] { held.behind.append(try Self.fix(value)) }
        let phase = try Self.decodePhase(snapshot["phase"] ?? .null)
        var window: [TripDetector.Sample] = []
        for value in snapshot["window"]?.arrayValue ?? [] { window.append(try Self.sample(value)) }
        self.init(configuration: configuration, filterLast: last, held: held, phase: phase, window: window)
    }

    // MARK: Encoding

    private static func encode(time: UTCTime, _ coordinate: Coordinate) -> JSONValue {
        ["t": .integer(time.milliseconds), "lat": .double(coordinate.latitude), "lon": .double(coordinate.longitude)]
    }

    private static func encode(_ phase: TripDetector.Phase) -> JSONValue {
        switch phase {
        case .idle:
            return "idle"
        case .parked(let p):
            return [
                "parked": [
                    "spot": encode(p.spot), "weight": .double(p.weight), "since": .integer(p.since.milliseconds),
                    "last": encode(p.last), "fixesAway": .integer(Int64(p.fixesAway)),
                ]
            ]
        case .driving(let d):
            return [
                "driving": [
                    "trip": encode(d.trip), "last": encode(d.last), "distanceAnchor": encode(d.distanceAnchor),
                    "distanceAnchorTime": .integer(d.distanceAnchorTime.milliseconds),
                    "announced": .bool(d.announced), "dwellCenter": encode(d.dwellCenter),
                    "dwellWeight": .double(d.dwellWeight), "dwellStart": encode(d.dwellStart),
                ]
            ]
        }
    }

    /// A held fix: what the filter and the detector read of it.
    private static func encode(_ fix: Fix) -> JSONValue {
        let point = RoutePoint(
            time: fix.time ?? UTCTime(milliseconds: 0),
            coordinate: Coordinate(latitude: fix.latitude ?? 0, longitude: fix.longitude ?? 0),
            altitude: fix.altitudeMSL,
            speed: fix.speed,
            track: fix.track,
            horizontalError: fix.horizontalError
        )
        var members = placeMembers(point) + optionalMembers(point)
        if let v = fix.hdop { members.append(.init("hdop", .double(v))) }
        return .object(members)
    }

    /// `t`, `lat`, `lon`: what every encoded point starts with.
    private static func placeMembers(_ p: RoutePoint) -> [JSONValue.Member] {
        [
            .init("t", .integer(p.time.milliseconds)), .init("lat", .double(p.coordinate.latitude)),
            .init("lon", .double(p.coordinate.longitude)),
        ]
    }

    /// `alt`, `speed`, `track`, `err`, each when the point has it.
    private static func optionalMembers(_ p: RoutePoint) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = []
        if let v = p.altitude { members.append(.init("alt", .double(v))) }
        if let v = p.speed { members.append(.init("speed", .double(v))) }
        if let v = p.track { members.append(.init("track", .double(v))) }
        if let v = p.horizontalError { members.append(.init("err", .double(v))) }
        return members
    }

    private static func encode(_ c: Coordinate) -> JSONValue {
        [.double(c.latitude), .double(c.longitude)]
    }

    private static func encode(_ s: TripDetector.Sample) -> JSONValue {
        let totals: [JSONValue.Member] = [
            .init("distance", .double(s.distance)), .init("movingTime", .double(s.movingTime)),
            .init("maximumSpeed", .double(s.maximumSpeed)), .init("points", .integer(Int64(s.pointCount))),
        ]
        return .object(placeMembers(s.point) + totals + optionalMembers(s.point))
    }

    private static func encode(_ t: TripSummary) -> JSONValue {
        [
            "start": .integer(t.startTime.milliseconds), "end": .integer(t.endTime.milliseconds),
            "from": encode(t.start), "to": encode(t.end), "distance": .double(t.distance),
            "movingTime": .double(t.movingTime), "maximumSpeed": .double(t.maximumSpeed),
            "points": .integer(Int64(t.pointCount)),
        ]
    }

    // MARK: Decoding

    private static func decodePhase(_ value: JSONValue) throws(SnapshotError) -> TripDetector.Phase {
        if value.stringValue == "idle" { return .idle }
        if let p = value["parked"] {
            return .parked(
                TripDetector.Parking(
                    spot: try coordinate(p["spot"]),
                    weight: try number(p["weight"]),
                    since: UTCTime(milliseconds: Int64(try number(p["since"]))),
                    last: try sample(p["last"]),
                    fixesAway: Int(try number(p["fixesAway"]))
                )
            )
        }
        if let d = value["driving"] {
            guard let announced = d["announced"]?.boolValue else { throw .malformed("driving.announced") }
            return .driving(
                TripDetector.Drive(
                    trip: try trip(d["trip"]),
                    last: try sample(d["last"]),
                    distanceAnchor: try coordinate(d["distanceAnchor"]),
                    distanceAnchorTime: UTCTime(milliseconds: Int64(try number(d["distanceAnchorTime"]))),
                    announced: announced,
                    dwellCenter: try coordinate(d["dwellCenter"]),
                    dwellWeight: try number(d["dwellWeight"]),
                    dwellStart: try sample(d["dwellStart"])
                )
            )
        }
        throw .malformed("phase")
    }

    private static func decodeTimeAndCoordinate(_ v: JSONValue) throws(SnapshotError) -> (UTCTime, Coordinate) {
        (
            UTCTime(milliseconds: Int64(try number(v["t"]))),
            Coordinate(latitude: try number(v["lat"]), longitude: try number(v["lon"]))
        )
    }

    private static func number(_ value: JSONValue?) throws(SnapshotError) -> Double {
        guard let number = value?.doubleValue, number.isFinite else { throw .malformed("number") }
        return number
    }

    private static func coordinate(_ value: JSONValue?) throws(SnapshotError) -> Coordinate {
        guard let pair = value?.arrayValue, pair.count == 2 else { throw .malformed("coordinate") }
        return Coordinate(latitude: try number(pair[0]), longitude: try number(pair[1]))
    }

    private static func sample(_ v: JSONValue?) throws(SnapshotError) -> TripDetector.Sample {
        guard let v else { throw .malformed("sample") }
        return TripDetector.Sample(
            point: try routePoint(v),
            distance: try number(v["distance"]),
            movingTime: try number(v["movingTime"]),
            maximumSpeed: try number(v["maximumSpeed"]),
            pointCount: Int(try number(v["points"]))
        )
    }

    private static func fix(_ v: JSONValue) throws(SnapshotError) -> Fix {
        var fix = Fix(routePoint: try routePoint(v))
        fix.hdop = v["hdop"]?.doubleValue
        return fix
    }

    /// What `placeMembers` and `optionalMembers` wrote.
    private static func routePoint(_ v: JSONValue) throws(SnapshotError) -> RoutePoint {
        let (time, coordinate) = try decodeTimeAndCoordinate(v)
        return RoutePoint(
            time: time,
            coordinate: coordinate,
            altitude: v["alt"]?.doubleValue,
            speed: v["speed"]?.doubleValue,
            track: v["track"]?.doubleValue,
            horizontalError: v["err"]?.doubleValue
        )
    }

    private static func trip(_ v: JSONValue?) throws(SnapshotError) -> TripSummary {
        guard let v else { throw .malformed("trip") }
        return TripSummary(
            startTime: UTCTime(milliseconds: Int64(try number(v["start"]))),
            endTime: UTCTime(milliseconds: Int64(try number(v["end"]))),
            start: try coordinate(v["from"]),
            end: try coordinate(v["to"]),
            distance: try number(v["distance"]),
            movingTime: try number(v["movingTime"]),
            maximumSpeed: try number(v["maximumSpeed"]),
            pointCount: Int(try number(v["points"]))
        )
    }
}

/// Why a saved engine state could not be resumed; the daemon then starts afresh and says so.
package enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedVersion(String)
    case malformed(String)

    package var description: String {
        switch self {
        case .unsupportedVersion(let v): "saved tracking state has unsupported version \(v)"
        case .malformed(let field): "saved tracking state is malformed (\(field))"
        }
    }
}
