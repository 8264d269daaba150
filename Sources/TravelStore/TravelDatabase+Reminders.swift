package import TravelCore

// Reminders: what the scheduler needs from the history, and which reminders went out.
extension TravelDatabase {
    /// The end of the latest trip (an open trip's end is its last point so far); `nil` without trips.
    package func lastTripEnd() throws(StoreError) -> UTCTime? {
        let query = try connection.prepare("SELECT max(end_ms) FROM trips")
        return try query.firstRow { query.optionalInt64(at: 0) }?.map(UTCTime.init(milliseconds:))
    }

    /// Plans starting on or after `day`, for the "plan starts tomorrow" reminder.
    package func plannedStarts(from day: LocalDate) throws(StoreError) -> [PlannedStart] {
        try plans().filter { $0.from >= day }.map {
            PlannedStart(planID: $0.id, destination: $0.destination, from: $0.from)
        }
    }

    /// Every reminder delivered so far.
    package func deliveredReminders() throws(StoreError) -> Set<ReminderKey> {
        let query = try connection.prepare("SELECT kind, subject FROM reminder_deliveries")
        var keys: Set<ReminderKey> = []
        try query.forEachRow { () throws(StoreError) in
            keys.insert(ReminderKey(kind: query.text(at: 0) ?? "", subject: query.text(at: 1) ?? ""))
        }
        return keys
    }

    /// Notes `reminder` as delivered at `time` (GPS time), at once: a power cut right after must
    /// not deliver it again.
    package func recordDelivery(of reminder: ReminderKey, at time: UTCTime) throws(StoreError) {
        let insert = try connection.prepare(
            "INSERT OR IGNORE INTO reminder_deliveries (kind, subject, delivered_ms) VALUES (?1, ?2, ?3)"
        )
        insert.bind(1, reminder.kind)
        insert.bind(2, reminder.subject)
        insert.bind(3, time.milliseconds)
        try insert.run()
    }
}
