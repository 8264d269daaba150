package import TravelControl
package import TravelCore
package import TravelFormats

/// Notes or photos, as a type: what a `ListMomentsReply` or `RemoveMomentReply` holds, and the
/// methods that answer with it.
package protocol MomentKind: Sendable {
    static var kind: MomentMessage.Kind { get }
    /// `ListNotes` or `ListPhotos`.
    static var listMethod: ControlInterface.Method { get }
    /// `RemoveNote` or `RemovePhoto`.
    static var removeMethod: ControlInterface.Method { get }
}

/// Notes: `ListNotes`, `RemoveNote`.
package enum NoteKind: MomentKind {
    package static var kind: MomentMessage.Kind { .note }
    package static var listMethod: ControlInterface.Method { .listNotes }
    package static var removeMethod: ControlInterface.Method { .removeNote }
}

/// Photos: `ListPhotos`, `RemovePhoto`.
package enum PhotoKind: MomentKind {
    package static var kind: MomentMessage.Kind { .photo }
    package static var listMethod: ControlInterface.Method { .listPhotos }
    package static var removeMethod: ControlInterface.Method { .removePhoto }
}

/// `ListNotes` and `ListPhotos`: the moments in `[since, until]` and of journey `journey`, each
/// filter optional.
package struct ListMomentsParameters: ControlParameters, Hashable {
    package var since: TimeBound?
    package var until: TimeBound?
    package var journey: Int64?

    package init(since: TimeBound?, until: TimeBound?, journey: Int64?) {
        self.since = since
        self.until = until
        self.journey = journey
    }

    package var json: JSONValue {
        ["since": since.parameter, "until": until.parameter, "journey": journey.map(JSONValue.integer) ?? .null]
    }

    /// A `since` or `until` that is no instant, or a `journey` that is no integer, is
    /// `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["since", "until", "journey"])
        self.init(
            since: try call.timeBound("since"),
            until: try call.timeBound("until"),
            journey: try call.integer("journey")
        )
    }
}

/// `ListNotes`' or `ListPhotos`' answer: `notes` or `photos` (`note list --json`, `photo list
/// --json`) in time order, and the zone their tables show times in, by name and, for a fixed
/// zone, as `utc_offset`.
package struct ListMomentsReply<Kind: MomentKind>: ControlReply, Hashable {
    package var moments: [ListedMomentMessage]
    package var timeZone: String?
    package var utcOffset: String?

    package init(moments: [ListedMomentMessage], timeZone: String?, utcOffset: String?) {
        self.moments = moments
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    /// `notes` or `photos`.
    static var key: String { "\(Kind.kind.rawValue)s" }

    package var json: JSONValue {
        [
            Self.key: .array(moments.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            moments: try fields.array(Self.key) { moment throws(MessageFieldError) in
                try ListedMomentMessage(moment, kind: Kind.kind)
            },
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}

/// `ListNotes`' answer.
package typealias ListNotesReply = ListMomentsReply<NoteKind>
/// `ListPhotos`' answer.
package typealias ListPhotosReply = ListMomentsReply<PhotoKind>

/// `RemoveNote`'s or `RemovePhoto`'s answer: the `note` or `photo` removed, as listed.
package struct RemoveMomentReply<Kind: MomentKind>: ControlReply, Hashable {
    package var moment: ListedMomentMessage

    package init(moment: ListedMomentMessage) { self.moment = moment }

    package var json: JSONValue { [Kind.kind.rawValue: moment.json] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            moment: try fields.object(Kind.kind.rawValue) { moment throws(MessageFieldError) in
                try ListedMomentMessage(moment, kind: Kind.kind)
            }
        )
    }
}

/// `RemoveNote`'s answer.
package typealias RemoveNoteReply = RemoveMomentReply<NoteKind>
/// `RemovePhoto`'s answer.
package typealias RemovePhotoReply = RemoveMomentReply<PhotoKind>
