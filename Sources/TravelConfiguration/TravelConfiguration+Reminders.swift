package import TravelCore

extension TravelConfiguration {
    /// `[Reminders]`: what to remind of, and when.
    package struct Reminders: Sendable, Hashable {
        /// Days without a trip before "no trip logged"; 0: never.
        package var noTripDays = 7
        /// Whether plans are announced the day before.
        package var planReminders = true
        /// The local delivery time, `HH:MM`.
        package var at = "09:00"

        package init() {}
    }

    /// The `[Reminders]` section's keys.
    static let remindersSection = ConfigurationSection(
        name: "Reminders",
        documentation: """
            Reminders, delivered once each at a local time of day as events (journal, hooks, desktop). \
            Local days and times are those of [Journeys] TimeZone; "now" is GPS time, so nothing is reminded of before the \
            first fix, whatever the system clock says.
            """,
        keys: [
            .integer(
                "NoTripDays",
                \.reminders.noTripDays,
                range: 0...365,
                """
                "No trip logged in N days": after this many days without a trip, at the next delivery \
                time, once until the next trip. 0 turns it off.
                """
            ),
            ConfigurationKey(
                name: "PlanStarts",
                type: .boolean,
                range: nil,
                atMost: nil,
                documentation: "Announce a plan at the delivery time of the day before its first day.",
                read: { .boolean($0.reminders.planReminders) },
                write: { configuration, value in
                    if case .boolean(let flag) = value { configuration.reminders.planReminders = flag }
                }
            ),
            .text(
                "At",
                .timeOfDay,
                \.reminders.at,
                """
                The local time of day (HH:MM, 24-hour clock) reminders are delivered at; a daemon that was \
                off then delivers what is still due after its first fix.
                """
            ),
        ]
    )

    /// The reminder rules this configuration sets; values were checked when they were read.
    package var reminderRules: ReminderRules {
        ReminderRules(
            noTripDays: reminders.noTripDays,
            planReminders: reminders.planReminders,
            secondOfDay: ReminderRules.secondOfDay(parsing: reminders.at) ?? 9 * 3600,
            timeZone: journeys.zone
        )
    }
}
