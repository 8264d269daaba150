import Foundation
import Testing
import TravelControl
import TravelFormats
/// The control socket of a real daemon replaying real drives, through a client nobody here wrote
/// (Python `varlink` from PyPI), `travelctl` and raw sockets.
@Suite(.serialized) struct ControlSocketTests {
    static let interface = "org.travelcompanion.control"

    @Test(.enabled(if: PythonVarlink.isInstalled, "python3 -m pip install varlink (scripts/setup.sh)"))
    func thePythonClientDescribesAndCallsOurInterface() throws {
        let daemon = try ControlDaemon(replaying: DaemonReplayTests.bus, speed: "10")
        defer { #expect(daemon.stop() == 0) }
        let address = "unix:\(daemon.socket)"

        let info = try PythonVarlink.run(["info", address])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.output.contains("Product: travel-companiond"), "\(info.output)")
        let version = try Binaries.run("travelctl", ["--version"]).output
        #expect(info.output.contains("Version: \(version)"), "\(info.output)")
        #expect(info.output.contains(Self.interface), "\(info.output)")

        let help = try PythonVarlink.run(["help", "\(address)/\(Self.interface)"])
        #expect(help.output.contains("method Status() -> ("), "\(help.output)\(help.standardError)")
        // Events carry typed fields: an object, not strings.
        #expect(help.output.contains("fields: object"), "\(help.output)")
        let nope = try PythonVarlink.run(["call", "\(address)/\(Self.interface).ListEvents", #"{"zone": "Nope"}"#])
        #expect(nope.standardError.contains("ZoneNotFound"), "\(nope.output)\(nope.standardError)")

        let status = try PythonVarlink.run(["call", "\(address)/\(Self.interface).Status", "{}"])
        let parameters = try JSONValue(parsing: status.output)
        #expect(parameters["source"]?.stringValue?.hasPrefix("file://") == true, "\(status.output)")
        #expect(parameters["counters"]?["fixes_read"]?.intValue != nil, "\(status.output)")

        // The CLI exits 0 even on an error reply: its output says which.
        let missing = try PythonVarlink.run(["call", "\(address)/\(Self.interface).GetTrip", #"{"id": 999}"#])
        #expect(missing.standardError.contains("TripNotFound"), "\(missing.output)\(missing.standardError)")
        let unknown = try PythonVarlink.run(["call", "\(address)/\(Self.interface).Nope", "{}"])
        #expect(
            (unknown.output + unknown.standardError).contains("MethodNotFound"),
            "\(unknown.output)\(unknown.standardError)"
        )

        // call --more streams until stopped; the first reply is the subscription itself.
        let follow = try PythonVarlink.run(
            ["call", "--more", "\(address)/\(Self.interface).Subscribe", "{}"],
            timeout: 3
        )
        #expect(follow.output.contains(#""kind": "subscribed""#), "\(follow.output)\(follow.standardError)")
    }

    @Test func aSubscriberSeesTheTripStartAndEnd() throws {
        let daemon = try ControlDaemon(replaying: ControlDaemon.car, speed: "20")
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        try client.send(VarlinkCall(method: "\(Self.interface).Subscribe", more: true))
        var kinds: [String] = []
        while !kinds.contains("trip-ended") {
            let reply = try client.nextReply()
            #expect(reply.continues)
            kinds.append(reply.parameters["event"]?["kind"]?.stringValue ?? "?")
        }
        #expect(kinds.first == "subscribed")
        #expect(kinds.filter { $0 == "trip-started" }.count == 1, "\(kinds)")
        let started = try #require(kinds.firstIndex(of: "trip-started"))
        #expect(started < kinds.firstIndex(of: "trip-ended")!)
    }

    @Test func travelctlLivePrintsWhatTheDatabasePrints() throws {
        let daemon = try ControlDaemon(replaying: DaemonReplayTests.bus, speed: "10", history: [ControlDaemon.car])
        defer { #expect(daemon.stop() == 0) }
        let commands: [[String]] = [
            ["trips"], ["trips", "--json"], ["trips", "--since", "2020-12-18", "--json"], ["trip", "show", "1"],
            ["trip", "show", "1", "--json"], ["stats"], ["stats", "--json"], ["stats", "--year", "2019", "--json"],
        ]
        for command in commands {
            let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
            let offline = try Binaries.run("travelctl", command + ["--db", daemon.state.database])
            #expect(live.status == 0, "\(command): \(live.standardError)")
            #expect(live.output == offline.output, "\(command)")
            #expect(!live.output.isEmpty, "\(command)")
        }
        let missing = try Binaries.run("travelctl", ["trip", "show", "99", "--socket", daemon.socket])
        #expect(missing.status == 1)
        #expect(missing.standardError == "travelctl: no trip 99\n")

        let status = try Binaries.run("travelctl", ["status", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.output.contains("Source     file://"), "\(status.output)")
        #expect(status.output.contains("Database   \(daemon.state.database)"), "\(status.output)")
    }

    @Test func withoutADaemonTravelctlSaysSoAndExits69() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("tc-\(UUID().uuidString)").path
        for command in [["status"], ["follow"], ["trips"], ["stats", "--json"]] {
            let result = try Binaries.run("travelctl", command + ["--socket", socket])
            #expect(result.status == 69)
            #expect(result.standardError == "travelctl: travel-companiond is not running (no socket at \(socket))\n")
        }
    }

    /// A socket that takes connections nobody answers (a socket unit whose service fails at every
    /// start): `travelctl` gives up after its reply timeout, exit 69, instead of hanging.
    @Test func aSocketNobodyAnswersIsAnUnavailableDaemonNotAHang() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("tc-\(UUID().uuidString)").path
        let listener = try #require(UnixSocket.listening(at: socket))
        defer {
            close(listener)
            unlink(socket)
        }
        nonisolated(unsafe) var results: [Int: Binaries.Result] = [:]
        let lock = NSLock()
        let commands = [["status"], ["follow"]]  // a call, and a subscription
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            let result = try? Binaries.run("travelctl", commands[index] + ["--socket", socket])
            lock.withLock { results[index] = result }
        }
        for index in commands.indices {
            let result = try #require(results[index])
            #expect(result.status == 69, "\(commands[index]): \(result.standardError)")
            #expect(
                result.standardError
                    == "travelctl: the daemon did not answer within 30 s; is it starting, or failing at its start? "
                    + "(systemctl status travel-companion)\n",
                "\(commands[index])"
            )
        }
    }

    @Test func followPrintsEventsAsJSONLines() throws {
        // Istria is UTC+1 in December; people read the daemon's local time, the fields stay UTC.
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "20",
            configuration: "[Journeys]\nTimeZone=Europe/Zagreb\n"
        )
        defer { _ = daemon.stop() }
        // A second subscriber reads the same events as people do, meanwhile.
        let (human, socket) = (Box(), daemon.socket)
        let reading = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            human.result = try? Binaries.run("travelctl", ["follow", "--socket", socket])
            reading.signal()
        }
        // follow ends with exit 69 when the replay ends and the daemon goes away.
        let follow = try Binaries.run("travelctl", ["follow", "--json", "--socket", daemon.socket])
        #expect(follow.status == 69, "\(follow.standardError)")
        let events = try follow.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let kinds = events.map { $0["kind"] }
        #expect(kinds.first == "subscribed")
        #expect(kinds.contains("trip-ended"), "\(follow.output)")
        // Every event is dated by GPS time (the drive's day, 2020-12-18), never the system clock.
        let ended = try #require(events.first { $0["kind"] == "trip-ended" })
        #expect(ended["time"] == ended["fields"]?["trip_end"])
        #expect(events.dropFirst().allSatisfy { $0["time"]?.stringValue?.hasPrefix("2020-12-18T") ?? true })
        reading.wait()
        let lines = try #require(human.result).output.split(separator: "\n")
        let trip = try #require(lines.first { $0.contains("trip ended at ") })
        let end = try #require(ended["time"]?.stringValue)
        #expect(end == "2020-12-18T06:22:36.000Z")
        #expect(trip.hasPrefix("2020-12-18 07:22:36  trip ended at 2020-12-18 07:22 at "), "\(trip)")
        #expect(lines.allSatisfy { $0.hasPrefix("2020-12-18 ") || $0.hasPrefix(String(repeating: " ", count: 19)) })
    }
}

/// A result one thread writes before it signals and another reads after it waited.
private final class Box: @unchecked Sendable {
    var result: Binaries.Result?
}
