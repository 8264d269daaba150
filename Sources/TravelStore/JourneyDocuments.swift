package import TravelCore

// The JSON documents of journeys, plans, notes and photos, shared by `travelctl --db …` and the
// daemon's control socket (see HistoryDocuments.swift).

extension JourneyRecord {
    /// The `journeys --json` shape: DOMAIN.md's fields plus local dates and the trip ids.
    package func json(zone: LocalTimeZone) -> JSONValue {
        [
            "id": .integer(id),
            "type": type.map { .string($0.rawValue) } ?? .null,
            "destination": .string(destination),
            "start": .string(start.iso8601),
            "end": isOpen ? .null : .string(end.iso8601),
            "start_date": .string(String(zone.local(start).iso8601.prefix(10))),
            "end_date": .string(String(zone.local(end).iso8601.prefix(10))),
            "open": .bool(isOpen),
            "distance_m": .double((distance * 10).rounded() / 10),
            "duration_s": .double(duration),
            "trips": .integer(Int64(tripIDs.count)),
            "trip_ids": .array(tripIDs.map(JSONValue.integer)),
            "manual": .bool(isManual),
            "plan_id": plan.map { .integer($0.planID) } ?? .null,
            "planned_type": plan.map { .string($0.type.rawValue) } ?? .null,
            "planned_from": plan.map { .string($0.from.description) } ?? .null,
            "planned_to": plan.map { .string($0.through.description) } ?? .null,
            "type_mismatch": .bool(typeMismatch != nil),
        ]
    }

    /// Writes `json(zone:)` member for member, straight as bytes: the list of every journey
    /// would otherwise build and free a tree of tens of thousands of values.
    package func writeJSON(zone: LocalTimeZone, to json: inout JSONWriter) {
        json.beginObject()
        json.member("id", .integer(id))
        json.member("type", type.map { .string($0.rawValue) } ?? .null)
        json.member("destination", .string(destination))
        json.key("start")
        json.time(start)
        json.key("end")
        if isOpen { json.value(.null) } else { json.time(end) }
        json.key("start_date")
        json.date(zone.local(start))
        json.key("end_date")
        json.date(zone.local(end))
        json.member("open", .bool(isOpen))
        json.member("distance_m", .double((distance * 10).rounded() / 10))
        json.member("duration_s", .double(duration))
        json.member("trips", .integer(Int64(tripIDs.count)))
        json.key("trip_ids")
        json.beginArray()
        for id in tripIDs { json.value(.integer(id)) }
        json.endArray()
        json.member("manual", .bool(isManual))
        json.member("plan_id", plan.map { .integer($0.planID) } ?? .null)
        json.member("planned_type", plan.map { .string($0.type.rawValue) } ?? .null)
        json.member("planned_from", plan.map { .string($0.from.description) } ?? .null)
        json.member("planned_to", plan.map { .string($0.through.description) } ?? .null)
        json.member("type_mismatch", .bool(typeMismatch != nil))
        json.endObject()
    }
}

extension MomentRecord {
    /// The `journey show --json` shape of a note or a photo.
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
}

extension PlanRecord {
    /// The `plan list --json` shape.
    package var json: JSONValue {
        [
            "id": .integer(id),
            "destination": .string(destination),
            "from": .string(from.description),
            "to": .string(through.description),
            "type": .string(type.rawValue),
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
            "trips": .integer(Int64(tripCount)),
        ]
    }
}

extension TravelDatabase {
    /// `ListJourneys`: the journeys passing `filter` (`journeys --json` prints this `journeys`),
    /// with what the table says around them: the zone their local dates use, whether home is
    /// known and whether any trip is stored.
    package func journeysDocument(_ filter: JourneyFilter, rules: JourneyRules) throws(StoreError) -> JSONValue {
        let journeys = try journeys(filter, zone: rules.timeZone)
        return [
            "journeys": .array(journeys.map { $0.json(zone: rules.timeZone) }),
            "time_zone": .string(rules.timeZone.name), "utc_offset": rules.timeZone.utcOffsetJSON,
            "home_known": .bool(try homeIsKnown(rules: rules)),
            "has_trips": .bool(try hasTrips()),
        ]
    }

    /// `journeys --json` as bytes, one journey at a time, with its newline: the document's
    /// `journeys` without a tree of every journey or a `String` copy of megabytes.
    package func journeysJSON(_ filter: JourneyFilter, zone: LocalTimeZone) throws(StoreError) -> [UInt8] {
        let journeys = try journeys(filter, zone: zone)
        var json = JSONWriter()
        json.beginArray()
        for journey in journeys { journey.writeJSON(zone: zone, to: &json) }
        json.endArray()
        // Debug builds (the tests) check the bytes against the `JSONValue` form the daemon sends.
        assert(
            json.bytes == JSONValue.array(journeys.map { $0.json(zone: zone) }).serialized(),
            "journeys --json differs from JourneyRecord.json(zone:)"
        )
        json.appendRaw("\n")
        return json.bytes
    }

    /// `GetJourney`: `journey` is what `journey show --json` prints, the journey with its trips,
    /// notes and photos, with the zone its table's times are local to; `nil` when there is no
    /// such journey.
    package func journeyDocument(id: Int64, zone: LocalTimeZone) throws(StoreError) -> JSONValue? {
        guard let journey = try journey(id: id) else { return nil }
        let trips = try trips(journeyID: id)
        let moments = try moments(journeyID: id)
        guard case .object(var members) = journey.json(zone: zone) else { return nil }
        members.append(.init("trip_list", .array(trips.map(\.json))))
        members.append(.init("notes", .array(moments.filter { $0.kind == .note }.map(\.json))))
        members.append(.init("photos", .array(moments.filter { $0.kind == .photo }.map(\.json))))
        return ["journey": .object(members), "time_zone": .string(zone.name), "utc_offset": zone.utcOffsetJSON]
    }

    /// `plan list --json`: the plans, earliest first.
    package func plansDocument() throws(StoreError) -> JSONValue {
        .array(try plans().map(\.json))
    }

    /// Whether home is known under `rules`: a configured home always is; only a learned one
    /// needs the stops clustered.
    package func homeIsKnown(rules: JourneyRules) throws(StoreError) -> Bool {
        if rules.home != nil { return true }
        return try placesAndHome(rules: rules).home != nil
    }

    /// Whether any trip is stored.
    package func hasTrips() throws(StoreError) -> Bool {
        let query = try connection.prepare("SELECT EXISTS (SELECT 1 FROM trips)")
        return try query.firstRow { query.int64(at: 0) == 1 } ?? false
    }
}
