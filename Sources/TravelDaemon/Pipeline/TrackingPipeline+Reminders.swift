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
        let payload = EventPayload.reminder(reminder, at: now)
        logger.notice("\(sentence(payload) ?? payload.kind.name)", metadata: .event(payload))
    }
}
