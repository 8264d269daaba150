package import Logging
internal import Synchronization
internal import TravelControl
internal import TravelCore

/// Turns the pipeline's log into `Subscribe` events: every record the daemon logs at info or
/// above goes out as one event, so what a subscriber sees is what the journal says. A record with
/// the `message_id` of an `EventKind` is of that kind (`trip-ended`, as hooks name it); anything
/// else is kind `log`.
package struct ControlEventTap: MetadataLogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let broadcaster: ControlEventBroadcaster

    init(_ broadcaster: ControlEventBroadcaster) {
        self.broadcaster = broadcaster
    }

    package func log(event: LogEvent) {
        let message = "\(event.message)"
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let kind = HookEvent(message: message, metadata: fields)?.name ?? "log"
        fields["message_id"] = nil
        broadcaster.send(
            [
                "kind": .string(kind),
                "time": .string(SystemClocks.now().realtime.iso8601),
                "message": .string(message),
                "fields": .object(fields.sorted { $0.key < $1.key }.map { .init($0.key, .string("\($0.value)")) }),
            ]
        )
    }

    /// `logger` with the tap added beside its own handler.
    static func tapping(_ logger: Logger, into broadcaster: ControlEventBroadcaster) -> Logger {
        var tapped = logger
        tapped.handler = MultiplexLogHandler([logger.handler, ControlEventTap(broadcaster)])
        return tapped
    }
}

/// Where tapped events go: the control server once it is listening; nowhere before.
final class ControlEventBroadcaster: Sendable {
    private let server = Mutex<VarlinkServer?>(nil)

    func connect(_ server: VarlinkServer) {
        self.server.withLock { $0 = server }
    }

    func send(_ event: JSONValue) {
        server.withLock { $0 }?.broadcast(["event": event])
    }
}
