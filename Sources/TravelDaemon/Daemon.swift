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
        let events = ControlEventBroadcaster()
        let eventClock = EventClock()
        let hooks = HookRunner(configuration.hooks, logger: logger)
        let source = ObservedSource(makeSource(url, configuration: configuration, logger: logger))
        let pipeline = try TrackingPipeline(
            configuration: configuration,
            isLive: url.isLive,
            eventClock: eventClock,
            logger: HookEventTap.tapping(
                ControlEventTap.tapping(logger, into: events, clock: eventClock),
                into: hooks
            )
        )
        let reminders = ReminderService(pipeline: pipeline, rules: configuration.reminderRules)
        // A reload (SIGHUP, or Reload on the socket) brings new hooks and reminder rules too.
        let reloadConfiguration = reminders.reloading(hooks.reloading(reloadConfiguration))
        let control = try makeControl(
            configuration: configuration,
            pipeline: pipeline,
            source: source,
            sourceName: "\(url)",
            events: events,
            reloadConfiguration: reloadConfiguration,
            logger: logger
        )
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
                // The control socket starts first and stops last, so clients see the final flush.
                services: [
                    .init(service: control),
                    // Stops after tracking, so the hooks of its last events still run.
                    .init(service: hooks),
                    .init(service: reminders),
                    .init(service: tracking, successTerminationBehavior: .gracefullyShutdownGroup),
                ],
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
