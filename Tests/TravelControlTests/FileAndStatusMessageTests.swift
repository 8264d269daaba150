import Testing
import TravelControl
import TravelCore
import TravelFormats
import TravelMessages

/// The typed replies and parameters of imports, exports, reports, backups, `Status`,
/// `Subscribe` and the error replies: what one side writes, the other reads back as it was; a
/// member missing or of another type is an error that names it.
@Suite struct FileAndStatusMessageTests {
    static let file = ImportedFileMessage(
        sha256: "3f2a9c81d0e4" + String(repeating: "ab", count: 26),
        path: "/logs/track.nmea",
        bytes: 123_456,
        importedAt: UTCTime(milliseconds: 1_777_622_400_123),
        fixes: 5_400,
        tripsFound: 3,
        trips: 2
    )

    static let status = StatusReply(
        source: "gpsd localhost:2947",
        connected: true,
        fix: StatusFixMessage(
            time: UTCTime(milliseconds: 1_777_622_400_000),
            coordinate: Coordinate(latitude: 52.66, longitude: -8.63),
            altitude: 31.5,
            speed: 13.9,
            track: nil,
            mode: .threeD,
            satellites: 9,
            horizontalError: 4.2,
            age: 0.8
        ),
        trip: StatusTripMessage(
            start: UTCTime(milliseconds: 1_777_620_000_000),
            distance: 1234.5,
            duration: 600,
            points: 12
        ),
        journey: StatusJourneyMessage(
            id: 4,
            destination: "Galway",
            start: UTCTime(milliseconds: 1_777_600_000_000),
            distance: 90_000.1,
            trips: 2
        ),
        counters: StatusCountersMessage(
            fixesRead: 100,
            accepted: 90,
            rejected: 10,
            rejectedByReason: [("jump", 4), ("no-position", 6)],
            tripsStarted: 1,
            tripsEnded: 0
        ),
        database: "/var/lib/travel-companion/history.db",
        databaseBytes: 850_000,
        databaseError: nil,
        pendingWrites: 0,
        pointsDropped: 0,
        uptime: 3600.25,
        clockOffset: -0.5,
        connections: 1,
        subscribers: 0,
        clientsDropped: 0,
        timeZone: "Europe/Dublin",
        uplinks: [
            UplinkStatusMessage(
                name: "mqtt",
                server: "mqtt://broker:1883",
                connected: false,
                backlog: nil,
                inFlight: 0,
                sent: 5,
                delivered: 4,
                thinned: 1,
                expired: 0,
                failed: 2,
                refused: 0,
                lastDelivered: UTCTime(milliseconds: 1_777_622_300_000),
                lastError: "connection refused",
                paused: 12.5
            )
        ]
    )

    /// `message` read back from its JSON, through the serialized text as the socket carries it.
    static func readBack<M: ControlReply>(_ message: M) throws -> M {
        try M(json: try JSONValue(parsing: message.json.serializedString()))
    }

    @Test func importsReadBackAsTheyWereWritten() throws {
        #expect(try ImportedFileMessage(JSONFields(Self.file.json)) == Self.file)
        #expect(Self.file.json["id"] == .string("3f2a9c81d0e4"))
        let list = ListImportsReply(imports: [Self.file])
        #expect(try Self.readBack(list) == list)
        let removed = RemoveImportReply(file: Self.file, tripsRemoved: 2)
        #expect(try Self.readBack(removed) == removed)
        #expect(removed.json["trips_removed"] == .integer(2))
        let parameters = RemoveImportParameters(name: "track.nmea", sha256: nil)
        #expect(try RemoveImportParameters(VarlinkCall(method: "m", parameters: parameters.json)) == parameters)
    }

    @Test func exportsReportsAndChunksReadBackAsTheyWereWritten() throws {
        let selections: [ExportSelection] = [
            .all, .trip(3), .journey(4),
            .range(since: .instant(UTCTime(milliseconds: 1_777_622_400_000)), through: nil),
            .range(since: nil, through: .date(LocalDate(day: 20_000))),
        ]
        for trips in selections {
            let export = ExportParameters(format: .gpx, trips: trips)
            #expect(try ExportParameters(VarlinkCall(method: "m", parameters: export.json)) == export)
            #expect(export.json.objectMembers?.map(\.key) == ["format", "trip", "journey", "since", "until"])
            let report = ReportParameters(trips: trips)
            #expect(try ReportParameters(VarlinkCall(method: "m", parameters: report.json)) == report)
        }
        #expect(throws: VarlinkError.invalidParameter("journey")) {
            try ReportParameters(VarlinkCall(method: "m", parameters: ["trip": 1, "journey": 2]))
        }
        let chunk = ChunkReply(chunk: "<gpx>é")
        #expect(try Self.readBack(chunk) == chunk)
        #expect(throws: MessageFieldError(path: "chunk", expected: "a string")) { try ChunkReply(json: ["chunk": 3]) }
    }

    @Test func statusReadsBackAsItWasWritten() throws {
        #expect(try Self.readBack(Self.status) == Self.status)
        var parked = Self.status
        (parked.fix, parked.trip, parked.journey, parked.uplinks) = (nil, nil, nil, [])
        #expect(try Self.readBack(parked) == parked)
        #expect(parked.json["fix"] == .null && parked.json["trip"] == .null)
        let names = Self.status.json.objectMembers?.map(\.key)
        #expect(
            names == [
                "source", "connected", "fix", "trip", "journey", "counters", "database", "database_bytes",
                "database_error", "pending_writes", "points_dropped", "uptime_s", "clock_offset_s", "connections",
                "subscribers", "clients_dropped", "time_zone", "uplinks",
            ]
        )
    }

    @Test(arguments: [
        ("connected", "connected", "true or false"), ("uptime_s", "uptime_s", "a number"),
        ("fix.mode", "fix.mode", "one of its known words"),
        ("counters.rejected_by_reason.jump", "counters.rejected_by_reason.jump", "an integer"),
        ("uplinks.0.delivered", "uplinks[0].delivered", "an integer"),
    ])
    func aMissingOrMistypedStatusMemberIsNamed(_ c: (member: String, path: String, expected: String)) throws {
        let broken = Self.replacing(c.member.split(separator: ".").map(String.init), in: Self.status.json, with: "x")
        #expect(throws: MessageFieldError(path: c.path, expected: c.expected)) { try StatusReply(json: broken) }
    }

    /// `value` with the member at `path` (object keys, or an array index) replaced by `new`.
    static func replacing(_ path: [String], in value: JSONValue, with new: JSONValue) -> JSONValue {
        guard let key = path.first else { return new }
        if case .array(var elements) = value, let index = Int(key) {
            elements[index] = replacing(Array(path.dropFirst()), in: elements[index], with: new)
            return .array(elements)
        }
        let members = (value.objectMembers ?? []).map { member in
            member.key == key ? .init(key, replacing(Array(path.dropFirst()), in: member.value, with: new)) : member
        }
        return .object(members)
    }

    @Test func errorRepliesReadBackTheirParameters() throws {
        let errors: [ControlErrorMessage] = [
            .tripNotFound(id: 3), .journeyNotFound(id: 4), .planNotFound(id: 5), .zoneNotFound(zone: "Home"),
            .poiNotFound(poi: "Pub"), .zoneExists(name: "Home"), .placeExists(name: "Work"),
            .placeNotFound(place: "Work"), .tooManyConnections(limit: 64),
            .permissionDenied(method: "AddZone", uid: 1000), .refused(name: "TripInProgress", reason: "no"),
            .failed(name: "DatabaseError", reason: "disk I/O error"),
        ]
        for error in errors { #expect(try ControlErrorMessage(error.varlinkError) == error) }
        #expect(VarlinkError.tripNotFound(3) == ControlErrorMessage.tripNotFound(id: 3).varlinkError)
        #expect(throws: MessageFieldError(path: "TripNotFound.id", expected: "an integer")) {
            try ControlErrorMessage(VarlinkError(name: "\(ControlInterface.name).TripNotFound", parameters: [:]))
        }
        #expect(try ControlErrorMessage(.invalidParameter("id")) == nil)
    }

    @Test func anEventReadsBackAsSubscribeWroteIt() throws {
        let event = EventMessage(
            kind: "zone-entered",
            messageID: nil,
            time: UTCTime(milliseconds: 1_777_622_400_000),
            message: "entered zone Home",
            fields: [.init("zone_id", .integer(3)), .init("while_off", .bool(false)), .init("trip_start", .null)]
        )
        let reply = SubscribeReply(event: event)
        #expect(try Self.readBack(reply) == reply)
        #expect(event.json.objectMembers?.map(\.key) == ["kind", "time", "message", "fields"])
        #expect(throws: MessageFieldError(path: "event.message", expected: "a string")) {
            try SubscribeReply(json: ["event": ["kind": "log", "time": .null, "fields": [:]]])
        }
    }
}
