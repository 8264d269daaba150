internal import TravelControl
internal import TravelCore
internal import TravelStore
internal import TravelMessages
internal import TravelFormats

extension ControlMethods {
    /// The history reads besides trips and stats: each answers what its `travelctl` command
    /// prints with `--json`, built by the same `TravelStore` function, read by `HistoryReader`
    /// (`Export`, `Report` and `Backup`: by a `ControlExport`, `ControlReport` or `ControlBackup` of
    /// their own).
    func startRead(_ method: ControlInterface.Method, _ call: VarlinkCall) throws(VarlinkError) -> VarlinkOutcome {
        let history = history
        switch method {
        case .listJourneys:
            let parameters = try ListJourneysParameters(call)
            return .later { await history.journeys(parameters) }
        case .getJourney:
            let id = try IDParameters(call).id
            return .later { await history.journey(id: id) }
        case .listEvents:
            let parameters = try ListEventsParameters(call)
            return .later { await history.events(parameters) }
        case .getHome:
            _ = try NoParameters(call)
            return .later { await history.home() }
        case .listPlans:
            _ = try NoParameters(call)
            return .later { await history.plans() }
        case .listZones:
            _ = try NoParameters(call)
            return .later { await history.zones() }
        case .listPlaces:
            try call.allowParameters([])
            return .later { await history.places() }
        case .listNotes, .listPhotos:
            try call.allowParameters(["since", "until", "journey"])
            let (since, until, journey) = (
                try call.instant("since"), try call.instant("until"), try call.integer("journey")
            )
            let kind: MomentRecord.Kind = method == .listNotes ? .note : .photo
            return .later { await history.moments(kind, since: since, until: until, journeyID: journey) }
        case .listImports:
            try call.allowParameters([])
            return .later { await history.importedFiles() }
        case .listPOIs:
            try call.allowParameters(["category", "near", "radius_m"])
            let category = try call.string("category")
            let near = try call.string("near").map { text throws(VarlinkError) in
                guard let coordinate = Coordinate(parsing: text) else { throw .invalidParameter("near") }
                return coordinate
            }
            let radius = try call.positiveNumber("radius_m") ?? 5_000
            return .later { await history.pois(category: category, near: near, radius: radius) }
        case .export:
            try call.allowParameters(["format", "trip", "journey", "since", "until"])
            guard let format = try call.string("format").flatMap(ExportFormat.init(rawValue:)) else {
                throw .invalidParameter("format")
            }
            let export = ControlExport(path: history.path, format: format, selection: try call.exportSelection())
            return .stream { await export.next() }
        case .report:
            try call.allowParameters(["trip", "journey", "since", "until"])
            let report = ControlReport(history: history, selection: try call.exportSelection())
            return .stream { await report.next() }
        case .backup:
            try call.allowParameters([])
            let backup = ControlBackup(path: history.path)
            return .stream { await backup.next() }
        default:
            return .now(.failure(.methodNotImplemented(call.method)))
        }
    }
}

extension VarlinkCall {
    /// An optional finite number above zero.
    fileprivate func positiveNumber(_ name: String) throws(VarlinkError) -> Double? {
        switch parameters[name] {
        case nil, .null?: return nil
        case let value?:
            guard let number = value.doubleValue, number.isFinite, number > 0 else { throw .invalidParameter(name) }
            return number
        }
    }

    /// `Export`'s and `Report`'s trips: every one, or one of `trip`, `journey` and `since`/`until`.
    fileprivate func exportSelection() throws(VarlinkError) -> ExportSelection {
        let (trip, journey) = (try integer("trip"), try integer("journey"))
        let (since, until) = (try instant("since"), try instant("until"))
        let given = [trip != nil, journey != nil, since != nil || until != nil].filter { $0 }.count
        guard given <= 1 else { throw .invalidParameter(journey != nil ? "journey" : "since") }
        if let trip { return .trip(trip) }
        if let journey { return .journey(journey) }
        if since == nil && until == nil { return .all }
        return .range(since: since, through: until)
    }
}
