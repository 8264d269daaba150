package import Logging
package import TravelConfiguration
/// A part of the daemon that follows the configuration file: told each configuration a reload
/// read and accepted, in `ConfigurationHolder`'s order.
package protocol ConfigurationSubscriber: Sendable {
    /// Uses `configuration` from now on. The keys read only at start (the source, the database,
    /// the control socket, the uplinks) still hold the running values.
    func configurationReloaded(_ configuration: TravelConfiguration) async
}

/// The daemon's configuration, and its one reload path: SIGHUP and the `Reload` call both call
/// `reload()`, which reads the file again and, when it is accepted, hands the new snapshot to
/// every subscriber in a fixed order (the pipeline, hooks, reminders, the history reader and
/// writer, the journey regroup), then says which changes wait for a restart (the uplinks among
/// them). A refused file changes nothing: the running configuration stays, and the one line that
/// says why is logged and returned. Reloads run one at a time, in the order they were asked.
package actor ConfigurationHolder {
    private let read: @Sendable () throws(ConfigurationError) -> TravelConfiguration
    private let subscribers: [any ConfigurationSubscriber]
    private let logger: Logger
    /// The configuration in force: the last one accepted, its start-only keys the start's.
    package private(set) var current: TravelConfiguration
    /// Whether a reload is under way, and the reloads waiting for it to end.
    private var reloading = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// `current`: the configuration the daemon started with; `read`: reads the file again;
    /// `subscribers`: told each accepted configuration, in this order; `logger`: where a reload
    /// says how it went (the pipeline's, so hooks and subscribers see it too).
    package init(
        _ current: TravelConfiguration,
        read: @escaping @Sendable () throws(ConfigurationError) -> TravelConfiguration,
        subscribers: [any ConfigurationSubscriber],
        logger: Logger
    ) {
        self.current = current
        self.read = read
        self.subscribers = subscribers
        self.logger = logger
    }

    /// Reads the configuration again and applies it everywhere; returns why it was refused, if it was.
    @discardableResult
    package func reload() async -> ConfigurationError? {
        while reloading {
            await withCheckedContinuation { waiting.append($0) }
        }
        reloading = true
        defer {
            reloading = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        let new: TravelConfiguration
        do {
            new = try read()
        } catch {
            logger.error("configuration refused, keeping the running one: \(error)")
            return error
        }
        let (applied, restartOnly) = new.applicable(over: current)
        current = applied
        for subscriber in subscribers {
            await subscriber.configurationReloaded(applied)
        }
        for key in restartOnly {
            logger.warning("\(key) changed; it takes effect when the daemon restarts")
        }
        logger.notice("configuration reloaded")
        return nil
    }
}

extension HookRunner: ConfigurationSubscriber {
    /// The new `[Hooks]`, for the events from now on.
    package func configurationReloaded(_ configuration: TravelConfiguration) {
        update(configuration.hooks)
    }
}

extension ReminderService: ConfigurationSubscriber {}
extension HistoryReader: ConfigurationSubscriber {}
extension HistoryWriter: ConfigurationSubscriber {}
extension JourneyService: ConfigurationSubscriber {}
