package import TravelCore
internal import TravelFormats
package import TravelMessages

// Journeys as messages (TravelMessages' Messages), and plans,
// shared by `travelctl --db …` and the daemon's control socket.

extension JourneyRecord {
    /// The journey as `journeys --json` has it, its dates local to `zone`.
    package func message(zone: LocalTimeZone) -> JourneyMessage {
        JourneyMessage(
            id: id,
            type: type,
            destination: destination,
            start: start,
            end: isOpen ? nil : end,
            startDate: LocalDate(start, zone: zone),
            endDate: LocalDate(end, zone: zone),
            isOpen: isOpen,
            distance: (distance * 10).rounded() / 10,
            duration: duration,
            tripIDs: tripIDs,
            isManual: isManual,
            plan: plan.map { JourneyMessage.Plan(id: $0.planID, type: $0.type, from: $0.from, to: $0.through) },
            typeMismatch: typeMismatch != nil
        )
    }
}

extension PlanRecord {
    /// The plan as `plan list --json` has it.
    package var message: PlanMessage {
        PlanMessage(
            id: id,
            destination: destination,
            from: from,
            to: through,
            type: type,
            journeyID: journeyID,
            trips: tripCount
        )
    }
}

extension TravelDatabase {
    /// `journeys --json` as bytes, one journey at a time, with its newline: the reply's
    /// `journeys` without a tree of every journey or a `String` copy of megabytes.
    package func journeysJSON(_ filter: JourneyFilter, zone: LocalTimeZone) throws(StoreError) -> [UInt8] {
        let journeys = try journeys(filter, zone: zone)
        var json = JSONWriter()
        json.beginArray()
        for journey in journeys { journey.message(zone: zone).write(to: &json) }
        json.endArray()
        // Debug builds (the tests) check the bytes against the `JSONValue` form the daemon sends.
        assert(
            json.bytes == JSONValue.array(journeys.map { $0.message(zone: zone).json }).serialized(),
            "journeys --json differs from JourneyMessage.json"
        )
        json.appendRaw("\n")
        return json.bytes
    }

    /// `journey show`: the journey with its trips, notes and photos, its dates local to `zone`;
    /// `nil` when there is no such journey.
    package func journeyDetail(id: Int64, zone: LocalTimeZone) throws(StoreError) -> JourneyDetailMessage? {
        guard let journey = try journey(id: id) else { return nil }
        let trips = try trips(journeyID: id)
        let moments = try moments(journeyID: id)
        return JourneyDetailMessage(
            journey: journey.message(zone: zone),
            trips: trips.map(\.message),
            notes: moments.filter { $0.kind == .note },
            photos: moments.filter { $0.kind == .photo }
        )
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
