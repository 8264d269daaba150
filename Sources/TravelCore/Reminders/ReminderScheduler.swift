/// When reminders fall due: the configured local time of day, local days and times of the configured zone.
package struct ReminderRules: Sendable, Hashable {
    /// "No trip logged in N days" after this many days without a trip; 0: never.
    package var noTripDays: Int
    /// Whether a plan is announced the day before it starts.
    package var planReminders: Bool
    /// The local time of day reminders are delivered at, seconds after midnight.
    package var secondOfDay: Int
    /// The zone of the local days and time of day (`[Journeys] TimeZone`).
    package var timeZone: LocalTimeZone

    package init(noTripDays: Int, planReminders: Bool, secondOfDay: Int, timeZone: LocalTimeZone) {
        self.noTripDays = noTripDays
        self.planReminders = planReminders
        self.secondOfDay = secondOfDay
        self.timeZone = timeZone
    }

    /// `09:00` → 32 400; `nil` for anything but `HH:MM` within a day.
    package static func secondOfDay(parsing text: some StringProtocol) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60
        else { return nil }
        return hours * 3600 + minutes * 60
    }
}

/// One reminder, and what makes it the same reminder across restarts (`kind` and `subject`):
/// a gap without trips is reminded of once, a plan once.
package enum Reminder: Sendable, Hashable {
    /// No trip since `lastTripEnd`, `days` days or more before the delivery.
    case noTrip(lastTripEnd: UTCTime, days: Int)
    /// Plan `planID` to `destination` starts the next local day, `from`.
    case planTomorrow(planID: Int64, destination: String, from: LocalDate)

    /// `no-trip` or `plan-tomorrow`.
    package var kind: String {
        switch self {
        case .noTrip: "no-trip"
        case .planTomorrow: "plan-tomorrow"
        }
    }

    /// Which gap or plan: the last trip's end in milliseconds, or the plan's id.
    package var subject: String {
        switch self {
        case .noTrip(let end, _): "\(end.milliseconds)"
        case .planTomorrow(let id, _, _): "\(id)"
        }
    }

    /// The reminder's identity, as stored once delivered.
    package var key: ReminderKey { ReminderKey(kind: kind, subject: subject) }
}

/// A delivered reminder's identity: its kind and its subject.
package struct ReminderKey: Sendable, Hashable {
    package var kind: String
    package var subject: String

    package init(kind: String, subject: String) {
        self.kind = kind
        self.subject = subject
    }
}

/// A plan as reminders see it.
package struct PlannedStart: Sendable, Hashable {
    package var planID: Int64
    package var destination: String
    package var from: LocalDate

    package init(planID: Int64, destination: String, from: LocalDate) {
        self.planID = planID
        self.destination = destination
        self.from = from
    }
}

/// Which reminders are due at an instant: a pure function of GPS time and the history, so a
/// restart (given what was delivered) or a wrong system clock cannot change the answer.
///
/// - "No trip logged in N days" is due from the first delivery time at or after the last trip's
///   end plus N days, once for that gap (a new trip starts a new gap).
/// - "Plan starts tomorrow" is due from the delivery time on the local day before the plan's first
///   day until that day begins, once per plan; a daemon off all that day does not announce it late.
package enum ReminderScheduler {
    package static func due(
        at now: UTCTime,
        rules: ReminderRules,
        lastTripEnd: UTCTime?,
        plans: [PlannedStart],
        delivered: Set<ReminderKey>
    ) -> [Reminder] {
        var due: [Reminder] = []
        if rules.noTripDays > 0, let lastTripEnd {
            let mark = lastTripEnd.adding(seconds: Double(rules.noTripDays) * 86_400)
            let day = rules.timeZone.localDay(of: mark)
            var delivery = rules.timeZone.instant(day: day, secondOfDay: rules.secondOfDay)
            if delivery < mark { delivery = rules.timeZone.instant(day: day + 1, secondOfDay: rules.secondOfDay) }
            let reminder = Reminder.noTrip(lastTripEnd: lastTripEnd, days: rules.noTripDays)
            if now >= delivery, !delivered.contains(reminder.key) { due.append(reminder) }
        }
        if rules.planReminders {
            for plan in plans {
                let delivery = rules.timeZone.instant(day: plan.from.day - 1, secondOfDay: rules.secondOfDay)
                let firstDay = rules.timeZone.instant(day: plan.from.day, secondOfDay: 0)
                let reminder = Reminder.planTomorrow(
                    planID: plan.planID,
                    destination: plan.destination,
                    from: plan.from
                )
                if delivery <= now, now < firstDay, !delivered.contains(reminder.key) { due.append(reminder) }
            }
        }
        return due
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
