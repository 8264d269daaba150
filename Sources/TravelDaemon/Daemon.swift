package import Logging
internal import ServiceLifecycle
internal import UnixSignals
package import TravelCore

/// Builds and runs the daemon for a checked configuration: what `travel-companiond run` does
/// after parsing its options, kept here so the executable stays a few lines.
package enum Daemon {
    /// Runs until a replayed log ends or SIGTERM/SIGINT arrives; throws when the database or the
    /// source cannot be used.
    package static func run(
        configuration: TravelConfiguration,
        source url: SourceURL,
        reloadConfiguration: @escaping @Sendable () throws(ConfigurationError) -> TravelConfiguration,
        logger: Logger
    ) async throws {
        let source = makeSource(url, configuration: configuration, logger: logger)
        let pipeline = try TrackingPipeline(configuration: configuration, logger: logger)
        let tracking = TrackingService(
            pipeline: pipeline,
            source: source,
            sourceName: "\(url) into \(configuration.storage.database)",
            reloadConfiguration: reloadConfiguration,
            logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // A replay that ends is a normal exit, not a failure.
                services: [.init(service: tracking, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }

    private static func makeSource(
        _ url: SourceURL,
        configuration: TravelConfiguration,
        logger: Logger
    ) -> any FixProvider {
        let reconnectMaximum = Duration.seconds(configuration.source.reconnectMaximumInterval)
        switch url {
        case .file(let path, let speed): return ReplaySource(path: path, speed: speed)
        case .gpsd(let host, let port):
            return GPSDSource(host: host, port: port, reconnectMaximum: reconnectMaximum, logger: logger)
        case .serial(let path, let baud):
            return SerialSource(path: path, baud: baud, reconnectMaximum: reconnectMaximum, logger: logger)
        }
    }
}
