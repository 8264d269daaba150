/// The pauses between attempts to reach a source that is not there: short at first, so a gpsd
/// restart or a replugged receiver costs a fraction of a second, then doubling up to
/// `[Source] ReconnectMaxSec`, so a source that stays away costs nothing but an attempt now and then.
/// No jitter: the daemon is gpsd's only client of its kind, there is no herd to spread.
package struct Backoff: Sendable, Hashable {
    package let first: Duration
    package let maximum: Duration
    private var upcoming: Duration

    package init(first: Duration = .milliseconds(250), maximum: Duration) {
        self.first = min(first, maximum)
        self.maximum = maximum
        upcoming = self.first
    }

    /// The pause before the next attempt; each call doubles the one after, up to `maximum`.
    package mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, maximum) }
        return upcoming
    }

    /// The source was reached: the next outage starts again with short pauses.
    package mutating func reset() {
        upcoming = first
    }
}

extension Duration {
    /// `30 s`, `0.25 s`: a pause or a timeout as log lines give it.
    var logText: String {
        let (seconds, attoseconds) = components
        guard attoseconds != 0 else { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
