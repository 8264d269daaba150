/// Whether the pipeline's flushes reach the database, and when to say so: a full disk or a
/// broken card must never be silent, nor fill the journal with a line per flush. The first
/// failure is reported at once, then one report per `reportInterval` while flushes keep
/// failing, and one when a flush succeeds again.
package struct StorageHealth: Sendable {
    /// At most one error line this often while the database cannot be written.
    package static let reportInterval: Duration = .seconds(60)

    /// Why the last flush failed, while flushes fail; `nil` while they succeed.
    package private(set) var failure: String?
    /// When flushes started failing.
    package private(set) var failingSince: ContinuousClock.Instant?
    private var lastReport: ContinuousClock.Instant?

    package init() {}

    /// What to log after a flush.
    package enum Report: Sendable, Equatable {
        /// The first failure of an outage.
        case failed(reason: String)
        /// Flushes still fail, `duration` after the first failure.
        case stillFailing(reason: String, for: Duration)
        /// A flush succeeded after failing for `duration`.
        case recovered(after: Duration)
    }

    /// A flush failed at `now` for `reason`; what to log, if anything.
    package mutating func flushFailed(_ reason: String, at now: ContinuousClock.Instant) -> Report? {
        failure = reason
        guard let since = failingSince, let last = lastReport else {
            failingSince = now
            lastReport = now
            return .failed(reason: reason)
        }
        guard now - last >= Self.reportInterval else { return nil }
        lastReport = now
        return .stillFailing(reason: reason, for: now - since)
    }

    /// A flush succeeded at `now`; `.recovered` when flushes had been failing.
    package mutating func flushSucceeded(at now: ContinuousClock.Instant) -> Report? {
        defer { (failure, failingSince, lastReport) = (nil, nil, nil) }
        guard let since = failingSince else { return nil }
        return .recovered(after: now - since)
    }
}
