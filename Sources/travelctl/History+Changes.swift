import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

// Zones, places, POIs, notes, photos (added, listed, removed) and journeys started by hand, from
// the database file and through the daemon.

extension DatabaseHistory {
    func addZone(_ parameters: AddZoneParameters) throws -> AddedReply {
        let db = try database
        guard let id = try withStoreErrors({ try db.addZone(parameters.zone) }) else {
            printError("travelctl: a zone named \(parameters.zone.name) exists")
            throw ExitCode(1)
        }
        return AddedReply(id: id)
    }

    func removeZone(_ parameters: RemoveZoneParameters) throws -> RemovedReply {
        let db = try database
        guard let removed = try withStoreErrors({ try db.removeZone(parameters.zone) }) else {
            printError("travelctl: no zone named \(parameters.zone)")
            throw ExitCode(1)
        }
        return RemovedReply(id: removed.id, name: removed.name)
    }

    func importZones(_ parameters: ImportZonesParameters) throws -> ImportZonesReply {
        let db = try database
        let outcome = try withStoreErrors { try db.importZones(parameters.zones) }
        return ImportZonesReply(added: outcome.added, skipped: outcome.skipped)
    }

    func addPlace(_ p: AddPlaceParameters) throws -> AddedReply {
        let db = try database
        guard let id = try withStoreErrors({ try db.addNamedPlace(name: p.name, at: p.coordinate, radius: p.radius) })
        else {
            printError("travelctl: a place named \(p.name) exists")
            throw ExitCode(1)
        }
        return AddedReply(id: id)
    }

    func removePlace(_ parameters: RemovePlaceParameters) throws -> RemovedReply {
        let db = try database
        guard let removed = try withStoreErrors({ try db.removeNamedPlace(parameters.place) }) else {
            printError("travelctl: no place named \(parameters.place)")
            throw ExitCode(1)
        }
        return RemovedReply(id: removed.id, name: removed.name)
    }

    func places() throws -> ListPlacesReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.listPlacesReply(rules: rules) }
    }

    func pois(_ parameters: ListPOIsParameters) throws -> ListPOIsReply {
        let db = try database
        return try withStoreErrors { try db.listPOIsReply(parameters) }
    }

    func importPOIs(_ pois: [POIDraft], source: String) throws -> Int {
        let db = try database
        return try withStoreErrors { try db.addPOIs(pois, source: source) }
    }

    func addNote(_ p: AddNoteParameters) throws -> AddNoteReply {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.addNoteReply(p.text, at: p.at ?? WallClock.now(), zone: zone) }
    }

    func addPhoto(_ parameters: AddPhotoParameters) throws -> AddPhotoReply {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.addPhotoReply(parameters.photo, zone: zone) }
    }

    func startJourney(_ p: StartJourneyParameters) throws -> StartJourneyReply {
        let rules = try settings.rules()
        let db = try database
        let start = p.at ?? WallClock.now()
        return try withStoreErrors { try db.startJourney(destination: p.destination, at: start, rules: rules) }
    }

    func stopJourney(_ p: StopJourneyParameters) throws -> StopJourneyReply {
        let rules = try settings.rules()
        let db = try database
        let end = p.at ?? WallClock.now()
        return try withStoreErrors { try db.stopJourney(at: end, rules: rules) }
    }

    func moments<Kind: MomentKind>(_ p: ListMomentsParameters, of kind: Kind.Type) throws -> ListMomentsReply<Kind> {
        let zone = try settings.rules().timeZone
        let db = try database
        return try withStoreErrors { try db.listMomentsReply(p, of: kind, zone: zone) }
    }

    func removeMoment<Kind: MomentKind>(id: Int64, of kind: Kind.Type) throws -> RemoveMomentReply<Kind> {
        let db = try database
        return try withStoreErrors { try db.removeMomentReply(id: id, of: kind) }
    }
}

extension DaemonHistory {
    /// How many bytes of POIs one `ImportPOIs` call carries: half the daemon's 1 MiB limit.
    static let poiBatchBytes = 512 * 1024

    func addZone(_ parameters: AddZoneParameters) throws -> AddedReply {
        try client.call(.addZone, parameters)
    }

    func removeZone(_ parameters: RemoveZoneParameters) throws -> RemovedReply {
        try client.call(.removeZone, parameters)
    }

    func importZones(_ parameters: ImportZonesParameters) throws -> ImportZonesReply {
        try client.call(.importZones, parameters)
    }

    func addPlace(_ parameters: AddPlaceParameters) throws -> AddedReply {
        try client.call(.addPlace, parameters)
    }

    func removePlace(_ parameters: RemovePlaceParameters) throws -> RemovedReply {
        try client.call(.removePlace, parameters)
    }

    func places() throws -> ListPlacesReply {
        try client.call(.listPlaces, NoParameters())
    }

    func pois(_ parameters: ListPOIsParameters) throws -> ListPOIsReply {
        try client.call(.listPOIs, parameters)
    }

    /// The daemon is sent the POIs parsed here (it never opens a client's file) in batches
    /// within its message limit, staged batch by batch and added by the last call: an import
    /// cut off adds nothing.
    func importPOIs(_ pois: [POIDraft], source: String) throws -> Int {
        var importID: Int64?
        var batch: [POIDraft] = []
        var bytes = 0
        for (index, poi) in pois.enumerated() {
            batch.append(poi)
            bytes += poi.parameterJSON.serializedString().utf8.count + 1
            guard bytes >= Self.poiBatchBytes, index < pois.count - 1 else { continue }
            let parameters = ImportPOIsParameters(importID: importID, pois: batch, commit: false, source: source)
            let staged: ImportPOIsReply = try client.call(.importPOIs, parameters)
            importID = staged.importID
            (batch, bytes) = ([], 0)
        }
        let parameters = ImportPOIsParameters(importID: importID, pois: batch, commit: true, source: source)
        let committed: ImportPOIsReply = try client.call(.importPOIs, parameters)
        guard let added = committed.added else { throw DaemonClient.malformedReply(.importPOIs) }
        return added
    }

    func addNote(_ parameters: AddNoteParameters) throws -> AddNoteReply {
        try client.call(.addNote, parameters)
    }

    func addPhoto(_ parameters: AddPhotoParameters) throws -> AddPhotoReply {
        try client.call(.addPhoto, parameters)
    }

    func startJourney(_ parameters: StartJourneyParameters) throws -> StartJourneyReply {
        try client.call(.startJourney, parameters)
    }

    func stopJourney(_ parameters: StopJourneyParameters) throws -> StopJourneyReply {
        try client.call(.stopJourney, parameters)
    }

    func moments<Kind: MomentKind>(
        _ parameters: ListMomentsParameters,
        of _: Kind.Type
    ) throws
        -> ListMomentsReply<Kind>
    {
        try client.call(Kind.listMethod, parameters)
    }

    func removeMoment<Kind: MomentKind>(id: Int64, of _: Kind.Type) throws -> RemoveMomentReply<Kind> {
        try client.call(Kind.removeMethod, IDParameters(id: id))
    }
}
