internal import TravelControl
internal import TravelCore
internal import TravelDecoding
internal import TravelFormats
internal import TravelMessages
internal import TravelStore

extension ControlMethods {
    /// The change methods: their parameters checked here, the change made by `writer`.
    func startChange(_ method: ControlInterface.Method, _ call: VarlinkCall) throws(VarlinkError) -> VarlinkOutcome {
        let writer = writer
        switch method {
        case .startJourney:
            let journey = try StartJourneyParameters(call)
            return .later { await writer.startJourney(journey) }
        case .stopJourney:
            let stop = try StopJourneyParameters(call)
            return .later { await writer.stopJourney(stop) }
        case .addNote:
            let note = try AddNoteParameters(call)
            return .later { await writer.addNote(note) }
        case .addPhoto:
            let photo = try AddPhotoParameters(call).photo
            return .later { await writer.addPhoto(photo) }
        case .removeTrip, .removeNote, .removePhoto:
            let id = try IDParameters(call).id
            switch method {
            case .removeTrip: return .later { await writer.removeTrip(id: id) }
            case .removeNote: return .later { await writer.removeMoment(id: id, of: NoteKind.self) }
            default: return .later { await writer.removeMoment(id: id, of: PhotoKind.self) }
            }
        case .removeImport:
            let parameters = try RemoveImportParameters(call)
            return .later { await writer.removeImport(parameters) }
        case .addPlan:
            let plan = try AddPlanParameters(call)
            return .later { await writer.addPlan(plan) }
        case .removePlan:
            let id = try IDParameters(call).id
            return .later { await writer.removePlan(id: id) }
        case .addZone:
            let zone = try AddZoneParameters(call).zone
            return .later { await writer.addZone(zone) }
        case .removeZone:
            let zone = try RemoveZoneParameters(call).zone
            return .later { await writer.removeZone(zone) }
        case .importZones:
            let zones = try ImportZonesParameters(call).zones
            return .later { await writer.importZones(zones) }
        case .addPlace:
            let place = try AddPlaceParameters(call)
            return .later { await writer.addPlace(place) }
        case .removePlace:
            let place = try RemovePlaceParameters(call).place
            return .later { await writer.removePlace(place) }
        case .importPOIs:
            let batch = try ImportPOIsParameters(call)
            return .later { await writer.importPOIs(batch) }
        default:
            return .now(.failure(.methodNotImplemented(call.method)))
        }
    }
}
