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
        let source = try makeSource(url)
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

    private static func makeSource(_ url: SourceURL) throws(DaemonError) -> any FixProvider {
        switch url {
        case .file(let path, let speed): ReplaySource(path: path, speed: speed)
        case .gpsd, .serial: throw .sourceNotAvailable(url)
        }
    }
}

/// Why the daemon cannot start.
package enum DaemonError: Error, Sendable, CustomStringConvertible {
    /// The source's kind is not built yet.
    case sourceNotAvailable(SourceURL)

    package var description: String {
        switch self {
        case .sourceNotAvailable(let url): "source '\(url)': this kind of source is not supported yet; use file://"
        }
    }
}
