extension TravelSchema {
    /// Reminders delivered, so a restarted daemon does not remind of the same gap or plan again.
    /// Keyed by what the reminder is about, not by when: the delivery time is GPS time, kept for
    /// the record.
    static let remindersSchema = SchemaMigration(
        "2026-11-22 delivered reminders",
        sql: """
            CREATE TABLE reminder_deliveries (
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                delivered_ms INTEGER NOT NULL,
                PRIMARY KEY (kind, subject)
            ) STRICT;
            """
    )
}
