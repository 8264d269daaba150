internal import Logging
internal import ServiceLifecycle
internal import TravelCore
internal import UnixSignals

/// Runs a source into the pipeline, flushes every `FlushIntervalSec` of wall-clock time (the
/// most a crash loses), reloads the configuration on SIGHUP, and on graceful shutdown (SIGTERM,
/// SIGINT) or the end of a replayed log flushes once more and returns.
struct TrackingService: Service {
    private let pipeline: TrackingPipeline
    private let source: any FixProvider
    private let sourceName: String
    private let reloadConfiguration: @Sendable () throws(ConfigurationError) -> TravelConfiguration
    private let logger: Logger

    init(
        pipeline: TrackingPipeline,
        source: any FixProvider,
        sourceName: String,
        reloadConfiguration: @escaping @Sendable () throws(ConfigurationError) -> TravelConfiguration,
        logger: Logger
    ) {
        self.pipeline = pipeline
        self.source = source
        self.sourceName = sourceName
        self.reloadConfiguration = reloadConfiguration
        self.logger = logger
    }

    func run() async throws {
        // Trapped before anything else: SIGHUP's default action would end the daemon.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        logger.info("tracking from \(sourceName)")
        let pipeline = pipeline
        let source = source
        let reloadConfiguration = reloadConfiguration
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
                for await _ in hangups {
                    await pipeline.reload(Result { () throws(ConfigurationError) in try reloadConfiguration() })
                }
            }
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
