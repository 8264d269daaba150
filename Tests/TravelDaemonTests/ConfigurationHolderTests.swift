import InMemoryLogging
import Logging
import Synchronization
import TestSupport
import Testing
import TravelConfiguration
import TravelCore

@testable import TravelDaemon

/// The one reload path: a file read again reaches every subscriber in order, or none of them.
@Suite struct ConfigurationHolderTests {
    /// Files a test's reloads read, one per reload, in turn.
    final class Files: Sendable {
        private let queued: Mutex<[Result<TravelConfiguration, ConfigurationError>]>
        init(_ queued: [Result<TravelConfiguration, ConfigurationError>]) { self.queued = Mutex(queued) }
        func read() throws(ConfigurationError) -> TravelConfiguration {
            try queued.withLock { $0.removeFirst() }.get()
        }
    }

    /// Notes what it was handed, under its name, in one log shared by every subscriber.
    struct Recorder: ConfigurationSubscriber {
        let name: String
        let log: Log

        func configurationReloaded(_ configuration: TravelConfiguration) {
            log.entries.withLock { $0.append("\(name) \(configuration.storage.flushInterval)") }
        }
    }

    static let refusal = ConfigurationError.unknownKey(
        ConfigurationLocation(file: "/etc/travel-companion/travel-companion.conf", line: 3),
        section: "Storage",
        key: "Flush",
        suggestion: nil
    )

    @Test func aRefusedReloadKeepsTheRunningConfigurationAndTellsNoSubscriber() async throws {
        let scratch = try TemporaryDirectory()
        let (pipeline, handler, configuration) = try TrackingPipelineTests.pipeline(in: scratch)
        var changed = configuration
        changed.storage.flushInterval = 2
        changed.tracking.minimumTripDistance = 1000
        changed.source.url = "gpsd://10.0.0.1:2947"
        let files = Files([.failure(Self.refusal), .success(changed)])
        let log = Log()
        let holder = ConfigurationHolder(
            configuration,
            read: { () throws(ConfigurationError) in try files.read() },
            subscribers: [Recorder(name: "first", log: log), pipeline, Recorder(name: "last", log: log)],
            logger: Logger(label: "test") { _ in handler }
        )

        #expect(await holder.reload() == Self.refusal)
        #expect(await pipeline.flushInterval == configuration.storage.flushInterval)
        #expect(await holder.current == configuration)
        #expect(log.entries.withLock { $0 }.isEmpty)
        #expect(
            TrackingPipelineTests.messages(handler).last
                == "configuration refused, keeping the running one: \(Self.refusal)"
        )

        #expect(await holder.reload() == nil)
        #expect(await pipeline.flushInterval == 2)
        #expect(log.entries.withLock { $0 } == ["first 2.0", "last 2.0"])
        // The source is opened at start: the new URL waits for a restart, and is said to.
        #expect(await holder.current.source.url == configuration.source.url)
        #expect(await holder.current.tracking.minimumTripDistance == 1000)
        #expect(
            TrackingPipelineTests.messages(handler).suffix(2) == [
                "[Source] URL changed; it takes effect when the daemon restarts", "configuration reloaded",
            ]
        )
    }

    @Test func reloadsAskedTogetherRunOneAfterTheOther() async throws {
        var configurations: [Result<TravelConfiguration, ConfigurationError>] = []
        for interval in 1...20 {
            var configuration = TravelConfiguration()
            configuration.storage.flushInterval = Double(interval)
            configurations.append(.success(configuration))
        }
        let files = Files(configurations)
        let log = Log()
        let holder = ConfigurationHolder(
            TravelConfiguration(),
            read: { () throws(ConfigurationError) in try files.read() },
            subscribers: [Recorder(name: "a", log: log), SlowRecorder(name: "b", log: log)],
            logger: Logger(label: "test") { _ in InMemoryLogHandler() }
        )
        await withDiscardingTaskGroup { group in
            for _ in 1...20 { group.addTask { await holder.reload() } }
        }
        // Each reload reached both subscribers before the next began: never a mix of two files.
        let entries = log.entries.withLock { $0 }
        #expect(entries.count == 40)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            #expect(entries[pair].dropFirst(2) == entries[pair + 1].dropFirst(2), "\(entries)")
        }
    }

    /// A subscriber that yields before it takes the configuration, as an actor's would.
    struct SlowRecorder: ConfigurationSubscriber {
        let name: String
        let log: Log

        func configurationReloaded(_ configuration: TravelConfiguration) async {
            await Task.yield()
            log.entries.withLock { $0.append("\(name) \(configuration.storage.flushInterval)") }
        }
    }

    final class Log: Sendable {
        let entries = Mutex<[String]>([])
    }
}
