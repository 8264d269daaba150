internal import ServiceLifecycle
internal import Synchronization
package import TravelConfiguration
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

    /// The new reminder rules, from the next check on.
    package func configurationReloaded(_ configuration: TravelConfiguration) {
        rules.withLock { $0 = configuration.reminderRules }
    }
}
