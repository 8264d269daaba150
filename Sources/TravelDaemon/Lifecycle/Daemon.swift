#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
internal import ServiceLifecycle
internal import UnixSignals
internal import TravelControl
internal import TravelIO
internal import TravelStore
package import TravelConfiguration
internal import TravelCore

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
        loadGazetteer(logger: logger)
        // A peer gone mid-write is an error return, never the end of the daemon: OpenSSL (an
        // mqtts:// or https:// uplink) writes with plain write(2). Hooks get SIGPIPE back.
        signal(SIGPIPE, SIG_IGN)
        let events = ControlEventBroadcaster()
        let eventClock = EventClock()
        let hooks = HookRunner(configuration.hooks, logger: logger)
        let source = ObservedSource(makeSource(url, configuration: configuration, logger: logger))
        let journeyRequests = JourneyService.makeRequests()
        // What the pipeline and a reload log are events too, for subscribers and hooks.
        let tapped = HookEventTap.tapping(ControlEventTap.tapping(logger, into: events, clock: eventClock), into: hooks)
        let pipeline = try TrackingPipeline(
            configuration: configuration,
            isLive: url.isLive,
            journeysChanged: journeyRequests.1,
            eventClock: eventClock,
            logger: tapped
        )
        let writer = HistoryWriter(
            path: configuration.storage.database,
            rules: configuration.journeyRules,
            now: { await pipeline.gpsNow() ?? SystemClocks.now().realtime },
            watchPlaces: { change in
                switch change {
                case .zones: await pipeline.reloadZones()
                case .pois(let index): await pipeline.reloadPlaces(pois: index)
                }
            }
        )
        let reminders = ReminderService(pipeline: pipeline, rules: configuration.reminderRules)
        let history = HistoryReader(path: configuration.storage.database, rules: configuration.journeyRules)
        let journeys = JourneyService(requests: journeyRequests, writer: writer, logger: logger)
        // SIGHUP and Reload on the socket alike: the journeys are regrouped once the reader and
        // the writer hold the new `[Journeys]` rules.
        let holder = ConfigurationHolder(
            configuration,
            read: reloadConfiguration,
            subscribers: [pipeline, hooks, reminders, history, writer, journeys],
            logger: tapped
        )
        let uplinks = makeUplinks(configuration, pipeline: pipeline, logger: logger)
        let control = try makeControl(
            configuration: configuration,
            pipeline: pipeline,
            history: history,
            writer: writer,
            source: source,
            sourceName: "\(url)",
            events: events,
            holder: holder,
            uplinks: uplinks,
            logger: logger
        )
        let tracking = TrackingService(
            pipeline: pipeline,
            source: source,
            sourceName: "\(url) into \(configuration.storage.database)",
            configuration: holder,
            logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // A replay that ends is a normal exit, not a failure.
                // The control socket starts first and stops last, so clients see the final flush.
                services: [
                    .init(service: control),
                    // Stops after tracking, so the final flush's trips are grouped into journeys.
                    .init(service: journeys),
                    // Stops after tracking, so the hooks of its last events still run.
                    .init(service: hooks),
                    .init(service: reminders),
                    .init(service: tracking, successTerminationBehavior: .gracefullyShutdownGroup),
                    // Stop before tracking, whose final flush keeps where they stand.
                    // An uplink that stops (its history unreadable) leaves the rest running.
                ]
                    + uplinks.map {
                        .init(service: $0, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore)
                    },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        // Every service has stopped (the final flush made, no client reading): a clean stop
        // leaves the whole history in the database file, with where the uplinks stand (a replay
        // that ended stopped tracking before them).
        await pipeline.flushOrLog(commit: true)
        await pipeline.checkpoint()
    }

    /// Maps the shipped gazetteer for every database of the process; without one, places no zone
    /// or POI names are labelled by their coordinates.
    private static func loadGazetteer(logger: Logger) {
        do {
            TravelDatabase.gazetteer = try GazetteerFile.loadDefault()
            if let gazetteer = TravelDatabase.gazetteer {
                logger.info("naming places after \(gazetteer.count) towns of the gazetteer")
            } else {
                logger.info("no gazetteer: places no zone or POI names are labelled by their coordinates")
            }
        } catch {
            logger.warning("\(error); places no zone or POI names are labelled by their coordinates")
        }
    }

    private static func makeSource(
        _ url: SourceURL,
        configuration: TravelConfiguration,
        logger: Logger
    ) -> any FixProvider {
        let reconnectMaximum = Backoff.maximum(
            configured: .seconds(configuration.source.reconnectMaximumInterval),
            sourceIsLocal: url.isOnThisMachine
        )
        switch url {
        case .file(let path, let speed): return ReplaySource(path: path, speed: speed, logger: logger)
        case .gpsd(let host, let port):
            return GPSDSource(host: host, port: port, reconnectMaximum: reconnectMaximum, logger: logger)
        case .serial(let path, let baud):
            return SerialSource(path: path, baud: baud, reconnectMaximum: reconnectMaximum, logger: logger)
        }
    }
}
