internal import TravelControl
internal import TravelCore
internal import TravelFormats
internal import TravelMessages
internal import TravelStore

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
            _ = try NoParameters(call)
            return .later { await history.places() }
        case .listNotes:
            let parameters = try ListMomentsParameters(call)
            return .later { await history.moments(parameters, of: NoteKind.self) }
        case .listPhotos:
            let parameters = try ListMomentsParameters(call)
            return .later { await history.moments(parameters, of: PhotoKind.self) }
        case .listImports:
            _ = try NoParameters(call)
            return .later { await history.importedFiles() }
        case .listPOIs:
            let parameters = try ListPOIsParameters(call)
            return .later { await history.pois(parameters) }
        case .export:
            let parameters = try ExportParameters(call)
            let export = ControlExport(
                history: history,
                format: parameters.format,
                selection: parameters.trips
            )
            return .stream { await export.next() }
        case .report:
            let selection = try ReportParameters(call).trips
            let report = ControlReport(history: history, selection: selection)
            return .stream { await report.next() }
        case .backup:
            _ = try NoParameters(call)
            let backup = ControlBackup(path: history.path)
            return .stream { await backup.next() }
        default:
            return .now(.failure(.methodNotImplemented(call.method)))
        }
    }
}
