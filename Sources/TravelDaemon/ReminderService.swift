internal import ServiceLifecycle
internal import Synchronization
package import TravelCore

/// Asks the pipeline every `interval` for the reminders due by GPS time. The rules follow the
/// configuration, SIGHUP included.
package final class ReminderService: Service, Sendable {
    private let pipeline: TrackingPipeline
    private let rules: Mutex<ReminderRules>
    private let interval: Duration

    package init(pipeline: TrackingPipeline, rules: ReminderRules, interval: Duration = .seconds(30)) {
        self.pipeline = pipeline
        self.rules = Mutex(rules)
        self.interval = interval
    }

    package func run() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let rules = self.rules.withLock { $0 }
            await pipeline.deliverDueReminders(rules)
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
    }

    /// `reload`, also handing each configuration's reminder rules to this service.
    package func reloading(
        _ reload: @escaping @Sendable () throws(ConfigurationError) -> TravelConfiguration
    ) -> @Sendable () throws(ConfigurationError) -> TravelConfiguration {
        { () throws(ConfigurationError) in
            let configuration = try reload()
            self.rules.withLock { $0 = configuration.reminderRules }
            return configuration
        }
    }
}
