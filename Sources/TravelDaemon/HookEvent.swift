package import Logging
package import TravelCore

/// One event as hooks see it: its kind, its readable message and its fields (`distance_m` →
/// `12345`), taken from the log line the pipeline wrote for it.
package struct HookEvent: Sendable {
    package var kind: EventKind
    package var message: String
    /// The fields by name, sorted, without `message_id`.
    package var fields: [(name: String, value: String)]

    package init(kind: EventKind, message: String, fields: [(name: String, value: String)] = []) {
        self.kind = kind
        self.message = message
        self.fields = fields.sorted { $0.name < $1.name }
    }

    /// The event a log line stands for: `nil` unless its `message_id` is one of `EventKind`'s.
    package init?(message: String, metadata: Logger.Metadata) {
        guard let id = metadata["message_id"].map({ "\($0)" }),
            let kind = EventKind.allCases.first(where: { $0.messageID == id })
        else { return nil }
        let fields = metadata.filter { $0.key != "message_id" }.map { (name: $0.key, value: "\($0.value)") }
        self.init(kind: kind, message: message, fields: fields)
    }

    /// `TripEnded`: the `[Hooks]` key of this kind.
    package static func hookKey(of kind: EventKind) -> String {
        kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
    }

    /// `trip-ended`: what `TC_EVENT` and the JSON's `event` say.
    package var name: String { TravelConfiguration.eventName(ofHookKey: Self.hookKey(of: kind)) }

    /// `TC_EVENT`, `TC_MESSAGE`, `TC_MESSAGE_ID` and a `TC_<FIELD>` per field (`TC_DISTANCE_M`), as
    /// `NAME=value` entries; fields whose names cannot be variable names are left out.
    package var environment: [String] {
        var entries = ["TC_EVENT=\(name)", "TC_MESSAGE=\(message)", "TC_MESSAGE_ID=\(kind.messageID)"]
        for field in fields {
            guard let variable = JournalLogHandler.fieldName(field.name) else { continue }
            entries.append("TC_\(variable)=\(field.value)")
        }
        return entries
    }

    /// `{"event": "trip-ended", "message_id": "…", "message": "…", "fields": {"distance_m": "12345", …}}`,
    /// field values as the strings the journal gets.
    package var json: JSONValue {
        .object([
            .init("event", .string(name)),
            .init("message_id", .string(kind.messageID)),
            .init("message", .string(message)),
            .init("fields", .object(fields.map { .init($0.name, .string($0.value)) })),
        ])
    }
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
        guard let hookEvent = HookEvent(message: "\(event.message)", metadata: all) else { return }
        runner.submit(hookEvent)
    }

    /// `logger` with the tap added beside its own handler.
    static func tapping(_ logger: Logger, into runner: HookRunner) -> Logger {
        var tapped = logger
        tapped.handler = MultiplexLogHandler([logger.handler, HookEventTap(runner)])
        return tapped
    }
}
