package import TravelCore

/// What a source tells the tracking pipeline.
package enum SourceEvent: Sendable, Hashable {
    /// The source is open (or open again after an outage); `description` names it for the log.
    case connected(description: String)
    /// One decoded receiver epoch.
    case fix(Fix)
    /// The source is still there but has delivered no position for this long: gpsd does not say
    /// when its receiver is unplugged or loses the sky, silence is the only sign.
    case fixTimedOut(after: Duration)
    /// The source went away; it keeps trying to come back.
    case disconnected(reason: String)
}

/// A producer of fixes: a replayed log, gpsd, or a serial receiver. Every source hands its
/// epochs to the same pipeline, so a replay gives exactly the trips of the live run.
package protocol FixProvider: Sendable {
    /// Delivers events until the input ends (it returns; only a replay does) or the task is
    /// cancelled (it throws `CancellationError`). Throws when the source cannot be used at all.
    func run(deliver: (SourceEvent) async -> Void) async throws
}
