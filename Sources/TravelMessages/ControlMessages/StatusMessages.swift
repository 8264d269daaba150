package import TravelCore
package import TravelFormats

/// `Status`' answer: the running daemon on one screen (`travelctl status`).
package struct StatusReply: ControlReply, Hashable {
    package var source: String
    /// Whether the source is connected now.
    package var connected: Bool
    /// The latest fix, `nil` before the first.
    package var fix: StatusFixMessage?
    /// The trip being driven, `nil` while parked.
    package var trip: StatusTripMessage?
    /// The latest journey while it is open (away from home).
    package var journey: StatusJourneyMessage?
    package var counters: StatusCountersMessage
    /// The database file's path and size (with its `-wal`).
    package var database: String
    package var databaseBytes: Int64
    /// Why writing fails, while it does.
    package var databaseError: String?
    package var pendingWrites: Int
    package var pointsDropped: Int
    package var uptime: Double
    /// The system clock minus GPS time, seconds; `nil` until measured.
    package var clockOffset: Double?
    /// Clients connected, following (`Subscribe`), and refused or dropped since the start.
    package var connections: Int
    package var subscribers: Int
    package var clientsDropped: Int
    /// The `[Journeys]` time zone local times are shown in.
    package var timeZone: String
    package var uplinks: [UplinkStatusMessage]

    package init(
        source: String,
        connected: Bool,
        fix: StatusFixMessage?,
        trip: StatusTripMessage?,
        journey: StatusJourneyMessage?,
        counters: StatusCountersMessage,
        database: String,
        databaseBytes: Int64,
        databaseError: String?,
        pendingWrites: Int,
        pointsDropped: Int,
        uptime: Double,
        clockOffset: Double?,
        connections: Int,
        subscribers: Int,
        clientsDropped: Int,
        timeZone: String,
        uplinks: [UplinkStatusMessage]
    ) {
        self.source = source
        self.connected = connected
        self.fix = fix
        self.trip = trip
        self.journey = journey
        self.counters = counters
        self.database = database
        self.databaseBytes = databaseBytes
        self.databaseError = databaseError
        self.pendingWrites = pendingWrites
        self.pointsDropped = pointsDropped
        self.uptime = uptime
        self.clockOffset = clockOffset
        self.connections = connections
        self.subscribers = subscribers
        self.clientsDropped = clientsDropped
        self.timeZone = timeZone
        self.uplinks = uplinks
    }

    package var json: JSONValue {
        [
            "source": .string(source),
            "connected": .bool(connected),
            "fix": fix?.json ?? .null,
            "trip": trip?.json ?? .null,
            "journey": journey?.json ?? .null,
            "counters": counters.json,
            "database": .string(database),
            "database_bytes": .integer(databaseBytes),
            "database_error": databaseError.map(JSONValue.string) ?? .null,
            "pending_writes": .integer(Int64(pendingWrites)),
            "points_dropped": .integer(Int64(pointsDropped)),
            "uptime_s": .double(uptime),
            "clock_offset_s": clockOffset.map(JSONValue.double) ?? .null,
            "connections": .integer(Int64(connections)),
            "subscribers": .integer(Int64(subscribers)),
            "clients_dropped": .integer(Int64(clientsDropped)),
            "time_zone": .string(timeZone),
            "uplinks": .array(uplinks.map(\.json)),
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            source: try fields.string("source"),
            connected: try fields.bool("connected"),
            fix: try fields.optionalObject("fix", StatusFixMessage.init),
            trip: try fields.optionalObject("trip", StatusTripMessage.init),
            journey: try fields.optionalObject("journey", StatusJourneyMessage.init),
            counters: try fields.object("counters", StatusCountersMessage.init),
            database: try fields.string("database"),
            databaseBytes: try fields.integer("database_bytes"),
            databaseError: try fields.optionalString("database_error"),
            pendingWrites: Int(clamping: try fields.integer("pending_writes")),
            pointsDropped: Int(clamping: try fields.integer("points_dropped")),
            uptime: try fields.number("uptime_s"),
            clockOffset: try fields.optionalNumber("clock_offset_s"),
            connections: Int(clamping: try fields.integer("connections")),
            subscribers: Int(clamping: try fields.integer("subscribers")),
            clientsDropped: Int(clamping: try fields.integer("clients_dropped")),
            timeZone: try fields.string("time_zone"),
            uplinks: try fields.array("uplinks", UplinkStatusMessage.init)
        )
    }
}

/// `Status`' `fix`: the latest fix as the source gave it, and how long ago it came.
package struct StatusFixMessage: Sendable, Hashable {
    /// `3d`, `2d`, `no-fix` or `unknown`.
    package enum Mode: String, Sendable, Hashable {
        case threeD = "3d"
        case twoD = "2d"
        case noFix = "no-fix"
        case unknown
    }

    package var time: UTCTime?
    package var coordinate: Coordinate?
    /// Above mean sea level, else the ellipsoid.
    package var altitude: Double?
    package var speed: Double?
    package var track: Double?
    package var mode: Mode
    package var satellites: Int?
    package var horizontalError: Double?
    /// Seconds since it arrived.
    package var age: Double

    package init(
        time: UTCTime?,
        coordinate: Coordinate?,
        altitude: Double?,
        speed: Double?,
        track: Double?,
        mode: Mode,
        satellites: Int?,
        horizontalError: Double?,
        age: Double
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.mode = mode
        self.satellites = satellites
        self.horizontalError = horizontalError
        self.age = age
    }

    package var json: JSONValue {
        [
            "time": time.map { .string($0.iso8601) } ?? .null,
            "latitude": coordinate.map { .double($0.latitude) } ?? .null,
            "longitude": coordinate.map { .double($0.longitude) } ?? .null,
            "altitude_m": altitude.map(JSONValue.double) ?? .null,
            "speed_mps": speed.map(JSONValue.double) ?? .null,
            "track_deg": track.map(JSONValue.double) ?? .null,
            "mode": .string(mode.rawValue),
            "satellites": satellites.map { .integer(Int64($0)) } ?? .null,
            "horizontal_error_m": horizontalError.map(JSONValue.double) ?? .null,
            "age_s": .double(age),
        ]
    }

    /// Reads back what `json` wrote; a position has both `latitude` and `longitude` or neither.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let (latitude, longitude) = (try fields.optionalNumber("latitude"), try fields.optionalNumber("longitude"))
        if (latitude == nil) != (longitude == nil) {
            throw MessageFieldError(
                path: fields.path(of: latitude == nil ? "latitude" : "longitude"),
                expected: "a number"
            )
        }
        self.init(
            time: try fields.optionalTime("time"),
            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) }
            },
            altitude: try fields.optionalNumber("altitude_m"),
            speed: try fields.optionalNumber("speed_mps"),
            track: try fields.optionalNumber("track_deg"),
            mode: try fields.enumeration("mode"),
            satellites: try fields.optionalInteger("satellites").map { Int(clamping: $0) },
            horizontalError: try fields.optionalNumber("horizontal_error_m"),
            age: try fields.number("age_s")
        )
    }
}

/// `Status`' `trip`: the trip being driven, so far.
package struct StatusTripMessage: Sendable, Hashable {
    package var start: UTCTime
    /// Metres, to 0.1.
    package var distance: Double
    package var duration: Double
    package var points: Int

    package init(start: UTCTime, distance: Double, duration: Double, points: Int) {
        self.start = start
        self.distance = distance
        self.duration = duration
        self.points = points
    }

    package var json: JSONValue {
        [
            "start": .string(start.iso8601), "distance_m": .double(distance), "duration_s": .double(duration),
            "points": .integer(Int64(points)),
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            start: try fields.time("start"),
            distance: try fields.number("distance_m"),
            duration: try fields.number("duration_s"),
            points: Int(clamping: try fields.integer("points"))
        )
    }
}

/// `Status`' `journey`: the open journey, so far.
package struct StatusJourneyMessage: Sendable, Hashable {
    package var id: Int64
    package var destination: String
    package var start: UTCTime
    /// Metres, to 0.1.
    package var distance: Double
    package var trips: Int

    package init(id: Int64, destination: String, start: UTCTime, distance: Double, trips: Int) {
        self.id = id
        self.destination = destination
        self.start = start
        self.distance = distance
        self.trips = trips
    }

    package var json: JSONValue {
        [
            "id": .integer(id), "destination": .string(destination), "start": .string(start.iso8601),
            "distance_m": .double(distance), "trips": .integer(Int64(trips)),
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            id: try fields.integer("id"),
            destination: try fields.string("destination"),
            start: try fields.time("start"),
            distance: try fields.number("distance_m"),
            trips: Int(clamping: try fields.integer("trips"))
        )
    }
}

/// `Status`' `counters`, since the daemon started.
package struct StatusCountersMessage: Sendable, Hashable {
    package var fixesRead: Int
    package var accepted: Int
    package var rejected: Int
    /// Rejected fixes per reason, in the order written (by name).
    package var rejectedByReason: [(reason: String, count: Int)]
    package var tripsStarted: Int
    package var tripsEnded: Int

    package init(
        fixesRead: Int,
        accepted: Int,
        rejected: Int,
        rejectedByReason: [(reason: String, count: Int)],
        tripsStarted: Int,
        tripsEnded: Int
    ) {
        self.fixesRead = fixesRead
        self.accepted = accepted
        self.rejected = rejected
        self.rejectedByReason = rejectedByReason
        self.tripsStarted = tripsStarted
        self.tripsEnded = tripsEnded
    }

    package static func == (a: Self, b: Self) -> Bool { a.json == b.json }

    package func hash(into hasher: inout Hasher) { hasher.combine(json) }

    package var json: JSONValue {
        [
            "fixes_read": .integer(Int64(fixesRead)),
            "accepted": .integer(Int64(accepted)),
            "rejected": .integer(Int64(rejected)),
            "rejected_by_reason": .object(rejectedByReason.map { .init($0.reason, .integer(Int64($0.count))) }),
            "trips_started": .integer(Int64(tripsStarted)),
            "trips_ended": .integer(Int64(tripsEnded)),
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let reasons = try fields.object("rejected_by_reason") { $0 }
        var byReason: [(reason: String, count: Int)] = []
        for member in reasons.object.objectMembers ?? [] {
            byReason.append((member.key, Int(clamping: try reasons.integer(member.key))))
        }
        self.init(
            fixesRead: Int(clamping: try fields.integer("fixes_read")),
            accepted: Int(clamping: try fields.integer("accepted")),
            rejected: Int(clamping: try fields.integer("rejected")),
            rejectedByReason: byReason,
            tripsStarted: Int(clamping: try fields.integer("trips_started")),
            tripsEnded: Int(clamping: try fields.integer("trips_ended"))
        )
    }
}

/// `Status`' `uplinks` element: one uplink's connection, backlog and counters.
package struct UplinkStatusMessage: Sendable, Hashable {
    package var name: String
    package var server: String
    package var connected: Bool
    /// Items waiting to be sent; `nil` when it could not be counted.
    package var backlog: Int?
    package var inFlight: Int
    package var sent: Int
    package var delivered: Int
    package var thinned: Int
    package var expired: Int
    package var failed: Int
    package var refused: Int
    /// GPS time of the item the server acknowledged last.
    package var lastDelivered: UTCTime?
    package var lastError: String?
    /// Seconds until it sends again, while it waits.
    package var paused: Double?

    package init(
        name: String,
        server: String,
        connected: Bool,
        backlog: Int?,
        inFlight: Int,
        sent: Int,
        delivered: Int,
        thinned: Int,
        expired: Int,
        failed: Int,
        refused: Int,
        lastDelivered: UTCTime?,
        lastError: String?,
        paused: Double?
    ) {
        self.name = name
        self.server = server
        self.connected = connected
        self.backlog = backlog
        self.inFlight = inFlight
        self.sent = sent
        self.delivered = delivered
        self.thinned = thinned
        self.expired = expired
        self.failed = failed
        self.refused = refused
        self.lastDelivered = lastDelivered
        self.lastError = lastError
        self.paused = paused
    }

    package var json: JSONValue {
        [
            "name": .string(name),
            "server": .string(server),
            "connected": .bool(connected),
            "backlog": backlog.map { .integer(Int64($0)) } ?? .null,
            "in_flight": .integer(Int64(inFlight)),
            "sent": .integer(Int64(sent)),
            "delivered": .integer(Int64(delivered)),
            "thinned": .integer(Int64(thinned)),
            "expired": .integer(Int64(expired)),
            "failed": .integer(Int64(failed)),
            "refused": .integer(Int64(refused)),
            "last_delivered": lastDelivered.map { .string($0.iso8601) } ?? .null,
            "last_error": lastError.map(JSONValue.string) ?? .null,
            "paused_s": paused.map(JSONValue.double) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let count = { (key: String) throws(MessageFieldError) -> Int in Int(clamping: try fields.integer(key)) }
        self.init(
            name: try fields.string("name"),
            server: try fields.string("server"),
            connected: try fields.bool("connected"),
            backlog: try fields.optionalInteger("backlog").map { Int(clamping: $0) },
            inFlight: try count("in_flight"),
            sent: try count("sent"),
            delivered: try count("delivered"),
            thinned: try count("thinned"),
            expired: try count("expired"),
            failed: try count("failed"),
            refused: try count("refused"),
            lastDelivered: try fields.optionalTime("last_delivered"),
            lastError: try fields.optionalString("last_error"),
            paused: try fields.optionalNumber("paused_s")
        )
    }
}
