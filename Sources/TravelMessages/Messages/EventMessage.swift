package import TravelCore
package import TravelFormats

/// One event as everything that carries it sees it (docs/control.md, "Events"): the journal
/// entry, a hook's environment and standard input, `Subscribe` and `travelctl follow --json` are
/// each written from this one value, so they hold the same members with the same values.
package struct EventMessage: Sendable, Hashable {
    /// `trip-ended` (an `EventKind`'s name), `log` or `subscribed`.
    package var kind: String
    /// The journal's `MESSAGE_ID` of an event kind; `nil` for `log` and `subscribed`.
    package var messageID: String?
    /// GPS time: the event's own, else carried on since the last fix; `nil` before the first.
    package var time: UTCTime?
    /// The readable line, as the journal's `MESSAGE`.
    package var message: String
    /// The kind's fields in its order (`EventKind.fields`), typed; text for `log`.
    package var fields: [JSONValue.Member]

    package init(kind: String, messageID: String?, time: UTCTime?, message: String, fields: [JSONValue.Member]) {
        self.kind = kind
        self.messageID = messageID
        self.time = time
        self.message = message
        self.fields = fields
    }

    /// An event of `payload`'s kind, whose `MESSAGE_ID` is `messageID`.
    package init(_ payload: EventPayload, messageID: String, message: String) {
        self.init(
            kind: payload.kind.name,
            messageID: messageID,
            time: payload.time,
            message: message,
            fields: payload.fields.map { .init($0.name, $0.value.json) }
        )
    }

    /// The field named `name`; `nil` when the event's kind has none of that name.
    package func field(_ name: String) -> JSONValue? {
        fields.first { $0.key == name }?.value
    }

    /// `Subscribe`'s `event` and a line of `follow --json`: `kind`, `time`, `message`, `fields`.
    package var json: JSONValue {
        [
            "kind": .string(kind), "time": time.map { .string($0.iso8601) } ?? .null, "message": .string(message),
            "fields": .object(fields),
        ]
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            kind: try fields.string("kind"),
            messageID: nil,
            time: try fields.optionalTime("time"),
            message: try fields.string("message"),
            fields: try fields.object("fields") { $0.object.objectMembers ?? [] }
        )
    }

    /// A hook's standard input: `event` (the kind), `message_id`, `message`, `fields`.
    package var hookJSON: JSONValue {
        [
            "event": .string(kind), "message_id": messageID.map(JSONValue.string) ?? .null,
            "message": .string(message), "fields": .object(fields),
        ]
    }

    /// Each field as text, as the journal and the environment hold it: a string as it is, a
    /// number or a boolean as JSON writes it, null as empty.
    package var fieldTexts: [(name: String, text: String)] {
        fields.map { member in
            let text =
                switch member.value {
                case .string(let text): text
                case .null: ""
                case let value: value.serializedString()
                }
            return (member.key, text)
        }
    }
}
