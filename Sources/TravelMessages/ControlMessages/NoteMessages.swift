package import TravelControl
package import TravelCore
package import TravelFormats

/// `AddNote`: the note's `text`, at the instant `at` (the daemon's now when `nil`).
package struct AddNoteParameters: ControlParameters, Hashable {
    package var text: String
    package var at: UTCTime?

    package init(text: String, at: UTCTime?) {
        self.text = text
        self.at = at
    }

    package var json: JSONValue { ["text": .string(text), "at": at.parameter] }

    /// A blank text or an `at` that is no instant is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["text", "at"])
        self.init(text: try call.text("text"), at: try call.instant("at"))
    }
}

/// `AddNote`'s answer: the `note` added, with the zone its time is shown in, by name and, for a
/// fixed zone, as `utc_offset`.
package struct AddNoteReply: ControlReply, Hashable {
    package var note: AddedMomentMessage
    package var timeZone: String?
    package var utcOffset: String?

    package init(note: AddedMomentMessage, timeZone: String?, utcOffset: String?) {
        self.note = note
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "note": note.json, "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            note: try fields.object("note", AddedMomentMessage.init),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}
