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
        return read { db throws(StoreError) in try db.listTripsReply(parameters, zone: zone).json }
    }

    /// `GetTrip`: `trip show --json`.
    func trip(id: Int64) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return found(read { db throws(StoreError) in try db.getTripReply(id: id, zone: zone)?.json }) {
            .tripNotFound(id)
        }
    }

    /// `Stats`: `stats --json`, with the zone its months are local to.
    func stats(_ parameters: StatsParameters) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in try db.statsReply(parameters, zone: zone).json }
    }

    /// `ListJourneys`: `journeys --json` and what its table says around it, under the daemon's rules.
    func journeys(_ parameters: ListJourneysParameters) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return read { db throws(StoreError) in try db.listJourneysReply(parameters, rules: rules).json }
    }

    /// `GetJourney`: `journey show --json`, with the zone its table's times are local to.
    func journey(id: Int64) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return found(read { db throws(StoreError) in try db.getJourneyReply(id: id, zone: zone)?.json }) {
            .journeyNotFound(id)
        }
    }

    /// `ListEvents`: `events --json`.
    func events(_ parameters: ListEventsParameters) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in try db.listEventsReply(parameters, zone: zone) }.flatMap {
            switch $0 {
            case .success(let reply): .success(reply.json)
            case .failure(.zone(let name)): .failure(.zoneNotFound(name))
            case .failure(.poi(let name)): .failure(.poiNotFound(name))
            }
        }
    }

    /// `GetHome`: `home --json`, with the radius and zone its table tells.
    func home() -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return read { db throws(StoreError) in try db.getHomeReply(rules: rules).json }
    }

    /// `ListPlans`: `plan list --json`.
    func plans() -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in try db.listPlansReply().json }
    }

    /// `ListNotes` and `ListPhotos`: `note list --json` and `photo list --json`, with the time zone
    /// their tables show times in.
    func moments<Kind: MomentKind>(_ p: ListMomentsParameters, of kind: Kind.Type) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in try db.listMomentsReply(p, of: kind, zone: zone).json }
    }

    /// `ListImports`: `imports --json`.
    func importedFiles() -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in try db.listImportsReply().json }
    }

    /// `ListZones`: `zone list --json`.
    func zones() -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return read { db throws(StoreError) in try db.listZonesReply(zone: zone).json }
    }

    /// `ListPlaces`: `places --json`, with the zone its table shows times in.
    func places() -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return read { db throws(StoreError) in try db.listPlacesReply(rules: rules).json }
    }

    /// `ListPOIs`: `poi list --json`.
    func pois(_ parameters: ListPOIsParameters) -> Result<JSONValue, VarlinkError> {
        read { db throws(StoreError) in try db.listPOIsReply(parameters).json }
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

    /// `result`, or `missing` when it read nothing.
    private func found(
        _ result: Result<JSONValue?, VarlinkError>,
        else missing: () -> VarlinkError
    ) -> Result<JSONValue, VarlinkError> {
        result.flatMap { $0.map(Result.success) ?? .failure(missing()) }
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
