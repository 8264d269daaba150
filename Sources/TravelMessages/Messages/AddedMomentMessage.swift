package import TravelCore
package import TravelFormats

/// A note or photo just added, as `AddNote` and `AddPhoto` answer with it (the IDL's `Moment`):
/// when, where (`latitude`/`longitude`, `null` outside every trip and known stop) and the journey
/// holding it.
package struct AddedMomentMessage: Sendable, Hashable {
    package var id: Int64
    package var time: UTCTime
    package var coordinate: Coordinate?
    package var journeyID: Int64?

    package init(id: Int64, time: UTCTime, coordinate: Coordinate?, journeyID: Int64?) {
        self.id = id
        self.time = time
        self.coordinate = coordinate
        self.journeyID = journeyID
    }

    package var json: JSONValue { .object(members) }

    /// `json`'s members, in order: what `ListedMomentMessage` starts with.
    package var members: [JSONValue.Member] {
        [
            .init("id", .integer(id)), .init("time", .string(time.iso8601)),
            .init("latitude", coordinate.map { .double($0.latitude) } ?? .null),
            .init("longitude", coordinate.map { .double($0.longitude) } ?? .null),
            .init("journey_id", journeyID.map(JSONValue.integer) ?? .null),
        ]
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        let latitude = try fields.optionalNumber("latitude")
        let longitude = try fields.optionalNumber("longitude")
        self.init(
            id: try fields.integer("id"),
            time: try fields.time("time"),
            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) }
            },
            journeyID: try fields.optionalInteger("journey_id")
        )
    }
}

/// A note or photo as `note list --json` and `photo list --json` have it, and `RemoveNote` and
/// `RemovePhoto` answer with it: the IDL's `Moment`, then the note's `text`, or the photo's `path`
/// and `sha256` (`null` when unknown).
package struct ListedMomentMessage: Sendable, Hashable {
    package var moment: AddedMomentMessage
    package var kind: MomentMessage.Kind
    /// The note's text, or the photo's path.
    package var text: String
    /// A photo file's SHA-256; always `nil` for a note.
    package var sha256: String?

    package init(moment: AddedMomentMessage, kind: MomentMessage.Kind, text: String, sha256: String?) {
        self.moment = moment
        self.kind = kind
        self.text = text
        self.sha256 = kind == .photo ? sha256 : nil
    }

    package var json: JSONValue {
        switch kind {
        case .note: .object(moment.members + [.init("text", .string(text))])
        case .photo:
            .object(
                moment.members + [
                    .init("path", .string(text)), .init("sha256", sha256.map(JSONValue.string) ?? .null),
                ]
            )
        }
    }

    /// Reads back what `json` wrote for a moment of `kind`; a missing or mistyped member throws.
    package init(_ fields: JSONFields, kind: MomentMessage.Kind) throws(MessageFieldError) {
        self.init(
            moment: try AddedMomentMessage(fields),
            kind: kind,
            text: try fields.string(kind == .note ? "text" : "path"),
            sha256: kind == .photo ? try fields.optionalString("sha256") : nil
        )
    }
}

extension MomentMessage {
    /// The IDL's `Moment`: the note or photo as `AddNote` and `AddPhoto` answer with it.
    package var addedMessage: AddedMomentMessage {
        AddedMomentMessage(id: id, time: time, coordinate: coordinate, journeyID: journeyID)
    }

    /// The note or photo as `note list --json`, `photo list --json` and the removals have it.
    package var listedMessage: ListedMomentMessage {
        ListedMomentMessage(moment: addedMessage, kind: kind, text: text, sha256: sha256)
    }
}
