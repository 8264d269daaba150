package import Logging
package import TravelCore
package import TravelFormats
package import TravelMessages

/// One event as the journal, hooks and `Subscribe` see it: its readable message and its fields
/// (`EventKind.fields`), taken from the log line the pipeline wrote for it.
package struct TravelEvent: Sendable {
    package var payload: EventPayload
    package var message: String

    package init(_ payload: EventPayload, message: String) {
        self.payload = payload
        self.message = message
    }

    package var kind: EventKind { payload.kind }

    /// `trip-ended`: what `TC_EVENT`, the JSON's `event` and `Subscribe`'s `kind` say.
    package var name: String { kind.name }

    /// The event a log line stands for: `nil` unless its `message_id` is one of `EventKind`'s.
    /// Its fields are the metadata values `Logger.Metadata.event` put there, with their types;
    /// only the kind's own fields are taken.
    package init?(message: String, metadata: Logger.Metadata) {
        guard let id = metadata["message_id"].map({ "\($0)" }),
            let kind = EventKind.allCases.first(where: { $0.messageID == id })
        else { return nil }
        var values: [String: EventValue] = [:]
        for field in kind.fields {
            guard let value = metadata[field.name] else { continue }
            if case .stringConvertible(let described) = value, let typed = described as? EventValue {
                values[field.name] = typed
            } else {
                values[field.name] = .string("\(value)")
            }
        }
        self.init(EventPayload(kind, values), message: message)
    }

    /// The event as every consumer carries it: the journal, hooks and `Subscribe`.
    package var eventMessage: EventMessage {
        EventMessage(payload, messageID: kind.messageID, message: message)
    }

    /// `TC_EVENT`, `TC_MESSAGE`, `TC_MESSAGE_ID` and a `TC_<FIELD>` per field of the kind
    /// (`TC_DISTANCE_M`, `TC_TIME`), as `NAME=value` entries; a null field is empty.
    package var environment: [String] {
        let event = eventMessage
        var entries = ["TC_EVENT=\(event.kind)", "TC_MESSAGE=\(event.message)", "TC_MESSAGE_ID=\(kind.messageID)"]
        for (name, text) in event.fieldTexts {
            guard let variable = JournalLogHandler.fieldName(name) else { continue }
            entries.append("TC_\(variable)=\(text)")
        }
        return entries
    }

    /// A hook's standard input: `{"event": "trip-ended", "message_id": "…", "message": "…",
    /// "fields": {"time": "…", "distance_m": 12345.6, …}}`, numbers as numbers, every field of
    /// the kind present (null when unknown).
    package var json: JSONValue { eventMessage.hookJSON }
}

/// Hands every event the pipeline logs (a line with a `message_id`) to the hook runner, which
/// returns at once: logging, and so tracking, never waits for a hook.
package struct HookEventTap: MetadataLogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let runner: HookRunner

    init(_ runner: HookRunner) {
        self.runner = runner
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let own = event.metadata { all.merge(own) { $1 } }
        guard let travelEvent = TravelEvent(message: "\(event.message)", metadata: all) else { return }
        runner.submit(travelEvent)
    }

    /// `logger` with the tap added beside its own handler.
    static func tapping(_ logger: Logger, into runner: HookRunner) -> Logger {
        var tapped = logger
        tapped.handler = MultiplexLogHandler([logger.handler, HookEventTap(runner)])
        return tapped
    }
}
