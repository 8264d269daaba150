internal import TravelConfiguration
internal import TravelControl
internal import TravelCore
internal import TravelFormats
internal import TravelMessages
internal import TravelStore

/// The control socket's window on the history: a read-only SQLite connection of its own, so a
/// client's query runs beside the pipeline's writes (WAL) and never waits on them or holds them up.
actor HistoryReader {
    /// Its own thread (`ThreadExecutor`): its SQLite calls block, for seconds at times, and must
    /// not hold a thread of the cooperative pool the pipeline runs on.
    private nonisolated let executor = ThreadExecutor(name: "tc-history-read")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// The database file, also for `ControlExport`'s connection of its own.
    nonisolated let path: String
    private var rules: JourneyRules
    private var database: TravelDatabase?
    /// `openJourney`'s answer and the `data_version` it was read at: `Status` is called far more
    /// often than the writer commits, and finding the open journey reads every journey.
    private var openJourneyCache: (version: Int64, journey: OpenJourney?)?

    init(path: String, rules: JourneyRules) {
        self.path = path
        self.rules = rules
    }

    /// The `[Journeys]` rules after a reload.
    func configurationReloaded(_ configuration: TravelConfiguration) {
        rules = configuration.journeyRules
        openJourneyCache = nil
    }

    /// The `[Journeys]` rules in force, for `ControlReport`'s connection of its own.
    var journeyRules: JourneyRules { rules }

    /// The tz database name of the `[Journeys]` zone local times are shown in.
    var timeZoneName: String { rules.timeZone.name }

    /// `ListTrips`: `trips --json`.
    func trips(_ parameters: ListTripsParameters) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in
            let trips = try db.trips(since: parameters.since, until: parameters.until)
            return ListTripsReply(trips: trips.map(\.message), timeZone: zone.name).json
        }
    }

    /// `GetTrip`: `trip show --json`.
    func trip(id: Int64) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        switch read({ db throws(StoreError) in
            try db.tripDetail(id: id).map { GetTripReply(trip: $0, timeZone: zone.name).json } ?? .null
        }) {
        case .success(.null): return .failure(.tripNotFound(id))
        case let result: return result
        }
    }

    /// `Stats`: `stats --json`, with the zone its months are local to.
    func stats(year: Int?) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in
            let totals = try db.monthlyTotals(year: year, zone: zone)
            return StatsReply(
                stats: totals.map(StatsMessage.init),
                timeZone: zone.name,
                utcOffset: zone.fixedOffset?.description
            ).json
        }
    }

    /// `ListJourneys`: `journeys --json` and what its table says around it, under the daemon's rules.
    func journeys(_ p: ListJourneysParameters) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        let filter = JourneyFilter(
            since: p.since,
            until: p.until,
            destination: p.destination,
            type: p.type,
            search: p.search
        )
        return read { db throws(StoreError) in
            let zone = rules.timeZone
            return ListJourneysReply(
                journeys: try db.journeys(filter, zone: zone).map { $0.message(zone: zone) },
                timeZone: zone.name,
                utcOffset: zone.fixedOffset?.description,
                homeKnown: try db.homeIsKnown(rules: rules),
                hasTrips: try db.hasTrips()
            ).json
        }
    }

    /// `GetJourney`: `journey show --json`, with the zone its table's times are local to.
    func journey(id: Int64) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        switch read({ db throws(StoreError) in
            try db.journeyDetail(id: id, zone: zone).map {
                GetJourneyReply(journey: $0, timeZone: zone.name, utcOffset: zone.fixedOffset?.description).json
            } ?? .null
        }) {
        case .success(.null): return .failure(.journeyNotFound(id))
        case let result: return result
        }
    }

    /// `ListEvents`: `events --json`.
    func events(_ parameters: ListEventsParameters) -> Result<JSONValue, VarlinkError> {
        var unknown: UnknownPlace?
        let timeZone = rules.timeZone
        let found = read { db throws(StoreError) in
            let p = parameters
            switch try db.placeEventMessages(since: p.since, through: p.until, zone: p.zone, poi: p.poi, kind: p.kind) {
            case .success(let events): return ListEventsReply(events: events, timeZone: timeZone.name).json
            case .failure(let place):
                unknown = place
                return .null
            }
        }
        switch unknown {
        case .zone(let name): return .failure(.zoneNotFound(name))
        case .poi(let name): return .failure(.poiNotFound(name))
        case nil: return found
        }
    }

    /// `GetHome`: `home --json`, with the radius and zone its table tells.
    func home() -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return read { db throws(StoreError) in
            let zone = rules.timeZone
            return GetHomeReply(
                home: try db.homeMessage(rules: rules),
                radius: rules.homeRadius,
                timeZone: zone.name,
                utcOffset: zone.fixedOffset?.description
            ).json
        }
    }

    /// `ListPlans`: `plan list --json`.
    func plans() -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in ListPlansReply(plans: try db.plans().map(\.message)).json }
    }

    /// `ListNotes` and `ListPhotos`: `note list --json` and `photo list --json`, with the time zone
    /// their tables show times in.
    func moments<Kind: MomentKind>(_ p: ListMomentsParameters, of _: Kind.Type) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in
            let moments = try db.moments(
                MomentRecord.Kind(Kind.kind),
                since: p.since,
                until: p.until,
                journeyID: p.journey
            )
            return ListMomentsReply<Kind>(
                moments: moments.map(\.listedMessage),
                timeZone: zone.name,
                utcOffset: zone.fixedOffset?.description
            ).json
        }
    }

    /// `ListImports`: `imports --json`.
    func importedFiles() -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in ListImportsReply(imports: try db.importedFiles().map(\.message)).json }
    }

    /// `ListZones`: `zone list --json`.
    func zones() -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in
            ListZonesReply(zones: try db.zoneRecords().map(\.message), timeZone: zone.name).json
        }
    }

    /// `ListPlaces`: `places --json`, with the zone its table shows times in.
    func places() -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return read { db throws(StoreError) in
            let places = try db.visitedPlaces(rules: rules).map(VisitedPlaceMessage.init)
            return ListPlacesReply(places: places, timeZone: rules.timeZone.name).json
        }
    }

    /// `ListPOIs`: `poi list --json`.
    func pois(_ p: ListPOIsParameters) -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in
            ListPOIsReply(
                pois: try db.poiRecords(category: p.category, near: p.center, radius: p.radius).map(\.message)
            )
            .json
        }
    }

    /// The open journey as last committed, and what its trip in progress (its last trip, when
    /// that one has not ended) had covered at that commit: `Status` counts the trip as the
    /// engine has it now instead, so the journey "so far" is never behind the trip it holds.
    func openJourney() -> OpenJourney? {
        let zone = rules.timeZone
        let cached = openJourneyCache
        var version: Int64?
        let journey = read { db throws(StoreError) -> OpenJourney? in
            let current = try db.dataVersion()
            version = current
            if let cached, cached.version == current { return cached.journey }
            guard let last = try db.journeys(zone: zone).last, last.isOpen else { return nil }
            let ongoing = try last.tripIDs.last.flatMap { id throws(StoreError) in try db.trip(id: id) }
            return OpenJourney(
                message: StatusJourneyMessage(
                    id: last.id,
                    destination: last.destination,
                    start: last.start,
                    distance: last.distance,
                    trips: last.tripIDs.count
                ),
                ongoingTrip: ongoing.flatMap { $0.isOngoing ? $0.summary : nil }
            )
        }
        guard let value = try? journey.get(), let version else { return nil }
        openJourneyCache = (version, value)
        return value
    }

    private func read<T>(_ body: (TravelDatabase) throws(StoreError) -> T) -> Result<T, VarlinkError> {
        do {
            let db = try database ?? TravelDatabase(path: path, readOnly: true)
            database = db
            return .success(try body(db))
        } catch {
            // Opened again next time: the file may have been replaced or not exist yet. A new
            // connection counts data versions afresh.
            database = nil
            openJourneyCache = nil
            return .failure(.databaseError("\(error)"))
        }
    }
}

/// The open journey as the history has it, with its trip in progress as last committed.
struct OpenJourney: Sendable {
    /// Its distance counts the trip in progress as committed.
    var message: StatusJourneyMessage
    /// The journey's last trip while it has not ended; `nil` when every trip of it has.
    var ongoingTrip: TripSummary?

    /// The journey with `live`, the trip in progress as the engine has it now, in place of its
    /// committed state; metres to 0.1.
    func current(with live: TripSummary?) -> StatusJourneyMessage {
        var message = message
        if let stored = ongoingTrip, let live, live.startTime == stored.startTime {
            message.distance += live.distance - stored.distance
        }
        message.distance = (message.distance * 10).rounded() / 10
        return message
    }
}
