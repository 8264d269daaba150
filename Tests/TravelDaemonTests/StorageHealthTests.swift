import Testing

@testable import TravelDaemon

/// When the pipeline says the database cannot be written: at once, then once a minute, then
/// once more when it can again.
@Suite struct StorageHealthTests {
    @Test func aFailingDatabaseIsReportedAtOnceThenOnceAMinuteThenWhenItRecovers() {
        var health = StorageHealth()
        let start = ContinuousClock.now
        let full = "database error: database or disk is full"
        #expect(health.flushSucceeded(at: start) == nil)
        #expect(health.failure == nil)
        #expect(health.flushFailed(full, at: start) == .failed(reason: full))
        #expect(health.failure == full)
        // A flush every 10 s for three minutes: one line a minute, not one a flush.
        let reports = (1...18).compactMap { health.flushFailed(full, at: start + .seconds(10 * $0)) }
        #expect(
            reports == [
                .stillFailing(reason: full, for: .seconds(60)), .stillFailing(reason: full, for: .seconds(120)),
                .stillFailing(reason: full, for: .seconds(180)),
            ]
        )
        #expect(health.flushSucceeded(at: start + .seconds(185)) == .recovered(after: .seconds(185)))
        #expect(health.failure == nil)
        #expect(health.flushSucceeded(at: start + .seconds(195)) == nil)
        // The next outage is reported at once again.
        #expect(health.flushFailed(full, at: start + .seconds(200)) == .failed(reason: full))
    }
}
