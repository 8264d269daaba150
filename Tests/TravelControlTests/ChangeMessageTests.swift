import Testing
import TravelCore
import TravelFormats
import TravelMessages

@testable import TravelControl

/// The parameters and replies of the zone, place, POI, note, photo and journey changes: what
/// `travelctl` writes the daemon reads back as it was, and the reverse; a reply's missing or
/// mistyped member is named.
@Suite struct ChangeMessageTests {
    static let time = UTCTime(milliseconds: 1_777_622_400_000)
    static let circle = NamedZone(
        name: "Depot",
        role: "work",
        shape: .circle(center: Coordinate(latitude: 52.5, longitude: -8.25), radius: 250)
    )
    static let polygon = NamedZone(
        name: "Yard",
        role: nil,
        shape: .polygons([
            [
                [
                    Coordinate(latitude: 52, longitude: -8), Coordinate(latitude: 52, longitude: -7.5),
                    Coordinate(latitude: 52.5, longitude: -7.5),
                ]
            ]
        ])
    )

    /// `parameters` as the daemon reads them from a call.
    static func readBack<P: ControlParameters>(_ parameters: P) throws -> P {
        try P(VarlinkCall(method: "x.Y", parameters: parameters.json))
    }

    /// `reply` as `travelctl` reads it.
    static func readBack<R: ControlReply>(_ reply: R) throws -> R { try R(json: reply.json) }

    /// `reply` without its member `name`.
    static func without<R: ControlReply>(_ name: String, of reply: R) -> JSONValue {
        .object((reply.json.objectMembers ?? []).filter { $0.key != name })
    }

    @Test func parametersReadBackWhatTheyWrite() throws {
        let zone = AddZoneParameters(zone: Self.circle)
        #expect(try Self.readBack(zone) == zone)
        let zones = ImportZonesParameters(zones: [Self.circle, Self.polygon])
        #expect(try Self.readBack(zones) == zones)
        let removal = RemoveZoneParameters(zone: "Depot")
        #expect(try Self.readBack(removal) == removal)
        let place = AddPlaceParameters(
            name: "Cabin",
            coordinate: Coordinate(latitude: 53.1, longitude: -9.2),
            radius: 80
        )
        #expect(try Self.readBack(place) == place)
        #expect(try Self.readBack(RemovePlaceParameters(place: "3")) == RemovePlaceParameters(place: "3"))
        let list = ListPOIsParameters(category: "fuel", near: "52.66,-8.63", radius: 2_000)
        #expect(try Self.readBack(list) == list && list.center == Coordinate(latitude: 52.66, longitude: -8.63))
        let batch = ImportPOIsParameters(
            importID: 4,
            pois: [POIDraft(name: "Pump", category: nil, coordinate: Coordinate(latitude: 1, longitude: 2))],
            commit: true,
            source: "pois.csv"
        )
        #expect(try Self.readBack(batch) == batch)
        let note = AddNoteParameters(text: "Lunch", at: Self.time)
        #expect(try Self.readBack(note) == note)
        let photo = AddPhotoParameters(
            photo: PhotoDraft(
                path: "/home/me/a.jpg",
                sha256: String(repeating: "ab", count: 32),
                time: Self.time,
                coordinate: Coordinate(latitude: 45, longitude: 13)
            )
        )
        #expect(try Self.readBack(photo) == photo)
        let start = StartJourneyParameters(destination: "Galway", at: nil)
        #expect(try Self.readBack(start) == start)
        #expect(try Self.readBack(StopJourneyParameters(at: Self.time)) == StopJourneyParameters(at: Self.time))
        let moments = ListMomentsParameters(since: .instant(Self.time), until: nil, journey: 3)
        #expect(try Self.readBack(moments) == moments)
        // A date travels as a date, for the daemon to read as a local day of its zone.
        let day = try #require(LocalDate(parsing: "2026-01-09"))
        let days = ListTripsParameters(since: .date(day), until: .date(day))
        #expect(days.json == ["since": "2026-01-09", "until": "2026-01-09"])
        #expect(try Self.readBack(days) == days)
    }

    @Test func parametersRefuseWhatTheDaemonRefused() {
        #expect(throws: VarlinkError.invalidParameter("near")) {
            try ListPOIsParameters(VarlinkCall(method: "x.Y", parameters: ["near": "here"]))
        }
        #expect(throws: VarlinkError.invalidParameter("radius_m")) {
            try AddPlaceParameters(
                VarlinkCall(method: "x.Y", parameters: ["name": "A", "latitude": 1, "longitude": 2, "radius_m": 0])
            )
        }
        #expect(throws: VarlinkError.invalidParameter("sha256")) {
            try AddPhotoParameters(
                VarlinkCall(
                    method: "x.Y",
                    parameters: ["path": "/a.jpg", "sha256": "AB", "time": "2026-05-01T00:00:00Z"]
                )
            )
        }
        #expect(throws: VarlinkError.invalidParameter("zones")) {
            try ImportZonesParameters(VarlinkCall(method: "x.Y", parameters: ["zones": [["name": "No shape"]]]))
        }
        #expect(throws: VarlinkError.invalidParameter("since")) {
            try ListMomentsParameters(VarlinkCall(method: "x.Y", parameters: ["since": "yesterday"]))
        }
        #expect(throws: VarlinkError.self) {
            try ListMomentsParameters(VarlinkCall(method: "x.Y", parameters: ["kind": "note"]))
        }
    }

    /// What `ListNotes`, `ListPhotos`, `RemoveNote` and `RemovePhoto` answer: the note's `text`, the
    /// photo's `path` and `sha256` after the `Moment`'s members, as the lists always had them.
    @Test func momentListsAndRemovalsReadBackWhatTheyWrite() throws {
        let at = AddedMomentMessage(
            id: 5,
            time: Self.time,
            coordinate: Coordinate(latitude: 52.5, longitude: -8.25),
            journeyID: 2
        )
        let note = ListedMomentMessage(moment: at, kind: .note, text: "Lunch", sha256: nil)
        let photo = ListedMomentMessage(
            moment: AddedMomentMessage(id: 6, time: Self.time, coordinate: nil, journeyID: nil),
            kind: .photo,
            text: "/home/me/a.jpg",
            sha256: String(repeating: "ab", count: 32)
        )
        let notes = ListNotesReply(moments: [note], timeZone: "Europe/Dublin", utcOffset: nil)
        #expect(try Self.readBack(notes) == notes)
        let photos = ListPhotosReply(moments: [photo], timeZone: "UTC+01:00", utcOffset: "+01:00")
        #expect(try Self.readBack(photos) == photos)
        #expect(try Self.readBack(RemoveNoteReply(moment: note)) == RemoveNoteReply(moment: note))
        #expect(try Self.readBack(RemovePhotoReply(moment: photo)) == RemovePhotoReply(moment: photo))
        #expect(Set(notes.json.objectMembers?.map(\.key) ?? []) == ["notes", "time_zone", "utc_offset"])
        let members = notes.json["notes"]?.arrayValue?.first?.objectMembers?.map(\.key)
        #expect(members == ["id", "time", "latitude", "longitude", "journey_id", "text"])
        let unknown = ListedMomentMessage(moment: photo.moment, kind: .photo, text: "/b.jpg", sha256: nil)
        #expect(RemovePhotoReply(moment: unknown).json["photo"]?["sha256"] == .null)
        #expect(throws: MessageFieldError(path: "photos[0].path", expected: "a string")) {
            try ListPhotosReply(json: ["photos": [note.json], "time_zone": .null, "utc_offset": .null])
        }
        #expect(throws: MessageFieldError(path: "note", expected: "an object")) {
            try RemoveNoteReply(json: RemovePhotoReply(moment: photo).json)
        }
    }

    @Test func repliesReadBackWhatTheyWrite() throws {
        #expect(try Self.readBack(AddedReply(id: 7)) == AddedReply(id: 7))
        #expect(try Self.readBack(RemovedReply(id: 7, name: "Depot")) == RemovedReply(id: 7, name: "Depot"))
        let imported = ImportZonesReply(added: [3, 4], skipped: ["Depot"])
        #expect(try Self.readBack(imported) == imported)
        let places = ListPlacesReply(
            places: [VisitedPlaceMessage(place: "Home", visits: 3, nights: 2, time: 7_200, lastArrival: Self.time)],
            timeZone: "Europe/Dublin"
        )
        #expect(try Self.readBack(places) == places)
        let pois = ListPOIsReply(pois: [
            POIMessage(
                poi: POI(id: 1, name: "Pump", category: "fuel", coordinate: Coordinate(latitude: 1, longitude: 2)),
                source: "pois.csv",
                distance: 12.34
            )
        ])
        #expect(try Self.readBack(pois) == pois && pois.pois[0].distance == 12.3)
        let staged = ImportPOIsReply(importID: 4, staged: 10, added: nil)
        #expect(try Self.readBack(staged) == staged && staged.json["added"] == .null)
        let moment = AddedMomentMessage(id: 5, time: Self.time, coordinate: nil, journeyID: 2)
        let note = AddNoteReply(note: moment, timeZone: "UTC", utcOffset: "+00:00")
        #expect(try Self.readBack(note) == note)
        let photo = AddPhotoReply(photo: moment, path: "/a.jpg", added: false, timeZone: "UTC", utcOffset: nil)
        #expect(try Self.readBack(photo) == photo)
        let start = StartJourneyReply(id: 9, start: Self.time, timeZone: "Europe/Rome", utcOffset: nil)
        #expect(try Self.readBack(start) == start)
        let stop = StopJourneyReply(id: 9, end: Self.time, trips: 2, distance: 1_234.5, timeZone: "UTC", utcOffset: nil)
        #expect(try Self.readBack(stop) == stop)
    }

    @Test func aReplysMissingOrMistypedMemberIsNamed() throws {
        #expect(throws: MessageFieldError(path: "name", expected: "a string")) {
            try RemovedReply(json: Self.without("name", of: RemovedReply(id: 1, name: "A")))
        }
        #expect(throws: MessageFieldError(path: "skipped[0]", expected: "a string")) {
            try ImportZonesReply(json: ["added": [], "skipped": [3]])
        }
        let start = StartJourneyReply(id: 9, start: Self.time, timeZone: nil, utcOffset: nil)
        #expect(throws: MessageFieldError(path: "start", expected: "a date and time (ISO-8601)")) {
            try StartJourneyReply(json: Self.without("start", of: start))
        }
        let stop = StopJourneyReply(id: 9, end: Self.time, trips: 1, distance: 5, timeZone: nil, utcOffset: nil)
        #expect(throws: MessageFieldError(path: "distance_m", expected: "a number")) {
            try StopJourneyReply(json: Self.without("distance_m", of: stop))
        }
        let moment = AddedMomentMessage(id: 5, time: Self.time, coordinate: nil, journeyID: nil)
        let photo = AddPhotoReply(photo: moment, path: "/a.jpg", added: true, timeZone: nil, utcOffset: nil)
        #expect(throws: MessageFieldError(path: "added", expected: "true or false")) {
            try AddPhotoReply(json: Self.without("added", of: photo))
        }
        #expect(throws: MessageFieldError(path: "note.time", expected: "a date and time (ISO-8601)")) {
            try AddNoteReply(json: ["note": ["id": 1, "time": "soon"]])
        }
        #expect(throws: MessageFieldError(path: "places[0].time_s", expected: "a number")) {
            try ListPlacesReply(json: ["places": [["place": "Home", "visits": 1, "nights": 0, "last_arrival": "x"]]])
        }
        #expect(throws: MessageFieldError(path: "pois[0].lat", expected: "a number")) {
            try ListPOIsReply(json: ["pois": [["id": 1, "name": "Pump", "lon": 2]]])
        }
        #expect(throws: MessageFieldError(path: "import_id", expected: "an integer")) {
            try ImportPOIsReply(json: ["import_id": "4", "staged": 1, "added": .null])
        }
    }
}
