import Foundation
import Testing

/// `travelctl` reads the daemon's replies as typed messages (docs/control.md): a reply that breaks
/// the contract, a member missing or of another type, is one error line naming the member and
/// exit status 1, never a table of zeros or an empty list.
@Suite struct ControlReplyContractTests {
    /// A stand-in daemon on a Unix socket: each call to a method is answered with the reply
    /// parameters given for it (Varlink: one JSON object, NUL-terminated, each way).
    static let stub = """
        import json, socket, sys
        path, replies = sys.argv[1], json.loads(sys.argv[2])
        server = socket.socket(socket.AF_UNIX)
        server.bind(path)
        server.listen(4)
        while True:
            client, _ = server.accept()
            data = b""
            while not data.endswith(b"\\0"):
                chunk = client.recv(65536)
                if not chunk:
                    break
                data += chunk
            if data.endswith(b"\\0"):
                method = json.loads(data[:-1])["method"].rsplit(".", 1)[1]
                client.sendall(json.dumps({"parameters": replies[method]}).encode() + b"\\0")
            client.close()
        """

    /// Runs `travelctl ARGUMENTS --socket …` against the stub answering with `replies`.
    static func travelctl(_ arguments: [String], replies: String) throws -> Binaries.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-stub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control").path
        let stub = Process()
        stub.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        stub.arguments = ["-c", Self.stub, socket, replies]
        stub.standardInput = FileHandle.nullDevice
        try stub.run()
        defer {
            // SIGKILL: the test runner's blocked signals are inherited, SIGTERM would never land.
            kill(stub.processIdentifier, SIGKILL)
            stub.waitUntilExit()
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return try Binaries.run("travelctl", arguments + ["--socket", socket])
    }

    @Test func aTripWithoutItsDistanceIsAnErrorNotAnEmptyList() throws {
        let result = try Self.travelctl(
            ["trips"],
            replies: #"{"ListTrips": {"trips": [{"id": 1, "start": "2026-05-01T08:00:00.000Z"}], "time_zone": "UTC"}}"#
        )
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(
            result.standardError
                == "travelctl: the daemon's ListTrips reply does not read: trips[0].distance_m is missing or not a number\n"
        )
    }

    @Test func aMistypedCountIsAnErrorNotAZero() throws {
        let stats = #"{"year": 2026, "journeys": "3", "distance_m": 12.5, "months": []}"#
        let result = try Self.travelctl(
            ["stats", "--json"],
            replies: #"{"Stats": {"stats": \#(stats), "time_zone": "UTC", "utc_offset": null}}"#
        )
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(
            result.standardError
                == "travelctl: the daemon's Stats reply does not read: stats.journeys is missing or not an integer\n"
        )
    }

    @Test func aJourneyWithoutItsTypeFlagIsAnError() throws {
        let journey = """
            {"id": 4, "type": "day", "destination": "Trieste", "start": "2026-05-01T08:00:00.000Z", \
            "end": null, "start_date": "2026-05-01", "end_date": "2026-05-01", "open": true, "distance_m": 1.0, \
            "duration_s": 60.0, "trips": 1, "trip_ids": [7], "manual": false, "plan_id": null}
            """
        let reply = #"{"journeys": [\#(journey)], "time_zone": "UTC", "home_known": true, "has_trips": true}"#
        let result = try Self.travelctl(["journeys"], replies: #"{"ListJourneys": \#(reply)}"#)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "travelctl: the daemon's ListJourneys reply does not read: journeys[0].type_mismatch is missing or not true or false\n"
        )
    }
}
