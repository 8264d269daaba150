package import TravelCore
package import TravelFormats

// Journeys, notes and photos as the control socket, `--json` and the report carry them
// (docs/control.md), rounding included (see TripMessages.swift).

/// A journey on the wire: `journeys --json` and `journey show`'s journey.
package struct JourneyMessage: Sendable, Hashable {
    package var id: Int64
    /// `nil` for a journey within one local day while home is unknown.
    package var type: JourneyType?
    package var destination: String
    package var start: UTCTime
    /// `nil` while the journey is open (away from home).
    package var end: UTCTime?
    /// Local calendar dates of the start and of the end (the latest point while open).
    package var startDate: LocalDate
    package var endDate: LocalDate
    package var isOpen: Bool
    /// Metres, to 0.1 m.
    package var distance: Double
    /// Seconds from leaving to coming back (to the latest point while open).
    package var duration: Double
    package var tripIDs: [Int64]
    /// Whether it was started (and stopped) by hand.
    package var isManual: Bool
    /// The plan that declared it, if one did.
    package var plan: Plan?
    /// Whether what happened differs from the plan's type.
    package var typeMismatch: Bool

    /// What a plan declared: its id, expected type and local dates.
    package struct Plan: Sendable, Hashable {
        package var id: Int64
        package var type: JourneyType
        package var from: LocalDate
        package var to: LocalDate

        package init(id: Int64, type: JourneyType, from: LocalDate, to: LocalDate) {
            self.id = id
            self.type = type
            self.from = from
            self.to = to
        }
    }

    package init(
        id: Int64,
        type: JourneyType?,
        destination: String,
        start: UTCTime,
        end: UTCTime?,
        startDate: LocalDate,
        endDate: LocalDate,
        isOpen: Bool,
        distance: Double,
        duration: Double,
        tripIDs: [Int64],
        isManual: Bool,
        plan: Plan?,
        typeMismatch: Bool
    ) {
        self.id = id
        self.type = type
        self.destination = destination
        self.start = start
        self.end = end
        self.startDate = startDate
        self.endDate = endDate
        self.isOpen = isOpen
        self.distance = distance
        self.duration = duration
        self.tripIDs = tripIDs
        self.isManual = isManual
        self.plan = plan
        self.typeMismatch = typeMismatch
    }

    /// The members, in docs/control.md's order (`write(to:)` writes the same as bytes).
    package var members: [JSONValue.Member] {
        [
            .init("id", .integer(id)),
            .init("type", type.map { .string($0.rawValue) } ?? .null),
            .init("destination", .string(destination)),
            .init("start", .string(start.iso8601)),
            .init("end", end.map { .string($0.iso8601) } ?? .null),
            .init("start_date", .string(startDate.description)),
            .init("end_date", .string(endDate.description)),
            .init("open", .bool(isOpen)),
            .init("distance_m", .double(distance)),
            .init("duration_s", .double(duration)),
            .init("trips", .integer(Int64(tripIDs.count))),
            .init("trip_ids", .array(tripIDs.map(JSONValue.integer))),
            .init("manual", .bool(isManual)),
            .init("plan_id", plan.map { .integer($0.id) } ?? .null),
            .init("planned_type", plan.map { .string($0.type.rawValue) } ?? .null),
            .init("planned_from", plan.map { .string($0.from.description) } ?? .null),
            .init("planned_to", plan.map { .string($0.to.description) } ?? .null),
            .init("type_mismatch", .bool(typeMismatch)),
        ]
    }

    /// `journeys --json`'s element.
    package var json: JSONValue { .object(members) }

    /// Writes `json` member for member, straight as bytes: the list of every journey would
    /// otherwise build and free a tree of tens of thousands of values.
    package func write(to json: inout JSONWriter) {
        json.beginObject()
        json.member("id", .integer(id))
        json.member("type", type.map { .string($0.rawValue) } ?? .null)
        json.member("destination", .string(destination))
        json.key("start")
        json.time(start)
        json.key("end")
        if let end { json.time(end) } else { json.value(.null) }
        json.key("start_date")
        json.date(UTCTime(milliseconds: startDate.day * 86_400_000))
        json.key("end_date")
        json.date(UTCTime(milliseconds: endDate.day * 86_400_000))
        json.member("open", .bool(isOpen))
        json.member("distance_m", .double(distance))
        json.member("duration_s", .double(duration))
        json.member("trips", .integer(Int64(tripIDs.count)))
        json.key("trip_ids")
        json.beginArray()
        for id in tripIDs { json.value(.integer(id)) }
        json.endArray()
        json.member("manual", .bool(isManual))
        json.member("plan_id", plan.map { .integer($0.id) } ?? .null)
        json.member("planned_type", plan.map { .string($0.type.rawValue) } ?? .null)
        json.member("planned_from", plan.map { .string($0.from.description) } ?? .null)
        json.member("planned_to", plan.map { .string($0.to.description) } ?? .null)
        json.member("type_mismatch", .bool(typeMismatch))
        json.endObject()
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        var plan: Plan?
        if let planID = try fields.optionalInteger("plan_id") {
            plan = Plan(
                id: planID,
                type: try fields.enumeration("planned_type"),
                from: try fields.date("planned_from"),
                to: try fields.date("planned_to")
            )
        }
        let tripIDs = try fields.integers("trip_ids")
        guard try fields.integer("trips") == tripIDs.count else {
            throw MessageFieldError(path: fields.path(of: "trips"), expected: "the number of trip_ids")
        }
        self.init(
            id: try fields.integer("id"),
            type: try fields.optionalEnumeration("type"),
            destination: try fields.string("destination"),
            start: try fields.time("start"),
            end: try fields.optionalTime("end"),
            startDate: try fields.date("start_date"),
            endDate: try fields.date("end_date"),
            isOpen: try fields.bool("open"),
            distance: try fields.number("distance_m"),
            duration: try fields.number("duration_s"),
            tripIDs: tripIDs,
            isManual: try fields.bool("manual"),
            plan: plan,
            typeMismatch: try fields.bool("type_mismatch")
        )
    }
}

/// A note or a photo: something attached to a moment of the history, as the store keeps it and
/// as `journey show` and the report have it.
package struct MomentMessage: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case note
        case photo
    }

    package var id: Int64
    package var kind: Kind
    package var time: UTCTime
    /// The note's text (`text`), or the photo's absolute path (`path`; the file is never copied).
    package var text: String
    /// The photo file's SHA-256, lowercase hex; `nil` for a note.
    package var sha256: String?
    /// Where the vehicle was at `time`, when the route or a stop tells.
    package var coordinate: Coordinate?
    /// The journey whose time span holds `time`, if any.
    package var journeyID: Int64?

    package init(
        id: Int64,
        kind: Kind,
        time: UTCTime,
        text: String,
        sha256: String? = nil,
        coordinate: Coordinate? = nil,
        journeyID: Int64? = nil
    ) {
        self.id = id
        self.kind = kind
        self.time = time
        self.text = text
        self.sha256 = sha256
        self.coordinate = coordinate
        self.journeyID = journeyID
    }

    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .integer(id)),
            .init("time", .string(time.iso8601)),
            .init(kind == .note ? "text" : "path", .string(text)),
        ]
        if let sha256 { members.append(.init("sha256", .string(sha256))) }
        members += [
            .init("lat", coordinate.map { .double($0.latitude) } ?? .null),
            .init("lon", coordinate.map { .double($0.longitude) } ?? .null),
            .init("journey_id", journeyID.map(JSONValue.integer) ?? .null),
        ]
        return .object(members)
    }

    /// Reads back what `json` wrote for a moment of `kind`; a missing or mistyped member throws.
    package init(_ fields: JSONFields, kind: Kind) throws(MessageFieldError) {
        let latitude = try fields.optionalNumber("lat")
        let longitude = try fields.optionalNumber("lon")
        self.init(
            id: try fields.integer("id"),
            kind: kind,
            time: try fields.time("time"),
            text: try fields.string(kind == .note ? "text" : "path"),
            sha256: try fields.optionalString("sha256"),
            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) }
            },
            journeyID: try fields.optionalInteger("journey_id")
        )
    }
}

/// `journey show`: a journey with its trips, notes and photos.
package struct JourneyDetailMessage: Sendable, Hashable {
    package var journey: JourneyMessage
    package var trips: [TripMessage]
    package var notes: [MomentMessage]
    package var photos: [MomentMessage]

    package init(journey: JourneyMessage, trips: [TripMessage], notes: [MomentMessage], photos: [MomentMessage]) {
        self.journey = journey
        self.trips = trips
        self.notes = notes
        self.photos = photos
    }

    /// The journey's members, then `trip_list`, `notes` and `photos`.
    package var json: JSONValue {
        .object(
            journey.members + [
                .init("trip_list", .array(trips.map(\.json))),
                .init("notes", .array(notes.map(\.json))),
                .init("photos", .array(photos.map(\.json))),
            ]
        )
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            journey: try JourneyMessage(fields),
            trips: try fields.array("trip_list", TripMessage.init),
            notes: try fields.array("notes") { note throws(MessageFieldError) in try MomentMessage(note, kind: .note) },
            photos: try fields.array("photos") { photo throws(MessageFieldError) in
                try MomentMessage(photo, kind: .photo)
            }
        )
    }
}
