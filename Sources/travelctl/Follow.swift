import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `travelctl follow`: the daemon's events as they happen, like `journalctl -f`.
struct Follow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the daemon's events as they happen (trips, fixes, the source) until interrupted.",
        discussion: "With --json, one JSON object per line, the first being the subscription itself."
    )

    @OptionGroup var database: SocketOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let daemon = try DaemonClient(socket: database.socket)
        // People read the daemon's local time, as its event messages and tables have it.
        let zone =
            output.json
            ? .utc : LocalTimeZone.of(name: (try daemon.call(.status, NoParameters()) as StatusReply).timeZone)
        do {
            try daemon.client.send(VarlinkCall(method: ControlInterface.Method.subscribe.qualified, more: true))
            while true {
                let reply = try daemon.client.nextReply()
                daemon.client.setReceiveTimeout(seconds: nil)  // subscribed: events come when they come
                if let error = reply.varlinkError { throw VarlinkClientError.reply(error) }
                let event: EventMessage
                do {
                    event = try SubscribeReply(json: reply.parameters).event
                } catch {
                    printError("travelctl: the daemon's Subscribe reply does not read: \(error)")
                    throw ExitCode(1)
                }
                if output.json {
                    print(event.json.serializedString())
                } else if event.kind != "subscribed" {
                    print("\(Self.time(of: event, in: zone))  \(event.message)")
                }
                fflush(nil)
                if !reply.continues { return }
            }
        } catch let error as VarlinkClientError {
            if case .connectionLost = error {
                printError("travelctl: travel-companiond stopped")
                throw ExitCode(69)
            }
            printError("travelctl: \(DaemonClient.sentence(for: error))")
            throw ExitCode(DaemonClient.status(for: error))
        }
    }

    /// `2019-02-18 07:50:08`: the event's own GPS time in the daemon's `[Journeys] TimeZone`, to
    /// the second as journalctl shows it; blank while the daemon has no GPS time (before its
    /// first fix).
    static func time(of event: EventMessage, in zone: LocalTimeZone) -> String {
        guard let time = event.time else { return String(repeating: " ", count: 19) }
        return String(zone.local(time).iso8601.prefix(19)).split(separator: "T").joined(separator: " ")
    }
}
