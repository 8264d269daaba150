import ArgumentParser
import TravelControl
import TravelFormats
import TravelIO
import TravelMessages

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `travelctl notify-bridge`: the daemon's alerts as desktop notifications.
///
/// The daemon runs as a system service and cannot reach a user's session bus, so this runs in the
/// user's session (`systemd/travel-companion-notify.service`), subscribes to the control socket
/// like `follow`, and calls `org.freedesktop.Notifications.Notify` itself through sd-bus.
struct NotifyBridge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-bridge",
        abstract: "Show the daemon's alerts (zones, nearby places, reminders, trip ends) as desktop notifications.",
        discussion: """
            Runs until stopped. When the daemon is not running or restarts, it waits and reconnects \
            (pauses from 0.5 s doubling up to 30 s). A missing notification server is reported once \
            per kind of failure and never stops the bridge.
            """
    )

    /// `--socket`; there is no offline bridge, so `--db` is refused.
    @OptionGroup var database: SocketOptions

    func run() throws {
        Self.exitOnTermination()
        let path = database.socket ?? DatabaseOptions.defaultSocket
        let desktop = DesktopNotifications()
        var reportedFailures: Set<String> = []
        var backoff = Backoff()
        var lastProblem: String?
        while true {
            do throws(VarlinkClientError) {
                let client = try VarlinkClient(path: path)
                client.setReceiveTimeout(seconds: DaemonClient.replyTimeout)
                try client.send(VarlinkCall(method: ControlInterface.Method.subscribe.qualified, more: true))
                while true {
                    let reply = try client.nextReply()
                    if let error = reply.varlinkError { throw VarlinkClientError.reply(error) }
                    let event: EventMessage
                    do {
                        event = try SubscribeReply(json: reply.parameters).event
                    } catch {
                        printError("travelctl: notify-bridge: the daemon's Subscribe reply does not read: \(error)")
                        continue
                    }
                    if event.kind == "subscribed" {
                        printError("travelctl: notify-bridge: subscribed to \(path)")
                        client.setReceiveTimeout(seconds: nil)  // events come when they come
                        backoff.reset()
                        lastProblem = nil
                    }
                    if let alert = Alert(event: event) {
                        do throws(DesktopNotifications.Failure) {
                            try desktop.notify(summary: alert.summary, body: alert.body, urgency: alert.urgency)
                        } catch {
                            if reportedFailures.insert(error.kind).inserted {
                                printError("travelctl: notify-bridge: \(error) (reported once)")
                            }
                        }
                    }
                    if !reply.continues { throw VarlinkClientError.connectionLost("the subscription ended") }
                }
            } catch {
                let problem = Self.sentence(for: error, path: path)
                // Once per outage, not once per retry.
                if problem != lastProblem {
                    printError("travelctl: notify-bridge: \(problem); reconnecting")
                    lastProblem = problem
                }
            }
            backoff.wait()
        }
    }

    private static func sentence(for error: VarlinkClientError, path: String) -> String {
        switch error {
        case .connectionLost: "travel-companiond went away"
        case .cannotConnect where error.meansDaemonNotRunning:
            "travel-companiond is not running (no socket at \(path))"
        case .cannotConnect(_, let reason, _): "cannot connect to \(path): \(reason)"
        case .noAnswer, .reply: DaemonClient.sentence(for: error)
        }
    }

    /// SIGTERM and SIGINT end the bridge with status 0; it holds nothing that needs flushing.
    /// They are unblocked first: a parent's blocked signals are inherited.
    private static func exitOnTermination() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        signal(SIGTERM) { _ in _exit(0) }
        signal(SIGINT) { _ in _exit(0) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Pauses between reconnection attempts: 0.5 s, doubling, capped at 30 s.
    struct Backoff {
        static let first = 500
        static let cap = 30_000
        private(set) var milliseconds = Self.first

        mutating func reset() { milliseconds = Self.first }

        mutating func wait() {
            var pause = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
            var remaining = timespec()
            while nanosleep(&pause, &remaining) != 0 && errno == EINTR { pause = remaining }
            milliseconds = min(milliseconds * 2, Self.cap)
        }
    }
}

/// A notification for one of the daemon's events, or `nil` for the kinds that are not alerts.
///
/// Alerts: `zone-entered`, `zone-exited`, `poi-nearby`, `no-trip-reminder`, `plan-reminder` and
/// `trip-ended`. Trip starts, fixes, the source and the clock are status, not news: `follow`
/// and the journal show them.
struct Alert: Equatable {
    var summary: String
    var body: String
    var urgency: DesktopNotifications.Urgency

    init?(event: EventMessage) {
        func field(_ name: String) -> String {
            guard let value = event.field(name), value != .null else { return "?" }
            return value.stringValue ?? value.serializedString()
        }
        body = event.message
        urgency = .normal
        switch event.kind {
        case "zone-entered": summary = "Entered \(field("zone_name"))"
        case "zone-exited": summary = "Left \(field("zone_name"))"
        case "poi-nearby": summary = "Nearby: \(field("poi_name"))"
        case "no-trip-reminder": summary = "No trip logged for \(field("days")) days"
        case "plan-reminder": summary = "Journey to \(field("destination")) starts tomorrow"
        case "trip-ended":
            summary = "Trip ended"
            urgency = .low
        default: return nil
        }
        // A summary is one line (a POI name may hold a line break); the body may have several.
        summary = summary.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
