package import TravelCore
package import TravelMessages

// The changes `travelctl` makes, whether with `--db` or through the daemon's control socket:
// one function each, so both paths change the database alike. Those that move trips between
// journeys regroup under the caller's `[Journeys]` rules before they return.
extension TravelDatabase {
    /// `journey start`: opens a journey by hand at `start`, regroups, and answers as the daemon
    /// does, its times local to the rules' zone.
    package func startJourney(destination: String, at start: UTCTime, rules: JourneyRules) throws -> StartJourneyReply {
        let id = try startJourney(destination: destination, at: start)
        try regroupJourneys(rules: rules)
        let zone = rules.timeZone
        return StartJourneyReply(id: id, start: start, timeZone: zone.name, utcOffset: zone.fixedOffset?.description)
    }

    /// `journey stop`: closes the journey started by hand at `end`, regroups, and answers with
    /// it as grouped (its trips and distance), as the daemon does.
    package func stopJourney(at end: UTCTime, rules: JourneyRules) throws -> StopJourneyReply {
        let id = try stopJourney(at: end)
        try regroupJourneys(rules: rules)
        let journey = try journey(id: id)
        return StopJourneyReply(
            id: id,
            end: end,
            trips: journey?.tripIDs.count ?? 0,
            distance: journey?.distance ?? 0,
            timeZone: rules.timeZone.name,
            utcOffset: rules.timeZone.fixedOffset?.description
        )
    }

    /// `plan add`: stores the plan, regroups, and returns it with the journey its trips joined.
    package func addPlan(
        destination: String,
        from: LocalDate,
        through: LocalDate,
        type: JourneyType,
        rules: JourneyRules
    ) throws -> PlanRecord {
        let plan = try addPlan(destination: destination, from: from, through: through, type: type)
        try regroupJourneys(rules: rules)
        return try plans().first { $0.id == plan.id } ?? plan
    }

    /// `plan add` and `AddPlan`: `addPlan` as the daemon answers it.
    package func addPlanReply(_ p: AddPlanParameters, rules: JourneyRules) throws -> AddPlanReply {
        AddPlanReply(
            plan: try addPlan(destination: p.destination, from: p.from, through: p.to, type: p.type, rules: rules)
                .message
        )
    }

    /// `trip remove` and `RemoveTrip`: `removeTrip` as the daemon answers it.
    package func removeTripReply(id: Int64, rules: JourneyRules) throws -> RemoveTripReply {
        RemoveTripReply(trip: try removeTrip(id: id, rules: rules).message, timeZone: rules.timeZone.name)
    }

    /// `imports remove` and `RemoveImport`: `removeImport` as the daemon answers it.
    package func removeImportReply(_ p: RemoveImportParameters, rules: JourneyRules) throws -> RemoveImportReply {
        let (file, removed) = try removeImport(p.name, sha256: p.sha256, rules: rules)
        return RemoveImportReply(file: file.message, tripsRemoved: removed)
    }

    /// `note remove`, `photo remove` and `RemoveNote`, `RemovePhoto`: `removeMoment` as the
    /// daemon answers it.
    package func removeMomentReply<Kind: MomentKind>(id: Int64, of _: Kind.Type) throws -> RemoveMomentReply<Kind> {
        RemoveMomentReply(moment: try removeMoment(Kind.kind, id: id).listedMessage)
    }

    /// `plan remove`: removes the plan and its journey, and regroups its trips.
    package func removePlan(id: Int64, rules: JourneyRules) throws {
        try removePlan(id: id)
        try regroupJourneys(rules: rules)
    }

    /// `photo add`: stores the photo, or returns the one stored with the same SHA-256.
    package func addPhoto(_ photo: PhotoDraft) throws(StoreError) -> PhotoAddition {
        if let known = try self.photo(sha256: photo.sha256) { return .known(known) }
        guard
            let added = try addPhoto(
                path: photo.path,
                sha256: photo.sha256,
                at: photo.time,
                coordinate: photo.coordinate
            )
        else {
            throw .statementFailed(sql: "INSERT INTO photos", reason: "added by another writer meanwhile")
        }
        return .added(added)
    }

    /// `zone add`: adds a zone, inside when it holds the vehicle's last known position (no false
    /// enter); `nil` when a zone of that name exists.
    package func addZone(_ zone: NamedZone) throws(StoreError) -> Int64? {
        let inside = try lastKnownPosition().map { last in
            (ZoneGeometry(zone.shape).signedDistance(to: last.coordinate) < 0, since: last.time)
        }
        return try addZone(name: zone.name, role: zone.role, shape: zone.shape, inside: inside)
    }

    /// `zone import`: adds each zone as `addZone` does, in order; a name that exists is skipped.
    package func importZones(_ zones: [NamedZone]) throws(StoreError) -> ZoneImportOutcome {
        var outcome = ZoneImportOutcome()
        for zone in zones {
            if let id = try addZone(zone) {
                outcome.added.append(id)
            } else {
                outcome.skipped.append(zone.name)
            }
        }
        return outcome
    }
}

/// What `addPhoto` did: added the photo, or found it stored already (perhaps under another name).
package enum PhotoAddition: Sendable, Hashable {
    case added(MomentMessage)
    case known(MomentMessage)
}

/// What `importZones` did: the ids added, and the names skipped because they exist.
package struct ZoneImportOutcome: Sendable, Hashable {
    package var added: [Int64] = []
    package var skipped: [String] = []

    package init(added: [Int64] = [], skipped: [String] = []) {
        self.added = added
        self.skipped = skipped
    }
}
