internal import TravelConfiguration
internal import TravelControl
internal import TravelCore
internal import TravelDecoding
internal import TravelFormats
internal import TravelMessages
internal import TravelStore

/// The control socket's changes (`ControlInterface.Method.isChange`), made by the store
/// functions `travelctl --db` calls, on a read-write SQLite connection of its own.
///
/// Why not through the pipeline's recorder: the pipeline takes fixes at up to 10 Hz on its
/// actor, and a change can take seconds (regrouping ten years of trips reads them all, ~4 s;
/// a million POIs are staged over many calls). Here that work runs beside the pipeline: in
/// WAL mode the pipeline keeps committing while this connection reads, and only this
/// connection's write transactions make the pipeline's next flush wait (busy timeout; its
/// source, and the systemd watchdog, wait on the pipeline meanwhile). So they are kept short:
/// POIs are staged in a temporary table, which takes no lock on the database, and committed
/// 5 000 per transaction with a pause between for the pipeline's flush. Once a zone change is
/// committed, the pipeline reads its zones again (as on SIGHUP; a few rows), so the next fix
/// is checked against them; after a POI import the new index is built here (a million POIs
/// take seconds) and handed over.
actor HistoryWriter {
    /// Its own thread (`ThreadExecutor`): its SQLite calls block, for seconds at times, and must
    /// not hold a thread of the cooperative pool the pipeline runs on.
    private nonisolated let executor = ThreadExecutor(name: "tc-history-write")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let path: String
    private var rules: JourneyRules
    private var database: TravelDatabase?
    /// "Now" for a change given no time: GPS time carried forward, else the system clock.
    private let now: @Sendable () async -> UTCTime
    /// Has the pipeline watch what changed.
    private let watchPlaces: @Sendable (PlacesChange) async -> Void
    /// Home as the last regroup found it, whose "Home" the recorder labels with.
    private var lastHome: Coordinate?
    /// The staged POI imports and when each was last used.
    private var imports: [Int64: (staged: Int, used: ContinuousClock.Instant)] = [:]

    /// How long an uncommitted POI import is kept without a call.
    static let importIdleLimit: Duration = .seconds(600)
    /// How many POIs all staged imports may hold together (a million-POI import, twice).
    static let stagedPOILimit = 2_000_000

    init(
        path: String,
        rules: JourneyRules,
        now: @escaping @Sendable () async -> UTCTime,
        watchPlaces: @escaping @Sendable (PlacesChange) async -> Void
    ) {
        self.path = path
        self.rules = rules
        self.now = now
        self.watchPlaces = watchPlaces
    }

    /// `time`, or now when a call gave none.
    private func resolved(_ time: UTCTime?) async -> UTCTime {
        if let time { return time }
        return await now()
    }

    /// The `[Journeys]` rules after a reload.
    func configurationReloaded(_ configuration: TravelConfiguration) {
        rules = configuration.journeyRules
    }

    /// Regroups every trip into journeys under the current rules: what the daemon does each time
    /// tracking commits a trip's start or end (`JourneyService`), as `import` does after a file.
    /// A home that moved (or became known) renames places "Home": the recorder takes it at once.
    /// Returns the warning for a configured home the vehicle never parks at (`Home.nightsElsewhere`).
    func regroupJourneys() async -> Result<String?, VarlinkError> {
        let rules = rules
        let result = write { db in try db.regroupJourneys(rules: rules) }
        guard case .success(let home) = result else { return result.map { _ in nil } }
        if home?.coordinate != lastHome {
            lastHome = home?.coordinate
            await watchPlaces(.zones)
        }
        guard let home, let elsewhere = home.nightsElsewhere else { return .success(nil) }
        return .success(elsewhere.warning(home: home.coordinate, placeRadius: rules.placeRadius))
    }

    /// `StartJourney`.
    func startJourney(_ p: StartJourneyParameters) async -> Result<JSONValue, VarlinkError> {
        let start = await resolved(p.at)
        let rules = rules
        return write { db in try db.startJourney(destination: p.destination, at: start, rules: rules).json }
    }

    /// `StopJourney`.
    func stopJourney(_ p: StopJourneyParameters) async -> Result<JSONValue, VarlinkError> {
        let end = await resolved(p.at)
        let rules = rules
        return write { db in try db.stopJourney(at: end, rules: rules).json }
    }

    /// `AddNote`.
    func addNote(_ p: AddNoteParameters) async -> Result<JSONValue, VarlinkError> {
        let moment = await resolved(p.at)
        let zone = rules.timeZone
        return write { db in try db.addNoteReply(p.text, at: moment, zone: zone).json }
    }

    /// `AddPhoto`.
    func addPhoto(_ photo: PhotoDraft) -> Result<JSONValue, VarlinkError> {
        let zone = rules.timeZone
        return write { db in try db.addPhotoReply(photo, zone: zone).json }
    }

    /// `RemoveTrip`.
    func removeTrip(id: Int64) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return write { db in try db.removeTripReply(id: id, rules: rules).json }
    }

    /// `RemoveNote` and `RemovePhoto`.
    func removeMoment<Kind: MomentKind>(id: Int64, of kind: Kind.Type) -> Result<JSONValue, VarlinkError> {
        write { db in try db.removeMomentReply(id: id, of: kind).json }
    }

    /// `RemoveImport`.
    func removeImport(_ parameters: RemoveImportParameters) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return write { db in try db.removeImportReply(parameters, rules: rules).json }
    }

    /// `AddPlan`.
    func addPlan(_ parameters: AddPlanParameters) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return write { db in try db.addPlanReply(parameters, rules: rules).json }
    }

    /// `RemovePlan`.
    func removePlan(id: Int64) -> Result<JSONValue, VarlinkError> {
        let rules = rules
        return write { db in
            try db.removePlan(id: id, rules: rules)
            return [:]
        }
    }

    /// `AddZone`.
    func addZone(_ zone: NamedZone) async -> Result<JSONValue, VarlinkError> {
        await writeThenWatchZones { db -> JSONValue in
            guard let id = try db.addZone(zone) else { throw VarlinkError.zoneExists(zone.name) }
            return AddedReply(id: id).json
        }
    }

    /// `RemoveZone`.
    func removeZone(_ nameOrID: String) async -> Result<JSONValue, VarlinkError> {
        await writeThenWatchZones { db -> JSONValue in
            guard let zone = try db.removeZone(nameOrID) else { throw VarlinkError.zoneNotFound(nameOrID) }
            return RemovedReply(id: zone.id, name: zone.name).json
        }
    }

    /// `AddPlace`: the recorder's labels take the name at once, as reads do.
    func addPlace(_ p: AddPlaceParameters) async -> Result<JSONValue, VarlinkError> {
        await writeThenWatchZones { db -> JSONValue in
            guard let id = try db.addNamedPlace(name: p.name, at: p.coordinate, radius: p.radius) else {
                throw VarlinkError.placeExists(p.name)
            }
            return AddedReply(id: id).json
        }
    }

    /// `RemovePlace`.
    func removePlace(_ nameOrID: String) async -> Result<JSONValue, VarlinkError> {
        await writeThenWatchZones { db -> JSONValue in
            guard let place = try db.removeNamedPlace(nameOrID) else { throw VarlinkError.placeNotFound(nameOrID) }
            return RemovedReply(id: place.id, name: place.name).json
        }
    }

    /// `ImportZones`.
    func importZones(_ zones: [NamedZone]) async -> Result<JSONValue, VarlinkError> {
        let result = write { db in try db.importZones(zones) }
        if case .success(let outcome) = result, !outcome.added.isEmpty { await watchPlaces(.zones) }
        return result.map { ImportZonesReply(added: $0.added, skipped: $0.skipped).json }
    }

    /// `ImportPOIs`: stages `pois` under `importID` (a new import when `nil`), and with
    /// `commit` adds everything staged under it, `HistoryWriter.commitPause` between the
    /// commit's transactions so the pipeline's flushes get their turn.
    func importPOIs(_ batch: ImportPOIsParameters) async -> Result<JSONValue, VarlinkError> {
        let (pois, importID, commit, source) = (batch.pois, batch.importID, batch.commit, batch.source)
        let clock = ContinuousClock()
        let staged = write { db -> (id: Int64, count: Int) in
            try discardIdleImports(db, now: clock.now)
            if let importID, imports[importID] == nil { throw VarlinkError.importNotFound(importID) }
            let total = imports.values.reduce(0) { $0 + $1.staged }
            guard total + pois.count <= Self.stagedPOILimit else {
                throw VarlinkError.importTooLarge(limit: Self.stagedPOILimit)
            }
            let id = try importID ?? db.beginPOIImport()
            guard let count = try db.stagePOIs(pois, into: id) else { throw VarlinkError.importNotFound(id) }
            // Committing, it takes no more calls.
            imports[id] = commit ? nil : (count, clock.now)
            return (id, count)
        }
        guard case .success(let (id, count)) = staged else { return staged.map { _ in [:] } }
        func reply(added: Int?) -> JSONValue { ImportPOIsReply(importID: id, staged: count, added: added).json }
        guard commit else { return .success(reply(added: nil)) }
        var added = 0
        while true {
            let step = write { db in
                guard let step = try db.commitPOIImport(id, source: source) else {
                    throw VarlinkError.importNotFound(id)
                }
                return step
            }
            switch step {
            case .failure(let error):
                // What was moved stays (see `commitPOIImport`); the POIs watched follow it.
                if added > 0 { await watchPlaces(.pois(indexed: try? database?.poiIndex())) }
                return .failure(error)
            case .success(let step):
                added += step.added
                guard !step.isComplete else { break }
                // The whole pause even when the client hung up (its call cancelled): a commit once
                // begun is carried through, and must leave the pipeline's flush its turn.
                await Task { try? await Task.sleep(for: Self.commitPause) }.value
                continue
            }
            break
        }
        if added > 0 { await watchPlaces(.pois(indexed: try? database?.poiIndex())) }
        return .success(reply(added: added))
    }

    /// The pause between a POI commit's transactions, in which the pipeline's flush, waiting on
    /// the lock, takes it: longer than the 100 ms SQLite's busy handler sleeps at most between
    /// tries, or the next transaction could take the lock first every time until the flush gives
    /// up (measured: a 20 ms pause let the pipeline's flush time out after 5 s).
    static let commitPause: Duration = .milliseconds(150)

    /// Drops the imports nobody called for `importIdleLimit`: their client went away.
    private func discardIdleImports(_ db: TravelDatabase, now: ContinuousClock.Instant) throws(StoreError) {
        for (id, entry) in imports where now - entry.used > Self.importIdleLimit {
            try db.discardPOIImport(id)
            imports[id] = nil
        }
    }

    /// `write`, then, if it succeeded, the recorder's zones and named places reloaded: a change to
    /// either names the places of new trips at once.
    private func writeThenWatchZones(
        _ body: (TravelDatabase) throws -> JSONValue
    ) async -> Result<JSONValue, VarlinkError> {
        let result = write(body)
        if case .success = result { await watchPlaces(.zones) }
        return result
    }

    /// Runs `body` on the connection (opened at the first change, and again after it failed to
    /// open); store refusals become the typed errors of the IDL.
    private func write<Value>(_ body: (TravelDatabase) throws -> Value) -> Result<Value, VarlinkError> {
        do {
            let db = try database ?? TravelDatabase(path: path)
            database = db
            return .success(try body(db))
        } catch let error as VarlinkError {
            return .failure(error)
        } catch let error as HistoryError {
            return .failure(error.controlError)
        } catch {
            return .failure(.databaseWriteError("\(error)"))
        }
    }
}

extension HistoryError {
    /// The typed error of the IDL, with the offline command's sentence as `reason`.
    var controlError: VarlinkError {
        let reason = JSONValue.string(description)
        switch self {
        case .unknownPlan(let id):
            return .planNotFound(id)
        case .planOverlaps(let plan):
            return .control(
                "PlanOverlaps",
                [
                    "id": .integer(plan.id), "destination": .string(plan.destination),
                    "from": .string(plan.from.description), "to": .string(plan.through.description), "reason": reason,
                ]
            )
        case .journeyAlreadyOpen(let id, let destination, let since):
            return .control(
                "JourneyAlreadyOpen",
                [
                    "id": .integer(id), "destination": .string(destination), "since": .string(since.iso8601),
                    "reason": reason,
                ]
            )
        case .journeyOverlaps(let id, let destination):
            return .control(
                "JourneyOverlaps",
                ["id": .integer(id), "destination": .string(destination), "reason": reason]
            )
        case .noOpenJourney:
            return .control("NoOpenJourney", ["reason": reason])
        case .stopBeforeStart(let id, let start):
            return .control("StopBeforeStart", ["id": .integer(id), "start": .string(start.iso8601), "reason": reason])
        case .unknownTrip(let id):
            return .control("TripNotFound", ["id": .integer(id)])
        case .tripInProgress(let id):
            return .control("TripInProgress", ["id": .integer(id), "reason": reason])
        case .unknownMoment(let kind, let id):
            return .control(kind == .note ? "NoteNotFound" : "PhotoNotFound", ["id": .integer(id), "reason": reason])
        case .unknownImport(let key):
            return .control("ImportedFileNotFound", ["import": .string(key), "reason": reason])
        case .ambiguousImport(let key, let matches):
            return .control(
                "ImportAmbiguous",
                ["import": .string(key), "matches": .integer(Int64(matches)), "reason": reason]
            )
        }
    }
}

/// What a change asks the pipeline to watch anew.
enum PlacesChange: Sendable {
    /// The zones or named places changed: read them again, keep the POIs.
    case zones
    /// POIs were added: watch these, indexed off the pipeline (`nil`: it could not be built
    /// here, so the pipeline reads them itself).
    case pois(indexed: POIIndex?)
}
