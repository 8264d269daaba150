/// The pauses between attempts to reach a source that is not there: short at first, so a gpsd
/// restart or a replugged receiver costs a fraction of a second, then doubling up to
/// `[Source] ReconnectMaxSec`, so a source that stays away costs nothing but an attempt now and then.
/// A source on this machine (a gpsd on the loopback, a serial device) is tried at least every
/// `localMaximum`: a refused loopback `connect` or a failed `open` costs microseconds, while a
/// pause grown to 30 s would keep tracking off for up to 30 s after gpsd or the receiver returned.
/// No jitter: the daemon is gpsd's only client of its kind, there is no herd to spread.
package struct Backoff: Sendable, Hashable {
    /// The longest pause between attempts to reach a source on this machine.
    package static let localMaximum: Duration = .milliseconds(500)

    /// The longest pause for a source: `configured` (`[Source] ReconnectMaxSec`), capped at
    /// `localMaximum` when the source is on this machine.
    package static func maximum(configured: Duration, sourceIsLocal: Bool) -> Duration {
        sourceIsLocal ? min(configured, localMaximum) : configured
    }

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
    /// The duration in seconds, for `HumanText.duration`.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// `30 s`, `0.25 s`: a pause or a timeout as log lines give it.
    var logText: String {
        let (seconds, attoseconds) = components
        guard attoseconds != 0 else { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
