import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// What the history commands ask, as typed replies: `DatabaseOptions.history` picks where from
/// (the database file for `--db`, else the daemon's socket) once, and each command is written
/// once against this. Errors are printed as one line and thrown as the command's exit status.
protocol History {
    /// `trips`.
    func trips(_ parameters: ListTripsParameters) throws -> ListTripsReply
    /// `trip show`; no such trip is exit status 1.
    func trip(id: Int64) throws -> GetTripReply
    /// `stats`.
    func stats(_ parameters: StatsParameters) throws -> StatsReply
    /// `events`; a zone or POI of no such name is exit status 1.
    func events(_ parameters: ListEventsParameters) throws -> ListEventsReply
    /// `trip remove`: removes the trip and regroups the journeys.
    func removeTrip(id: Int64) throws -> RemoveTripReply
    /// `journeys`.
    func journeys(_ parameters: ListJourneysParameters) throws -> ListJourneysReply
    /// `journeys --json`: the bytes to print, newline-terminated.
    func journeysJSON(_ parameters: ListJourneysParameters) throws -> [UInt8]
    /// `journey show`; no such journey is exit status 1.
    func journey(id: Int64) throws -> GetJourneyReply
    /// `home`.
    func home() throws -> GetHomeReply
    /// `zone list`.
    func zones() throws -> ListZonesReply
    /// `plan list`.
    func plans() throws -> ListPlansReply
    /// `plan add`: adds the plan and regroups the journeys.
    func addPlan(_ parameters: AddPlanParameters) throws -> AddPlanReply
    /// `plan remove`: removes the plan and regroups the journeys.
    func removePlan(id: Int64) throws

    // MARK: zones, places, POIs, notes, photos, journeys started by hand

    /// `zone add`; a zone of that name is exit status 1.
    func addZone(_ parameters: AddZoneParameters) throws -> AddedReply
    /// `zone remove`; no zone of that name or id is exit status 1.
    func removeZone(_ parameters: RemoveZoneParameters) throws -> RemovedReply
    /// `zone import`: adds the zones whose names are free, skips the others.
    func importZones(_ parameters: ImportZonesParameters) throws -> ImportZonesReply
    /// `place name`; a place of that name is exit status 1.
    func addPlace(_ parameters: AddPlaceParameters) throws -> AddedReply
    /// `place remove`; no place of that name or id is exit status 1.
    func removePlace(_ parameters: RemovePlaceParameters) throws -> RemovedReply
    /// `places`.
    func places() throws -> ListPlacesReply
    /// `poi list`.
    func pois(_ parameters: ListPOIsParameters) throws -> ListPOIsReply
    /// `poi import`: adds `pois`, as from `source`, all or none, and returns how many were new.
    func importPOIs(_ pois: [POIDraft], source: String) throws -> Int
    /// `note add`.
    func addNote(_ parameters: AddNoteParameters) throws -> AddNoteReply
    /// `photo add`: adds the photo read here, or finds it stored already.
    func addPhoto(_ parameters: AddPhotoParameters) throws -> AddPhotoReply
    /// `journey start`: opens a journey by hand and regroups the journeys.
    func startJourney(_ parameters: StartJourneyParameters) throws -> StartJourneyReply
    /// `journey stop`: closes the journey started by hand and regroups the journeys.
    func stopJourney(_ parameters: StopJourneyParameters) throws -> StopJourneyReply

    // MARK: imports, exports, backups, reports

    /// `imports`.
    func imports() throws -> ListImportsReply
    /// `imports remove`: removes the import's trips and record and regroups the journeys.
    func removeImport(_ parameters: RemoveImportParameters) throws -> RemoveImportReply
    /// `export`: hands the document to `sink`, a piece at a time, in order.
    func export(_ parameters: ExportParameters, into sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws
    /// `report --json`: the page's data, whole.
    func report(_ parameters: ReportParameters) throws -> [UInt8]
    /// `backup`: writes a consistent copy of the database over the empty file at `path`.
    func backup(into path: String) throws

    // MARK: notes and photos

    /// `note list`, `photo list`.
    func moments<Kind: MomentKind>(
        _ parameters: ListMomentsParameters,
        of kind: Kind.Type
    ) throws
        -> ListMomentsReply<Kind>
    /// `note remove`, `photo remove`; no such note or photo is exit status 1.
    func removeMoment<Kind: MomentKind>(id: Int64, of kind: Kind.Type) throws -> RemoveMomentReply<Kind>
}

extension DatabaseOptions {
    /// The history to ask: the database file named by `--db` (its `[Journeys]` settings from
    /// `settings`), else the daemon at `--socket`.
    func history(_ settings: JourneyConfigurationOptions = .init(), readOnly: Bool = true) throws -> any History {
        guard db != nil else { return DaemonHistory(client: try DaemonClient(self)) }
        return DatabaseHistory(options: self, readOnly: readOnly, settings: settings)
    }
}

/// `--db`: the records of the database file, as the messages the daemon would send. The file
/// is opened by the one call a command makes, after the settings a change applies are read.
struct DatabaseHistory: History {
    let options: DatabaseOptions
    let readOnly: Bool
    let settings: JourneyConfigurationOptions

    var database: TravelDatabase {
        get throws { try options.open(readOnly: readOnly) }
    }

    func trips(_ parameters: ListTripsParameters) throws -> ListTripsReply {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.listTripsReply(parameters, zone: zone) }
    }

    func trip(id: Int64) throws -> GetTripReply {
        let zone = try settings.rules().timeZone
        let db = try database
        guard let reply = try withStoreErrors({ try db.getTripReply(id: id, zone: zone) }) else {
            printError("travelctl: no trip \(id)")
            throw ExitCode(1)
        }
        return reply
    }

    func stats(_ parameters: StatsParameters) throws -> StatsReply {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.statsReply(parameters, zone: zone) }
    }

    func events(_ parameters: ListEventsParameters) throws -> ListEventsReply {
        let zone = try settings.rules().timeZone
        let db = try database
        let found = try withStoreErrors { try db.listEventsReply(parameters, zone: zone) }
        return try withStoreErrors { try found.get() }
    }

    func removeTrip(id: Int64) throws -> RemoveTripReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.removeTripReply(id: id, rules: rules) }
    }

    func journeys(_ parameters: ListJourneysParameters) throws -> ListJourneysReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.listJourneysReply(parameters, rules: rules) }
    }

    func journeysJSON(_ parameters: ListJourneysParameters) throws -> [UInt8] {
        let zone = try settings.rules().timeZone
        let db = try database
        // Written from the records as they are read: no reply of every journey in between.
        return try withStoreErrors { try db.journeysJSON(JourneyFilter(parameters, zone: zone), zone: zone) }
    }

    func journey(id: Int64) throws -> GetJourneyReply {
        let zone = try settings.rules().timeZone
        let db = try database
        guard let reply = try withStoreErrors({ try db.getJourneyReply(id: id, zone: zone) }) else {
            printError("travelctl: no journey \(id)")
            throw ExitCode(1)
        }
        return reply
    }

    func home() throws -> GetHomeReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.getHomeReply(rules: rules) }
    }

    func zones() throws -> ListZonesReply {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.listZonesReply(zone: zone) }
    }

    func plans() throws -> ListPlansReply {
        let db = try database
        return try withStoreErrors { try db.listPlansReply() }
    }

    func addPlan(_ parameters: AddPlanParameters) throws -> AddPlanReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.addPlanReply(parameters, rules: rules) }
    }

    func removePlan(id: Int64) throws {
        let rules = try settings.rules()
        let db = try database
        try withStoreErrors { try db.removePlan(id: id, rules: rules) }
    }
}

/// Without `--db`: the daemon's replies, read as typed messages.
struct DaemonHistory: History {
    let client: DaemonClient

    func trips(_ parameters: ListTripsParameters) throws -> ListTripsReply {
        try client.call(.listTrips, parameters)
    }

    func trip(id: Int64) throws -> GetTripReply {
        try client.call(.getTrip, IDParameters(id: id))
    }

    func stats(_ parameters: StatsParameters) throws -> StatsReply {
        try client.call(.stats, parameters)
    }

    func events(_ parameters: ListEventsParameters) throws -> ListEventsReply {
        try client.call(.listEvents, parameters)
    }

    func removeTrip(id: Int64) throws -> RemoveTripReply {
        try client.call(.removeTrip, IDParameters(id: id))
    }

    func journeys(_ parameters: ListJourneysParameters) throws -> ListJourneysReply {
        try client.call(.listJourneys, parameters)
    }

    func journeysJSON(_ parameters: ListJourneysParameters) throws -> [UInt8] {
        JSONValue.array(try journeys(parameters).journeys.map(\.json)).serialized() + Array("\n".utf8)
    }

    func journey(id: Int64) throws -> GetJourneyReply {
        try client.call(.getJourney, IDParameters(id: id))
    }

    func home() throws -> GetHomeReply {
        try client.call(.getHome, NoParameters())
    }

    func zones() throws -> ListZonesReply {
        try client.call(.listZones, NoParameters())
    }

    func plans() throws -> ListPlansReply {
        try client.call(.listPlans, NoParameters())
    }

    func addPlan(_ parameters: AddPlanParameters) throws -> AddPlanReply {
        try client.call(.addPlan, parameters)
    }

    func removePlan(id: Int64) throws {
        let _: EmptyReply = try client.call(.removePlan, IDParameters(id: id))
    }
}

extension DaemonClient {
    /// Calls `method` and reads its reply as `Reply`; a reply that does not read (a member
    /// missing or of another type) is one line and exit status 1.
    func call<Reply: ControlReply>(
        _ method: ControlInterface.Method,
        _ parameters: some ControlParameters
    ) throws -> Reply {
        let json = try call(method, parameters.json)
        do {
            return try Reply(json: json)
        } catch {
            printError("travelctl: the daemon's \(method.rawValue) reply does not read: \(error)")
            throw ExitCode(1)
        }
    }
}

extension LocalTimeZone {
    /// The zone a reply's local times are in: the named one, loaded here from the same tz
    /// database the daemon read it from; else the fixed `utcOffset` (a daemon from before time
    /// zones); else UTC.
    static func of(name: String?, utcOffset: String? = nil) -> LocalTimeZone {
        if let name, let zone = try? SystemTimeZoneDatabase().zone(named: name) { return zone }
        return utcOffset.flatMap { UTCOffset(parsing: $0) }.map(LocalTimeZone.fixed) ?? .utc
    }
}
