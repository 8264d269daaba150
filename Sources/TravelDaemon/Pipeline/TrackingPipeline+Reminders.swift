internal import Logging
package import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// Delivers the reminders due now, "now" being GPS time carried on the monotonic clock: before
    /// the first live fix nothing is due, whatever the system clock says.
    package func deliverDueReminders(_ rules: ReminderRules) {
        guard let now = clock.now(monotonicNanoseconds: SystemClocks.now().monotonicNanoseconds) else { return }
        deliverReminders(at: now, rules)
    }

    /// Delivers the reminders due at `now`: each is recorded first (a power cut right after must
    /// not repeat it), then logged as an event, which the journal and the hooks receive.
    func deliverReminders(at now: UTCTime, _ rules: ReminderRules) {
        let database = recorder.database
        do {
            let today = LocalDate(now, zone: rules.timeZone)
            let due = ReminderScheduler.due(
                at: now,
                rules: rules,
                lastTripEnd: try database.lastTripEnd(),
                plans: try database.plannedStarts(from: today),
                delivered: try database.deliveredReminders()
            )
            for reminder in due {
                try database.recordDelivery(of: reminder.key, at: now)
                log(reminder, at: now)
            }
        } catch {
            logger.error("cannot check reminders, will retry: \(error)")
        }
    }

    private func log(_ reminder: Reminder, at now: UTCTime) {
        let text = Self.text(of: reminder)
        logger.notice("\(text)", metadata: .event(.reminder(reminder, at: now)))
    }

    /// The journal's `MESSAGE` of a reminder: `no trip logged since …, 1 day or more`.
    static func text(of reminder: Reminder) -> String {
        switch reminder {
        case .noTrip(let end, let days): "no trip logged since \(end), \(days) day\(days == 1 ? "" : "s") or more"
        case .planTomorrow(let id, let destination, let from):
            "planned journey \(id) to \(destination) starts tomorrow, \(from)"
        }
    }
}
