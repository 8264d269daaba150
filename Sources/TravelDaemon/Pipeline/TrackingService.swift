internal import Logging
internal import ServiceLifecycle
internal import UnixSignals

/// Runs a source into the pipeline, flushes every `FlushIntervalSec` of wall-clock time (the
/// most a crash loses), ends a trip when the receiver has been silent past `MaximumGapSec`,
/// reloads the configuration on SIGHUP, and on graceful shutdown (SIGTERM, SIGINT) or the end
/// of a replayed log flushes once more and returns.
///
/// Under systemd (Type=notify) it says READY=1 once the source starts (the store is open and the
/// control socket bound before this runs), keeps STATUS= current, sends WATCHDOG=1 only while the
/// pipeline answers (a stuck pipeline stops the pings and systemd restarts the daemon), and
/// RELOADING=1 / STOPPING=1 around a reload and the shutdown.
struct TrackingService: Service {
    private let pipeline: TrackingPipeline
    private let source: any FixProvider
    private let sourceName: String
    /// Reads the configuration again and applies it everywhere on SIGHUP, as `Reload` does.
    private let configuration: ConfigurationHolder
    private let logger: Logger
    private let notifier = SystemdNotifier()
    /// How often STATUS= is refreshed when the watchdog does not ask for more.
    static let statusInterval = Duration.seconds(10)
    /// How often a silent receiver's gap is measured (`TrackingPipeline.advanceClock`): a trip
    /// ends at most this late after `[Tracking] MaximumGapSec`.
    static let gapCheckInterval = Duration.seconds(2)

    init(
        pipeline: TrackingPipeline,
        source: any FixProvider,
        sourceName: String,
        configuration: ConfigurationHolder,
        logger: Logger
    ) {
        self.pipeline = pipeline
        self.source = source
        self.sourceName = sourceName
        self.configuration = configuration
        self.logger = logger
    }

    func run() async throws {
        // Trapped before anything else: SIGHUP's default action would end the daemon.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        logger.info("tracking from \(sourceName)")
        let pipeline = pipeline
        let source = source
        let holder = configuration
        let outcome: Result<Bool, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    do {
                        try await Task.sleep(for: .seconds(await pipeline.flushInterval))
                    } catch {
                        return
                    }
                    await pipeline.flushOrLog()
                }
            }
            group.addTask {
                // A silent receiver sends nothing to end a trip with: the clock does.
                while true {
                    do {
                        try await Task.sleep(for: Self.gapCheckInterval)
                    } catch {
                        return
                    }
                    await pipeline.advanceClock()
                }
            }
            group.addTask { [notifier] in
                for await _ in hangups {
                    notifier.notify("RELOADING=1")
                    await holder.reload()
                    notifier.notify("READY=1\nSTATUS=\(await pipeline.serviceStatus())")
                }
            }
            group.addTask { [notifier] in
                let watchdog = notifier.watchdogInterval
                while true {
                    do {
                        try await Task.sleep(for: min(watchdog ?? Self.statusInterval, Self.statusInterval))
                    } catch {
                        return
                    }
                    // Awaiting the pipeline is the health check: no answer, no ping.
                    let status = await pipeline.serviceStatus()
                    notifier.notify(watchdog == nil ? "STATUS=\(status)" : "WATCHDOG=1\nSTATUS=\(status)")
                }
            }
            notifier.notify("READY=1\nSTATUS=\(await pipeline.serviceStatus())")
            defer { group.cancelAll() }
            do {
                try await cancelWhenGracefulShutdown {
                    try await source.run { await pipeline.handle($0) }
                }
                return .success(true)
            } catch is CancellationError where Task.isShuttingDownGracefully {
                return .success(false)
            } catch {
                return .failure(error)
            }
        }
        notifier.notify("STOPPING=1")
        switch outcome {
        case .success(let ended):
            if ended { await pipeline.endOfInput() }
            try await pipeline.flush()
            await pipeline.logStatistics()
            logger.info(ended ? "replay finished, database flushed" : "stopped, database flushed")
        case .failure(let error):
            // Keep what was tracked before the source failed.
            await pipeline.flushOrLog()
            throw error
        }
    }
}
