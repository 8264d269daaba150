import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// The reminder scheduler is a function of GPS time, the history and what was delivered: the
/// system clock never reaches it, and a restart is "the same inputs again".
@Suite struct ReminderSchedulerTests {
    static let plus2 = LocalTimeZone.fixed(UTCOffset(seconds: 7200)!)
    static let rules = ReminderRules(noTripDays: 7, planReminders: true, secondOfDay: 9 * 3600, timeZone: plus2)

    static func time(_ text: String) -> UTCTime { UTCTime(iso8601: text)! }

    /// The reminders due at each of `instants`, delivering them as a daemon would (recording
    /// each in `delivered`), as (instant, kind) pairs.
    static func deliveries(
        at instants: [String],
        lastTripEnd: UTCTime?,
        plans: [PlannedStart] = [],
        rules: ReminderRules = rules,
        delivered: inout Set<ReminderKey>
    ) -> [String] {
        var log: [String] = []
        for instant in instants {
            for reminder in ReminderScheduler.due(
                at: time(instant),
                rules: rules,
                lastTripEnd: lastTripEnd,
                plans: plans,
                delivered: delivered
            ) {
                delivered.insert(reminder.key)
                log.append("\(instant) \(reminder.kind) \(reminder.subject)")
            }
        }
        return log
    }

    @Test func noTripIsRemindedAtTheFirstDeliveryTimeAfterNDaysAndOnce() {
        // Last trip ended 2026-03-01 18:00 local (16:00Z); seven days later is 03-08 18:00 local,
        // so the reminder is due 03-09 09:00 local (07:00Z).
        let end = Self.time("2026-03-01T16:00:00Z")
        var delivered: Set<ReminderKey> = []
        let log = Self.deliveries(
            at: [
                "2026-03-08T06:59:00Z", "2026-03-08T16:00:00Z", "2026-03-09T06:59:59Z", "2026-03-09T07:00:00Z",
                "2026-03-09T07:00:30Z", "2026-03-10T07:00:00Z", "2026-04-01T07:00:00Z",
            ],
            lastTripEnd: end,
            delivered: &delivered
        )
        #expect(log == ["2026-03-09T07:00:00Z no-trip \(end.milliseconds)"])
    }

    @Test func aNewTripStartsANewGap() {
        var delivered: Set<ReminderKey> = []
        let first = Self.deliveries(
            at: ["2026-03-09T07:00:00Z"],
            lastTripEnd: Self.time("2026-03-01T16:00:00Z"),
            delivered: &delivered
        )
        let second = Self.deliveries(
            at: ["2026-03-12T07:00:00Z", "2026-03-18T07:00:00Z"],
            lastTripEnd: Self.time("2026-03-10T12:00:00Z"),
            delivered: &delivered
        )
        #expect(first.count == 1)
        #expect(second == ["2026-03-18T07:00:00Z no-trip \(Self.time("2026-03-10T12:00:00Z").milliseconds)"])
    }

    @Test func aMarkBeforeTheDeliveryTimeIsRemindedThatSameDay() {
        // Ends 03-01 08:00 local; the seven days are up 03-08 08:00 local, before 09:00.
        var delivered: Set<ReminderKey> = []
        let log = Self.deliveries(
            at: ["2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z"],
            lastTripEnd: Self.time("2026-03-01T06:00:00Z"),
            delivered: &delivered
        )
        #expect(log.map { $0.prefix(20) } == ["2026-03-08T07:00:00Z"])
    }

    @Test func aPlanIsAnnouncedTheDayBeforeOnlyAndOnce() {
        let plan = PlannedStart(planID: 4, destination: "Trieste", from: LocalDate(parsing: "2026-03-20")!)
        var delivered: Set<ReminderKey> = []
        let log = Self.deliveries(
            at: [
                "2026-03-18T07:00:00Z", "2026-03-19T06:59:00Z", "2026-03-19T07:00:00Z", "2026-03-19T21:59:00Z",
                "2026-03-20T07:00:00Z",
            ],
            lastTripEnd: nil,
            plans: [plan],
            delivered: &delivered
        )
        #expect(log == ["2026-03-19T07:00:00Z plan-tomorrow 4"])
    }

    @Test func aDaemonOffAllTheDayBeforeDoesNotAnnounceAPlanLate() {
        let plan = PlannedStart(planID: 4, destination: "Trieste", from: LocalDate(parsing: "2026-03-20")!)
        var delivered: Set<ReminderKey> = []
        // 03-19 22:00Z is already 03-20 local.
        let log = Self.deliveries(
            at: ["2026-03-19T22:00:00Z", "2026-03-20T10:00:00Z"],
            lastTripEnd: nil,
            plans: [plan],
            delivered: &delivered
        )
        #expect(log.isEmpty)
    }

    @Test func aRestartGivenWhatWasDeliveredRepeatsNothing() {
        let end = Self.time("2026-03-01T16:00:00Z")
        let plan = PlannedStart(planID: 4, destination: "Trieste", from: LocalDate(parsing: "2026-03-10")!)
        var delivered: Set<ReminderKey> = []
        let beforeRestart = Self.deliveries(
            at: ["2026-03-09T07:05:00Z"],
            lastTripEnd: end,
            plans: [plan],
            delivered: &delivered
        )
        #expect(beforeRestart.count == 2)
        // A new process: the same inputs, the delivered set read back from the database.
        var readBack = Set(delivered)
        let afterRestart = Self.deliveries(
            at: ["2026-03-09T07:06:00Z", "2026-03-09T12:00:00Z"],
            lastTripEnd: end,
            plans: [plan],
            delivered: &readBack
        )
        #expect(afterRestart.isEmpty)
        // Without that record, the restart would repeat both: the record is what prevents it.
        var forgotten: Set<ReminderKey> = []
        #expect(
            Self.deliveries(at: ["2026-03-09T07:06:00Z"], lastTripEnd: end, plans: [plan], delivered: &forgotten).count
                == 2
        )
    }

    @Test func turnedOffRemindersAreNeverDue() {
        var rules = Self.rules
        rules.noTripDays = 0
        rules.planReminders = false
        var delivered: Set<ReminderKey> = []
        let log = Self.deliveries(
            at: ["2026-03-19T07:00:00Z", "2027-01-01T07:00:00Z"],
            lastTripEnd: Self.time("2026-01-01T00:00:00Z"),
            plans: [PlannedStart(planID: 1, destination: "x", from: LocalDate(parsing: "2026-03-20")!)],
            rules: rules,
            delivered: &delivered
        )
        #expect(log.isEmpty)
    }

    @Test(arguments: [("09:00", 32_400), ("00:00", 0), ("23:59", 86_340)])
    func readsTimesOfDay(text: String, seconds: Int) {
        #expect(ReminderRules.secondOfDay(parsing: text) == seconds)
    }

    @Test(arguments: ["9:00", "24:00", "12:60", "0900", "12:00:00", "ab:cd", ""])
    func refusesWhatIsNotATimeOfDay(text: String) {
        #expect(ReminderRules.secondOfDay(parsing: text) == nil)
    }

    @Test func theRemindersSectionUsesTheJourneysOffset() throws {
        let text = "[Journeys]\nUTCOffset=+02:00\n[Reminders]\nNoTripDays=3\nPlanStarts=no\nAt=18:30\n"
        let configuration = try TravelConfiguration(main: ConfigurationText(name: "/c.conf", text: text), dropIns: [])
        #expect(
            configuration.reminderRules
                == ReminderRules(noTripDays: 3, planReminders: false, secondOfDay: 66_600, timeZone: Self.plus2)
        )
        #expect(throws: ConfigurationError.self) {
            try TravelConfiguration(
                main: ConfigurationText(name: "/c.conf", text: "[Reminders]\nAt=9am\n"),
                dropIns: []
            )
        }
    }
}
