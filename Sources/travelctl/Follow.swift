import ArgumentParser
import TravelControl
import TravelCore
import TravelIO

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
        do {
            try daemon.client.send(VarlinkCall(method: ControlInterface.Method.subscribe.qualified, more: true))
            while true {
                let reply = try daemon.client.nextReply()
                if let error = reply.varlinkError { throw VarlinkClientError.reply(error) }
                let event = reply.parameters["event"] ?? .null
                if output.json {
                    print(event.serializedString())
                } else if event["kind"]?.stringValue != "subscribed" {
                    // `2026-05-01 08:04:12`, to the second as journalctl shows it.
                    let time = String((event["time"]?.stringValue ?? "?").prefix(19)).split(separator: "T")
                    print("\(time.joined(separator: " "))  \(event["message"]?.stringValue ?? "")")
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
            throw ExitCode(1)
        }
    }
}
