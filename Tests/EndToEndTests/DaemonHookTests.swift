import Foundation
import TestSupport
import Testing

/// `[Hooks]` with the real daemon replaying a real drive: hook scripts written into the test's
/// directory record what they get.
@Suite struct DaemonHookTests {
    /// An executable `/bin/sh` script in `directory`; its path.
    static func script(_ name: String, in directory: URL, _ body: String) throws -> String {
        try TemporaryDirectory.script(at: directory.appendingPathComponent(name).path, body)
    }

    @Test func aReplayRunsTheHooksOfItsEventsWithoutWaitingForThem() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let directory = state.url.path
        let record = try Self.script(
            "record",
            in: state.url,
            #"printf '%s\n' "$@" > "$1.argv"; env > "$1.env"; cat > "$1.stdin""#
        )
        // Holds its slot from the trip's start until it is killed; it notes whether the trip's
        // end (and so its hook) came while it was still running.
        let blocker = try Self.script(
            "blocker",
            in: state.url,
            #"""
            echo $$ > "$1.pid"
            while [ ! -e "$2.stdin" ]; do sleep 0.05; done
            echo "trip ended meanwhile" > "$1.released"
            exec sleep 1000
            """#
        )
        try """
        [Hooks]
        TripEnded=\(record) \(directory)/ended "two words"
        TripStarted=\(blocker) \(directory)/blocker \(directory)/ended
        FixAcquired=/nonexistent/hook --flag
        # Far longer than the replay takes (well under a second): a bound for a hang.
        TimeoutSec=8s
        MaxConcurrent=2

        [Journeys]
        # Eight hours east of the ride's Limerick: what people read is local, the fields stay UTC.
        TimeZone=Asia/Shanghai
        """.write(toFile: state.config, atomically: true, encoding: .utf8)

        let daemon = try DaemonProcess([
            "run", "--config", state.config, "--db", state.database,
            "--socket", state.url.appendingPathComponent("control").path,
            "--source", "file://\(DaemonReplayTests.bus)?speed=0",
        ])
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let output = daemon.output

        // Tracking went on while a hook hung: the trip ended, its hook ran, the trips are the importer's.
        let (_, expected) = try DaemonReplayTests.imported(DaemonReplayTests.bus, in: state)
        let trips = try ImportCommandTests.trips(state.database)
        #expect(DaemonReplayTests.essentials(trips) == DaemonReplayTests.essentials(expected))
        let released = try? String(contentsOfFile: "\(directory)/blocker.released", encoding: .utf8)
        #expect(released == "trip ended meanwhile\n", "\(output)")
        #expect(output.contains("hook \(blocker) for trip-started ran longer than"), "\(output)")
        let blockerID = try #require(
            Int32(
                try String(contentsOfFile: "\(directory)/blocker.pid", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines
                )
            )
        )
        #expect(TestProcesses.hasEnded(blockerID), "the blocked hook was killed")

        // A missing program is logged with its path; the daemon carries on.
        #expect(
            output.contains("hook /nonexistent/hook for fix-acquired cannot be run: No such file or directory"),
            "\(output)"
        )

        // The trip-ended hook: arguments as written, the event in its environment and on its standard input.
        let trip = try #require(trips.first)
        #expect(
            try String(contentsOfFile: "\(directory)/ended.argv", encoding: .utf8) == "\(directory)/ended\ntwo words\n"
        )
        let environment = try String(contentsOfFile: "\(directory)/ended.env", encoding: .utf8).split(separator: "\n")
            .map(String.init)
        let distance = try #require(trip["distance_m"] as? Double)
        #expect(environment.contains("TC_EVENT=trip-ended"))
        #expect(environment.contains("TC_MESSAGE_ID=b64b1e3614a541f7bde48c469cf05257"))
        #expect(environment.contains("TC_DISTANCE_M=\(distance)"), "\(environment)")
        #expect(environment.contains("TC_TRIP_START=\(trip["start"] ?? "?")"), "\(environment)")
        #expect(environment.contains("TC_TRIP_END=\(trip["end"] ?? "?")"), "\(environment)")
        #expect(environment.contains("TC_TIME=2019-02-18T09:00:19.000Z"), "\(environment)")
        let message = try #require(environment.first { $0.hasPrefix("TC_MESSAGE=") }?.dropFirst("TC_MESSAGE=".count))
        // Local time, to the minute, and the place by its name, as `trips` names it: no coordinates.
        let place = try #require(trip["end_place"] as? String)
        #expect(message == "trip ended at 2019-02-18 17:00 at \(place): 13.9 km in 1 h 10 min (end-of-input)")
        #expect(output.contains(message))

        let stdin = try Data(contentsOf: state.url.appendingPathComponent("ended.stdin"))
        let json = try #require(try JSONSerialization.jsonObject(with: stdin) as? [String: Any])
        #expect(json["event"] as? String == "trip-ended")
        #expect(json["message"] as? String == String(message))
        let fields = try #require(json["fields"] as? [String: Any])
        #expect(fields["distance_m"] as? Double == distance)
        #expect(fields["trip_start"] as? String == "\(trip["start"] ?? "?")")
        #expect(fields["time"] as? String == "\(trip["end"] ?? "?")")
    }
}
