import Foundation
import Testing
import TravelControl
import TravelCore

/// Clients that break every rule, against a daemon tracking a replay at 10 fixes a second: each
/// costs only its own connection, tracking goes on, and a well-behaved client is still answered.
@Suite(.serialized) struct ControlHostileClientTests {
    @Test func hostileClientsNeitherStallTrackingNorOtherClients() throws {
        let daemon = try ControlDaemon(replaying: DaemonReplayTests.bus, speed: "10")
        defer { #expect(daemon.stop() == 0) }
        let before = try #require(try daemon.status()["counters"]?["fixes_read"]?.intValue)

        // A client that asks and never reads: dropped once its unsent replies pass the cap.
        let deaf = try daemon.client()
        try? deaf.write(
            Array(repeating: VarlinkCall(method: "org.travelcompanion.control.Status").frame, count: 20_000).flatMap {
                $0
            }
        )
        var dropped = 0
        for _ in 0..<600 where dropped == 0 {
            usleep(100_000)
            dropped = try daemon.status()["clients_dropped"]?.intValue ?? 0
        }
        #expect(dropped == 1)

        // 10 MB without a NUL: refused with InvalidMessage, then closed.
        let huge = try daemon.client()
        try? huge.write([UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20))
        #expect(try huge.nextReply().error == "org.travelcompanion.control.InvalidMessage")
        #expect(huge.waitForClose())

        // Invalid JSON: the same.
        let garbage = try daemon.client()
        try garbage.write(Array("{\"method\": nope}\0".utf8))
        #expect(try garbage.nextReply().error == "org.travelcompanion.control.InvalidMessage")
        #expect(garbage.waitForClose())

        // Half a message and no NUL, left hanging: costs one idle connection.
        let hanging = try daemon.client()
        try hanging.write(Array(#"{"method":"org.travelcompanion.control.Status""#.utf8))

        // 1000 connections: the first ones up to MaxConnections (64) are served, the rest refused.
        var files = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        files.rlim_cur = max(files.rlim_cur, min(files.rlim_max, 4096))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        var flood: [VarlinkClient] = []
        var refused = 0
        for _ in 0..<1000 {
            guard let client = try? daemon.client() else {
                refused += 1
                continue
            }
            flood.append(client)
        }
        for client in flood {
            client.setReceiveTimeout(seconds: 1)
            if let reply = try? client.nextReply(), reply.error == "org.travelcompanion.control.TooManyConnections" {
                refused += 1
            }
        }
        #expect(refused >= 1000 - 64, "\(refused) refused")
        flood.removeAll()

        // Meanwhile tracking went on, and a polite client is answered.
        var after = before
        for _ in 0..<600 where after <= before {
            usleep(100_000)
            after = try daemon.status()["counters"]?["fixes_read"]?.intValue ?? before
        }
        #expect(after > before)
        let trips = try Binaries.run("travelctl", ["trips", "--json", "--socket", daemon.socket])
        #expect(trips.status == 0, "\(trips.standardError)")
        _ = hanging
    }
}
