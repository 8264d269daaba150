internal import Logging
internal import Synchronization
internal import TravelControl
internal import TravelCore
internal import TravelFormats
internal import TravelMessages
/// What the daemon answers on its control socket: `org.varlink.service` and
/// `org.travelcompanion.control`. Decides on the server's thread; anything that waits (the
/// pipeline actor, the database) runs as `.later`.
struct ControlMethods: VarlinkHandling {
    let status: ControlStatus
    let history: HistoryReader
    /// Where the change methods write.
    let writer: HistoryWriter
    /// Besides root, who may change the daemon; `nil`: root only.
    let adminGroup: UInt32?
    /// `Reload` reads the configuration again and applies it, as SIGHUP does.
    let configuration: ConfigurationHolder
    /// Commits before a read of the history: the spooled route points, and with `buffered`
    /// what waits in memory for the next flush too (`TrackingPipeline.commitForRead`).
    let commitForRead: @Sendable (_ buffered: Bool) async -> Void
    let version: String
    /// Where the change calls are logged.
    let logger: Logger

    func start(_ call: VarlinkCall, from peer: PeerCredentials) -> VarlinkOutcome {
        switch call.interface {
        case VarlinkServiceInterface.name: return .now(service(call))
        case ControlInterface.name: break
        default: return .now(.failure(.interfaceNotFound(call.interface)))
        }
        guard let method = ControlInterface.Method(rawValue: call.name) else {
            return .now(.failure(.methodNotFound(call.method)))
        }
        if method.isChange {
            // Who changed what, in the journal: the kernel's uid, not anything the client says.
            guard peer.isRootOrMember(of: adminGroup) else {
                logger.warning("refused \(call.method) to uid \(peer.uid): neither root nor in the admin group")
                return .now(.failure(.permissionDenied(method: call.method, uid: peer.uid)))
            }
            logger.notice("\(call.method) called by uid \(peer.uid)")
        }
        do {
            return try start(method, call)
        } catch {
            return .now(.failure(error))
        }
    }

    private func start(_ method: ControlInterface.Method, _ call: VarlinkCall) throws(VarlinkError) -> VarlinkOutcome {
        switch method {
        case .status:
            try call.allowParameters([])
            let status = status
            // Its journey so far is read from the history: as current as the last flush.
            return afterCommit(.later { .success(await status.current().json) }, buffered: false)
        case .subscribe:
            try call.allowParameters([])
            let subscribed = EventMessage(
                kind: "subscribed",
                messageID: nil,
                time: status.eventTime,
                message: "subscribed to travel-companiond's events",
                fields: []
            )
            return .subscribe(first: SubscribeReply(event: subscribed).json)
        case .listTrips:
            let parameters = try ListTripsParameters(call)
            let history = history
            return afterCommit(.later { await history.trips(parameters) })
        case .getTrip:
            let id = try IDParameters(call).id
            let history = history
            return afterCommit(.later { await history.trip(id: id) })
        case .stats:
            let parameters = try StatsParameters(call)
            let history = history
            return afterCommit(.later { await history.stats(parameters) })
        case .listJourneys, .getJourney, .listEvents, .getHome, .listPlans, .listZones, .listPOIs, .listPlaces,
            .export, .report, .listNotes, .listPhotos, .listImports, .backup:
            return afterCommit(try startRead(method, call))
        case .reload:
            try call.allowParameters([])
            let holder = configuration
            return .later {
                if let refusal = await holder.reload() { return .failure(.configurationRefused("\(refusal)")) }
                return .success([:])
            }
        case .startJourney, .stopJourney, .addNote, .addPhoto, .addPlan, .removePlan, .addZone, .removeZone,
            .importZones, .addPlace, .removePlace, .importPOIs, .removeTrip, .removeNote, .removePhoto, .removeImport:
            return try startChange(method, call)
        }
    }

    /// `outcome`, its work done after a commit (`commitForRead`): a read of the history (and a
    /// backup) then holds what the engine has, or with `buffered: false` what the last flush
    /// left. A stream commits what is buffered before its first reply only: the rest of it reads
    /// on from there.
    private func afterCommit(_ outcome: VarlinkOutcome, buffered: Bool = true) -> VarlinkOutcome {
        let commit = commitForRead
        switch outcome {
        case .later(let work):
            return .later {
                await commit(buffered)
                return await work()
            }
        case .stream(let next):
            let first = Atomic(true)
            return .stream {
                await commit(buffered && first.exchange(false, ordering: .relaxed))
                return await next()
            }
        case .now, .subscribe: return outcome
        }
    }

    /// `org.varlink.service`: what generic clients ask first.
    private func service(_ call: VarlinkCall) -> Result<JSONValue, VarlinkError> {
        switch call.name {
        case "GetInfo":
            return .success([
                "vendor": "TravelCompanion", "product": "travel-companiond", "version": .string(version),
                "url": "",
                "interfaces": [.string(VarlinkServiceInterface.name), .string(ControlInterface.name)],
            ])
        case "GetInterfaceDescription":
            switch call.parameters["interface"]?.stringValue {
            case VarlinkServiceInterface.name?:
                return .success(["description": .string(VarlinkServiceInterface.description)])
            case ControlInterface.name?: return .success(["description": .string(ControlInterface.description)])
            case let other?: return .failure(.interfaceNotFound(other))
            case nil: return .failure(.invalidParameter("interface"))
            }
        default:
            return .failure(.methodNotFound(call.method))
        }
    }
}
