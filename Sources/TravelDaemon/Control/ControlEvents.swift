package import Logging
internal import Synchronization
internal import TravelControl
package import TravelCore
internal import TravelFormats
internal import TravelMessages

/// Turns the pipeline's log into `Subscribe` events: every record the daemon logs at info or
/// above goes out as one event, so what a subscriber sees is what the journal says. A record with
/// the `message_id` of an `EventKind` is of that kind (`trip-ended`, as hooks name it), with the
/// kind's fields typed as hooks get them and its own GPS time; anything else is kind `log`, its
/// fields text, dated by GPS time carried on (`EventClock`).
package struct ControlEventTap: MetadataLogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let broadcaster: ControlEventBroadcaster
    private let clock: EventClock

    init(_ broadcaster: ControlEventBroadcaster, clock: EventClock) {
        self.broadcaster = broadcaster
        self.clock = clock
    }

    package func log(event: LogEvent) {
        let message = "\(event.message)"
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        broadcaster.send(Self.event(message: message, metadata: fields, clock: clock))
    }

    /// The `Event` of a log record.
    static func event(message: String, metadata: Logger.Metadata, clock: EventClock) -> EventMessage {
        if let event = TravelEvent(message: message, metadata: metadata) { return event.eventMessage }
        let fields = metadata.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string("\($0.value)")) }
        return EventMessage(kind: "log", messageID: nil, time: clock.now(), message: message, fields: fields)
    }

    /// `logger` with the tap added beside its own handler.
    static func tapping(_ logger: Logger, into broadcaster: ControlEventBroadcaster, clock: EventClock) -> Logger {
        var tapped = logger
        tapped.handler = MultiplexLogHandler([logger.handler, ControlEventTap(broadcaster, clock: clock)])
        return tapped
    }
}

/// GPS time as the pipeline last knew it, readable from any task: carried on the monotonic clock
/// since the last live fix, else the last replayed fix's time; `nil` before the first fix.
package final class EventClock: Sendable {
    private let state = Mutex<(clock: GPSClock, lastFix: UTCTime?)>((GPSClock(), nil))

    package init() {}

    /// After an accepted fix: the pipeline's clock and the fix's time.
    func update(_ clock: GPSClock, lastFix: UTCTime?) {
        state.withLock { $0 = (clock, lastFix) }
    }

    package func now() -> UTCTime? {
        state.withLock { $0.clock.now(monotonicNanoseconds: SystemClocks.now().monotonicNanoseconds) ?? $0.lastFix }
    }
}

/// Where tapped events go: the control server once it is listening; nowhere before.
final class ControlEventBroadcaster: Sendable {
    private let server = Mutex<VarlinkServer?>(nil)

    func connect(_ server: VarlinkServer) {
        self.server.withLock { $0 = server }
    }

    func send(_ event: EventMessage) {
        server.withLock { $0 }?.broadcast(SubscribeReply(event: event).json)
    }
}
