import Foundation
import InMemoryLogging
import Logging
import TestSupport
import Testing
import TravelConfiguration
import TravelCore

@testable import TravelDaemon

/// The hook runner with real processes: shell scripts written into a fresh directory record what
/// they were given, and the runner is drained (`finish`, then `run` returns) before anything is
/// checked, so no test waits on a clock.
@Suite struct HookRunnerTests {
    /// A directory of hook scripts and what they record, removed afterwards.
    static let tripEnded = TravelEvent(
        .tripEnded(
            TripSummary(
                startTime: UTCTime(iso8601: "2019-02-18T08:20:00Z")!,
                endTime: UTCTime(iso8601: "2019-02-18T08:40:00Z")!,
                start: Coordinate(latitude: 52.6, longitude: -8.6),
                end: Coordinate(latitude: 52.7, longitude: -8.5),
                distance: 12_345,
                endReason: .parked
            ),
            place: "Castletroy, Munster"
        ),
        message: "trip ended at 2019-02-18T08:40:00Z: 12.3 km in 20 min"
    )

    /// A trip-ended event of `distance` metres.
    static func ended(distance: Double) -> EventPayload {
        var payload = tripEnded.payload
        payload.values["distance_m"] = .metres(distance)
        return payload
    }

    static func hooks(
        _ commandLines: [String: String],
        timeout: Double = 10,
        concurrent: Int = 4,
        queued: Int = 64
    )
        -> TravelConfiguration.Hooks
    {
        var hooks = TravelConfiguration.Hooks()
        hooks.commandLines = commandLines
        hooks.timeout = timeout
        hooks.maximumConcurrent = concurrent
        hooks.maximumQueued = queued
        return hooks
    }

    /// Runs `events` through a runner with `hooks` until every hook has ended; the log it wrote.
    static func drain(
        _ hooks: TravelConfiguration.Hooks,
        _ events: [TravelEvent],
        killGrace: Duration = .milliseconds(300)
    ) async -> (runner: HookRunner, log: [String]) {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .debug
        let runner = HookRunner(hooks, killGrace: killGrace, logger: logger)
        for event in events { runner.submit(event) }
        runner.finish()
        await runner.run()
        return (runner, handler.entries.map(\.message.description))
    }

    @Test func aHookGetsItsArgumentsTheEventInItsEnvironmentAndJSONOnItsStandardInput() async throws {
        let scratch = try TemporaryDirectory()
        let record = try scratch.script(
            "record",
            #"printf '%s\n' "$@" > "$1.argv"; env > "$1.env"; cat > "$1.stdin""#
        )
        setenv("TC_STALE", "from the daemon's own environment", 1)
        let (_, log) = await Self.drain(
            Self.hooks(["TripEnded": #"\#(record) \#(scratch.path)/out "two words" '$HOME'"#]),
            [Self.tripEnded]
        )
        #expect(log.filter { $0.contains("hook") && !$0.hasSuffix("finished") }.isEmpty, "\(log)")

        let argv = try scratch.read("out.argv")
        #expect(argv == "\(scratch.path)/out\ntwo words\n$HOME\n")
        let environment = try scratch.read("out.env").split(separator: "\n").map(String.init)
        #expect(environment.contains("TC_EVENT=trip-ended"))
        #expect(environment.contains("TC_MESSAGE=trip ended at 2019-02-18T08:40:00Z: 12.3 km in 20 min"))
        #expect(environment.contains("TC_MESSAGE_ID=\(EventKind.tripEnded.messageID)"))
        #expect(environment.contains("TC_DISTANCE_M=12345.0"))
        #expect(environment.contains("TC_TRIP_START=2019-02-18T08:20:00.000Z"))
        #expect(environment.contains("TC_TIME=2019-02-18T08:40:00.000Z"))
        #expect(environment.contains("TC_END_REASON=parked"))
        // The three about the event and one per field of the kind; no TC_STALE.
        let count = 3 + EventKind.tripEnded.fields.count
        #expect(environment.filter { $0.hasPrefix("TC_") }.count == count, "\(environment)")
        #expect(environment.contains { $0.hasPrefix("PATH=") }, "the rest of the environment is the daemon's")

        let stdin = try scratch.read("out.stdin")
        #expect(stdin.hasSuffix("}\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdin.utf8)) as? [String: Any])
        #expect(json["event"] as? String == "trip-ended")
        #expect(json["message_id"] as? String == EventKind.tripEnded.messageID)
        #expect(json["message"] as? String == Self.tripEnded.message)
        let fields = try #require(json["fields"] as? [String: Any])
        #expect(Set(fields.keys) == Set(EventKind.tripEnded.fields.map(\.name)))
        #expect(fields["distance_m"] as? Double == 12_345)
        #expect(fields["trip_start"] as? String == "2019-02-18T08:20:00.000Z")
    }

    @Test func severalHooksForOneEventAllRunAndOtherEventsRunNone() async throws {
        let scratch = try TemporaryDirectory()
        let touch = try scratch.script("touch", #"echo "$TC_EVENT" >> "$1""#)
        _ = await Self.drain(
            Self.hooks(["TripEnded": "\(touch) \(scratch.path)/a ; \(touch) \(scratch.path)/b"]),
            [Self.tripEnded, TravelEvent(EventKindTests.sample(.tripStarted), message: "trip started")]
        )
        #expect(try scratch.read("a") == "trip-ended\n")
        #expect(try scratch.read("b") == "trip-ended\n")
    }

    @Test func aHookPastItsTimeoutIsStoppedWithSIGTERMAndWhatItStartedToo() async throws {
        try await Self.expectStoppedPastTimeout(
            #"echo $$ > "$1.pid"; sleep 1000 & echo $! > "$1.child"; wait"#,
            with: "SIGTERM"
        )
    }

    @Test func aHookThatIgnoresSIGTERMGetsSIGKILL() async throws {
        // An ignored signal stays ignored across exec, so the sleep ignores SIGTERM too.
        try await Self.expectStoppedPastTimeout(
            #"trap '' TERM; echo $$ > "$1.pid"; sleep 1000 & echo $! > "$1.child"; wait; wait"#,
            with: "SIGKILL"
        )
    }

    /// Runs a hook of `body` (which writes its own pid and its child's next to `$1`) with a 0.2 s
    /// timeout: the log says it was stopped `with` that signal, and neither process is left.
    static func expectStoppedPastTimeout(_ body: String, with signal: String) async throws {
        let scratch = try TemporaryDirectory()
        let hook = try scratch.script("hook", body)
        let (_, log) = await drain(hooks(["TripEnded": "\(hook) \(scratch.path)/s"], timeout: 0.2), [tripEnded])
        #expect(
            log.contains { $0.contains("hook \(hook) for trip-ended ran longer than") && $0.hasSuffix(signal) },
            "\(log)"
        )
        for file in ["s.pid", "s.child"] {
            #expect(
                TestProcesses.hasEnded(
                    try #require(Int32(try scratch.read(file).trimmingCharacters(in: .whitespacesAndNewlines)))
                )
            )
        }
    }

    @Test func failuresAreLoggedWithTheHooksPath() async throws {
        let scratch = try TemporaryDirectory()
        let failing = try scratch.script("failing", "exit 3")
        let killed = try scratch.script("killed", "kill -KILL $$")
        let notExecutable = "\(scratch.path)/not-executable"
        try "#!/bin/sh\n".write(toFile: notExecutable, atomically: true, encoding: .utf8)
        let (_, log) = await Self.drain(
            Self.hooks(["TripEnded": "/nonexistent/hook ; \(failing) ; \(killed) ; \(notExecutable)"]),
            [Self.tripEnded]
        )
        #expect(
            log.contains("hook /nonexistent/hook for trip-ended cannot be run: No such file or directory"),
            "\(log)"
        )
        #expect(log.contains("hook \(failing) for trip-ended failed: exit status 3"), "\(log)")
        #expect(log.contains("hook \(killed) for trip-ended was killed by signal 9"), "\(log)")
        #expect(log.contains("hook \(notExecutable) for trip-ended cannot be run: Permission denied"), "\(log)")
    }

    @Test func noMoreThanMaxConcurrentHooksRunAtOnce() async throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: "\(scratch.path)/spans", withIntermediateDirectories: true)
        let span = try scratch.script(
            "span",
            #"start=$(date +%s%N); sleep 0.3; end=$(date +%s%N); echo "$start $end" > "$1/$$""#
        )
        _ = await Self.drain(
            Self.hooks(["TripEnded": "\(span) \(scratch.path)/spans"], concurrent: 2),
            Array(repeating: Self.tripEnded, count: 6)
        )
        let spans = try FileManager.default.contentsOfDirectory(atPath: "\(scratch.path)/spans").map { name in
            let parts = try scratch.read("spans/\(name)").split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return (start: parts[0], end: parts[1])
        }
        #expect(spans.count == 6)
        let mostAtOnce = spans.map { span in spans.filter { $0.start <= span.start && span.start < $0.end }.count }
            .max()
        #expect(mostAtOnce ?? 0 <= 2, "\(spans)")
    }

    @Test func hooksBeyondTheQueueAreDroppedCountedAndLogged() async throws {
        let scratch = try TemporaryDirectory()
        let touch = try scratch.script("touch", #"echo x >> "$1""#)
        // Nothing runs before `run`: one hook takes the slot, two wait, two find no room.
        let (runner, log) = await Self.drain(
            Self.hooks(["TripEnded": "\(touch) \(scratch.path)/ran"], concurrent: 1, queued: 2),
            Array(repeating: Self.tripEnded, count: 5)
        )
        #expect(runner.droppedCount == 2)
        #expect(try scratch.read("ran") == "x\nx\nx\n")
        #expect(log.filter { $0.hasPrefix("hook \(touch) for trip-ended dropped") }.count == 2, "\(log)")
        #expect(log.last { $0.contains("dropped") }?.hasSuffix("2 dropped so far") == true, "\(log)")
    }

    @Test func theLogTapHandsOverEventLinesOnlyAndAReloadBringsNewHooks() async throws {
        let scratch = try TemporaryDirectory()
        let touch = try scratch.script("touch", #"echo "$TC_EVENT $TC_DISTANCE_M" >> "$1""#)
        let runner = HookRunner(Self.hooks([:]), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let logger = HookEventTap.tapping(Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, into: runner)
        logger.notice("before the reload", metadata: .event(Self.ended(distance: 1)))

        let reloaded = {
            var configuration = TravelConfiguration()
            configuration.hooks = Self.hooks(["TripEnded": "\(touch) \(scratch.path)/events"])
            return configuration
        }()
        let holder = ConfigurationHolder(
            TravelConfiguration(),
            read: { () throws(ConfigurationError) in reloaded },
            subscribers: [runner],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        #expect(await holder.reload() == nil)
        logger.notice("trip ended", metadata: .event(Self.ended(distance: 2)))
        logger.notice("no message_id, no event", metadata: ["distance_m": "3"])
        logger.debug("below the tap's level", metadata: .event(Self.ended(distance: 4)))
        runner.finish()
        await runner.run()
        #expect(try scratch.read("events") == "trip-ended 2.0\n")
    }

    @Test func cancellationKillsARunningHook() async throws {
        let scratch = try TemporaryDirectory()
        let sleeper = try scratch.script("sleeper", #"echo $$ > "$1.tmp"; mv "$1.tmp" "$1.pid"; exec sleep 1000"#)
        let runner = HookRunner(
            Self.hooks(["TripEnded": "\(sleeper) \(scratch.path)/s"]),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let running = Task { await runner.run() }
        runner.submit(Self.tripEnded)
        var pid: Int32?
        for _ in 0..<12_000 where pid == nil {
            pid = (try? scratch.read("s.pid")).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if pid == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        running.cancel()
        await running.value
        #expect(TestProcesses.hasEnded(try #require(pid, "the hook never started")))
    }

    @Test func everyEventKindHasAHooksKey() {
        #expect(EventKind.allCases.map(\.hookKey) == TravelConfiguration.hookEventKeys)
        #expect(EventKind.poiNearby.name == "poi-nearby")
    }
}
