package import TravelMessages
internal import TravelCore
package import TravelFormats

// The notes and photos the control socket's change methods reply with (the IDL's `Moment`),
// written by the daemon and read back by `travelctl`.

extension MomentRecord {
    /// The IDL's `Moment`: the note or photo as `AddNote` and `AddPhoto` answer with it.
    package var addedMessage: AddedMomentMessage {
        AddedMomentMessage(id: id, time: time, coordinate: coordinate, journeyID: journeyID)
    }

    /// The IDL's `Moment`, as JSON.
    package var controlJSON: JSONValue { addedMessage.json }
}

extension MomentRecord {
    /// A `Moment` reply of `kind`; `text` is the note's text or the photo's path.
    package init?(controlJSON json: JSONValue, kind: Kind, text: String, sha256: String? = nil) {
        guard let id = json["id"]?.intValue.map(Int64.init),
            let time = json["time"]?.stringValue.flatMap(UTCTime.init(iso8601:))
        else { return nil }
        let coordinate = json["latitude"]?.doubleValue.flatMap { latitude in
            json["longitude"]?.doubleValue.map { Coordinate(latitude: latitude, longitude: $0) }
        }
        self.init(
            id: id,
            kind: kind,
            time: time,
            text: text,
            sha256: sha256,
            coordinate: coordinate,
            journeyID: json["journey_id"]?.intValue.map(Int64.init)
        )
    }
}
