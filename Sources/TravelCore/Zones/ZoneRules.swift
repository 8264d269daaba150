/// The thresholds of zone enter/exit detection (docs/zones.md explains each number).
///
/// A fix is *clearly* on one side of a border when it is farther from the border than its
/// threshold, `max(margin, errorFactor × error)`; anything closer is the border band, where the
/// state never changes. A change needs the fixes to stay clearly on the other side for `dwell`.
package struct ZoneRules: Sendable, Hashable {
    /// The least distance from the border (metres) that counts as clearly inside or outside.
    /// Parked receivers drift 5–10 m, worst outliers 10–20 m: 15 m keeps a car standing on the
    /// border from ever being clearly on both sides.
    package var margin = 15.0
    /// The threshold grows with the fix's own error estimate: `errorFactor × error` metres.
    package var errorFactor = 1.0
    /// The error assumed for a fix that reports neither an error estimate nor HDOP, metres.
    package var assumedError = 10.0
    /// Metres of error per unit of HDOP, for fixes that report HDOP but no error estimate.
    package var errorPerHDOP = 5.0
    /// Seconds a fix must stay clearly on the other side before the state changes.
    package var dwell = 10.0
    /// The dwell for a change first seen after a power gap, and for setting a zone not known yet:
    /// a receiver's first minute after power-on can wander tens of metres (a real cold start
    /// strayed 170 m for 20 s).
    package var settleTime = 60.0
    /// A zone crossed faster than `dwell` (or between two sparse fixes) counts when the vehicle
    /// came out this many metres from where it went in, so drift cannot pass for a crossing.
    package var transitDistance = 40.0
    /// Fixes more than this many seconds apart are a power cut or a receiver outage: a change
    /// noticed at the first fix after it is flagged `whileOff`, and no crossing is guessed across it.
    package var powerGap = 120.0

    package init() {}

    /// The border band's half-width for a fix, metres.
    package func threshold(error: Double?, hdop: Double?) -> Double {
        let estimate = error ?? hdop.map { $0 * errorPerHDOP } ?? assumedError
        return max(margin, errorFactor * estimate)
    }
}
