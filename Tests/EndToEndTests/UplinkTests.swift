import Foundation
import TestSupport
import Testing

/// The uplinks end to end: the daemon's history reaches a real mosquitto broker (and a Traccar
/// stand-in) after being recorded offline, across a daemon killed mid-drain, in order, and
/// `travelctl status` says where each stands.
@Suite(.serialized) struct UplinkTests {
    typealias StateDirectory = DaemonReplayTests.StateDirectory

    /// A configuration with `section` appended, thinning off and fast flushes, so every route
    /// point is sent and a killed daemon's cursor is at most a second old.
    static func configure(_ state: StateDirectory, _ section: String) throws {
        let base = try String(contentsOfFile: state.config, encoding: .utf8)
        try (base + "[Storage]\nFlushIntervalSec=1s\n" + section)
            .write(toFile: state.config, atomically: true, encoding: .utf8)
    }

    /// A daemon with no fixes to read (a gpsd port nobody listens on): it only sends its backlog.
    static func idleDaemon(_ state: StateDirectory) throws -> DaemonProcess {
        let port = TestProcesses.freePort()
        return try DaemonProcess([
            "run", "--config", state.config, "--db", state.database, "--source", "gpsd://127.0.0.1:\(port)",
        ])
    }

    /// The rows `query` gives on `database`, as the sqlite3 shell prints them.
    static func rows(_ database: String, _ query: String) throws -> [String] {
        try TimeFaultTests.sqlite(database, query).split(separator: "\n").map(String.init)
    }

    /// Each stored route point's `_id`, and each ended trip's, oldest first.
    static func expectedIDs(_ database: String) throws -> [String] {
        try rows(database, "SELECT 'route-' || t_ms FROM route_points ORDER BY t_ms")
            + rows(database, "SELECT 'trip-end-' || end_ms FROM trips WHERE end_reason IS NOT NULL ORDER BY end_ms")
    }

    static func payloads(_ subscriber: MosquittoSubscriber) -> [[String: Any]] {
        subscriber.lines.compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8))
                as? [String: Any]
        }
    }

    static func status(_ state: StateDirectory) throws -> [String: Any] {
        let result = try Binaries.run(
            "travelctl",
            ["status", "--json", "--socket", state.url.appendingPathComponent("control").path]
        )
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    @Test(
        "a drive recorded while the broker is down reaches it completely and in order, across a daemon killed mid-drain"
    )
    func anOfflineDriveReachesTheBroker() async throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let broker = try MosquittoBroker(start: false)
        let window = 2
        try Self.configure(
            state,
            """
            [MQTT]
            URL=mqtt://127.0.0.1:\(broker.port)
            Topic=owntracks/test/van
            MinIntervalSec=0
            MinDistanceM=0
            InFlight=\(window)

            """
        )
        // Offline: the whole bus ride is recorded, nothing is delivered.
        let offline = try state.daemon(replaying: DaemonReplayTests.bus, speed: "0")
        #expect(offline.waitForExit() == 0, "\(offline.output)")
        let expected = try Self.expectedIDs(state.database)
        try #require(expected.count > 2_000)

        try broker.start()
        let subscriber = try await broker.subscriber(id: "recorder", topic: "owntracks/#")
        // The broker stops answering once a tenth of the backlog is through, then the daemon
        // dies: what it had in flight, and what was acknowledged since it last kept its cursor,
        // is all it may send twice.
        let tripwire = try await broker.tripwire(id: "tripwire", topic: "owntracks/#", stopsAfter: expected.count / 10)
        defer { if tripwire.isRunning { tripwire.terminate() } }
        var daemon = try Self.idleDaemon(state)
        try await waitFor("a tenth of the backlog") { !tripwire.isRunning }
        #expect(tripwire.terminationStatus == 0, "the tripwire did not stop the broker")
        daemon.send(SIGKILL)
        _ = daemon.waitForExit()
        broker.send(SIGCONT)
        let beforeKill = subscriber.lines.count
        #expect(beforeKill < expected.count, "the kill came after the drain had ended")

        daemon = try Self.idleDaemon(state)
        defer { daemon.send(SIGTERM) }
        try await waitFor("the whole backlog", limit: .seconds(60)) {
            Set(Self.payloads(subscriber).compactMap { $0["_id"] as? String }).count >= expected.count
        }
        let received = Self.payloads(subscriber)
        let ids = received.compactMap { $0["_id"] as? String }
        #expect(Set(ids) == Set(expected), "every point and trip end, nothing else")
        #expect(ids.count - expected.count <= 2 * window, "\(ids.count - expected.count) duplicates")
        // In order: each message's time is at least the one before, but for resends after the kill.
        let times = received.filter { ($0["_id"] as? String)?.hasPrefix("route-") == true }.compactMap {
            $0["tst"] as? Int
        }
        let backwards = zip(times, times.dropFirst()).filter { $0 > $1 }.count
        #expect(backwards <= 1, "\(backwards) steps back in time")

        // Field by field, against the database (OwnTracks JSON).
        let first = try #require(received.first { ($0["_id"] as? String) == expected[0] })
        let row = try Self.rows(state.database, "SELECT t_ms / 1000, lat, lon FROM route_points ORDER BY t_ms LIMIT 1")[
            0
        ]
        .split(separator: "|")
        #expect(first["_type"] as? String == "location")
        #expect(first["tst"] as? Int == Int(row[0]))
        #expect(abs((first["lat"] as? Double ?? 0) - Double(row[1])!) < 1e-6)
        #expect(abs((first["lon"] as? Double ?? 0) - Double(row[2])!) < 1e-6)
        #expect(first["t"] as? String == "v", "a trip's first point")
        #expect(received.allSatisfy { ($0["acc"] as? Int ?? 0) >= 1 })
        #expect(received.filter { $0["t"] as? String == "k" }.count == 1, "one trip end")

        // status through the socket: connected, nothing waiting.
        try await waitFor("status to show the drain done") {
            let uplink = (try? Self.status(state)["uplinks"] as? [[String: Any]])?.first
            return uplink?["connected"] as? Bool == true && uplink?["backlog"] as? Int == 0
        }
        let text = try Binaries.run(
            "travelctl",
            ["status", "--socket", state.url.appendingPathComponent("control").path]
        )
        #expect(
            text.output.contains("Uplink     mqtt to mqtt://127.0.0.1:\(broker.port): connected, 0 waiting"),
            "\(text.output)"
        )
    }

    @Test("Traccar: each point once and in order, the trip's end parked")
    func traccarGetsEachPointOnceInOrder() async throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let server = try TraccarStub(plan: [])
        try Self.configure(
            state,
            "[Traccar]\nURL=http://127.0.0.1:\(server.port)\nDeviceID=bus304\nMinIntervalSec=0\nMinDistanceM=0\n"
        )
        let daemon = try state.daemon(replaying: DaemonReplayTests.bus, speed: "0")
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        // A replay ends before its uplink has sent everything; the next run goes on from its cursor.
        let stored = Set(try Self.rows(state.database, "SELECT t_ms / 1000 FROM route_points").compactMap { Int($0) })
        let idle = try Self.idleDaemon(state)
        try await waitFor("every point", limit: .seconds(60)) {
            stored.isSubset(of: Set(((try? server.requests()) ?? []).compactMap { Self.timestamp(of: $0.path) }))
                && (try? server.requests())?.last?.path.contains("motion=false") == true
        }
        idle.send(SIGTERM)
        _ = idle.waitForExit()
        let requests = try server.requests().map(\.path)
        let times = requests.filter { $0.contains("motion=true") }.compactMap { Self.timestamp(of: $0) }
        // The replay also sent, live, the first points of the stop that the trip's end then cut;
        // it stopped with one request in flight (the window), which the next run may send again.
        #expect(times.count - Set(times).count <= 1, "each point once, but the one in flight at the stop")
        #expect(times == times.sorted(), "in order")
        #expect(requests.allSatisfy { $0.contains("id=bus304") })
        #expect(requests.filter { $0.contains("motion=false") }.count == 1, "parked once, at the end")
    }

    @Test("Traccar: a refusal (unknown device) pauses the uplink, says why, and sends nothing more")
    func aRefusalPausesTheUplink() async throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let port = TestProcesses.freePort()
        try Self.configure(state, "[Traccar]\nURL=http://127.0.0.1:\(port)\nDeviceID=unknown\n")
        let offline = try state.daemon(replaying: DaemonReplayTests.bus, speed: "0")
        _ = offline.waitForExit()
        let server = try TraccarStub(port: port, plan: ["400"])
        let daemon = try Self.idleDaemon(state)
        defer { daemon.send(SIGTERM) }
        let line = try #require(daemon.waitForLine(containing: "refused a message"))
        #expect(line.contains("the server answered HTTP 400: unknown device 42"), "\(line)")
        #expect(line.contains("sending again in 600 s"), "\(line)")
        let uplink = try #require((try Self.status(state)["uplinks"] as? [[String: Any]])?.first)
        #expect(uplink["refused"] as? Int == 1)
        #expect((uplink["paused_s"] as? Double ?? 0) > 590, "\(uplink)")
        let sent = try server.requests().count
        try await Task.sleep(for: .seconds(2))
        #expect(try server.requests().count == sent, "no retry storm")
    }

    @Test("Traccar: server errors are retried after a growing pause, in order, nothing lost")
    func serverErrorsAreRetried() async throws {
        let state = try StateDirectory()
        defer { state.remove() }
        let port = TestProcesses.freePort()
        try Self.configure(
            state,
            "[Traccar]\nURL=http://127.0.0.1:\(port)\nDeviceID=bus304\nMinIntervalSec=60\nMinDistanceM=0\n"
        )
        let offline = try state.daemon(replaying: DaemonReplayTests.bus, speed: "0")
        _ = offline.waitForExit()
        let server = try TraccarStub(port: port, plan: ["500", "500"])
        let daemon = try Self.idleDaemon(state)
        defer { daemon.send(SIGTERM) }
        let line = try #require(daemon.waitForLine(containing: "not delivered"))
        #expect(line.contains("HTTP 500"), "\(line)")
        try await waitFor("the trip's end", limit: .seconds(60)) {
            (try? server.requests())?.last?.path.contains("motion=false") == true
        }
        let requests = try server.requests().map(\.path)
        let times = requests.compactMap { Self.timestamp(of: $0) }
        #expect(Array(times.prefix(3)) == Array(repeating: times[0], count: 3), "the first point, sent three times")
        #expect(Array(times.dropFirst(2)) == Array(Set(times)).sorted(), "then each once, in order")
    }

    static func timestamp(of request: String) -> Int? {
        URLComponents(string: request)?.queryItems?.first { $0.name == "timestamp" }?.value.flatMap(Int.init)
    }
}
