/// How far the system clock is from GPS time, from the fixes of a live receiver.
///
/// Each fix gives one sample: the system clock when the fix arrived minus the fix's own time.
/// A sample is the offset plus the fix's delivery delay (the receiver's output, the serial line,
/// gpsd), which is never negative, so the smallest recent sample is the best estimate. A sample
/// far from the estimate is a delay (one late fix) or the clock stepped (NTP, a person, a
/// restored fake-hwclock); several in a row on the same side, agreeing with each other, are a
/// step. Samples that keep moving away from each other are not: that is a feed running faster
/// (or slower) than real time, such as a log replayed by gpsfake at 15 ms a sentence, where GPS
/// time gains seconds on the system clock with every fix. The clock did not step then, and
/// reporting one every few fixes (and running a ClockStepped hook each time) would be noise.
package struct ClockOffsetEstimator: Sendable, Hashable {
    /// What changed, for the log.
    package enum Change: Sendable, Hashable {
        /// The first estimate (seconds, system minus GPS).
        case measured(offset: Double)
        /// The system clock jumped: the offset went from `from` to `to` seconds.
        case stepped(from: Double, to: Double)
    }

    /// Samples needed before the first estimate, and the window the estimate is the minimum of.
    package static let window = 8
    /// A sample this far (seconds) from the estimate is not ordinary delay jitter.
    package static let stepThreshold = 2.0
    /// Samples in a row beyond the threshold, on one side, that make a step.
    package static let samplesForStep = 3
    /// How far apart (seconds) the samples after a step may be: a stepped clock moves the offset
    /// once, and after that only delivery jitter (well under a second from a serial receiver or
    /// gpsd) separates them.
    package static let jitterTolerance = 1.0

    /// The current estimate, seconds the system clock is ahead of GPS time (negative: behind).
    package private(set) var offset: Double?
    private var recent: [Double] = []
    private var outliers: [Double] = []

    package init() {}

    /// Fixes read closer together than this (seconds) on the monotonic clock, while GPS time
    /// moved on further between them, came from a backlog: a serial device reopened (or a
    /// daemon started) with epochs queued in the kernel, gpsd passing on what it read meanwhile.
    /// Their arrival says when they were read, not when the receiver made them, so they are no
    /// sample: taken, they made a step of the clock and a step back once the backlog was read.
    package static let burstSpacing = 0.025

    /// The last fix observed with its monotonic arrival: what tells a backlog.
    private var previousArrival: Arrival?

    private struct Arrival: Sendable, Hashable {
        var gps: UTCTime
        var monotonicNanoseconds: Int64
    }

    /// Takes the sample of one fix; returns a change worth logging. `monotonicNanoseconds`: when
    /// it arrived on the monotonic clock, by which a fix read from a backlog is passed over.
    package mutating func observe(gps: UTCTime, system: UTCTime, monotonicNanoseconds: Int64? = nil) -> Change? {
        if let monotonicNanoseconds {
            defer { previousArrival = Arrival(gps: gps, monotonicNanoseconds: monotonicNanoseconds) }
            if let previous = previousArrival {
                let spacing = Double(monotonicNanoseconds - previous.monotonicNanoseconds) / 1e9
                if spacing < Self.burstSpacing, gps.seconds(since: previous.gps) >= 2 * Self.burstSpacing {
                    return nil
                }
            }
        }
        let sample = system.seconds(since: gps)
        guard let current = offset else {
            recent.append(sample)
            guard recent.count >= Self.samplesForStep else { return nil }
            offset = recent.min()
            return .measured(offset: offset!)
        }
        let deviation = sample - current
        guard abs(deviation) > Self.stepThreshold else {
            outliers.removeAll()
            append(sample)
            return nil
        }
        if let first = outliers.first, (first - current).sign != deviation.sign { outliers.removeAll() }
        outliers.append(sample)
        // Outliers that disagree are a drift, not a step: only the latest that agree can be one.
        while let low = outliers.min(), let high = outliers.max(), high - low > Self.jitterTolerance {
            outliers.removeFirst()
        }
        guard outliers.count >= Self.samplesForStep else { return nil }
        let stepped = outliers.min()!
        recent = outliers
        outliers.removeAll()
        offset = stepped
        return .stepped(from: current, to: stepped)
    }

    private mutating func append(_ sample: Double) {
        recent.append(sample)
        if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
        offset = recent.min()
    }
}

extension ClockOffsetEstimator {
    /// "3 years 12 days ahead of", "0.4 s behind", "in step with": the offset for people.
    package static func describe(_ offset: Double) -> String {
        guard abs(offset) >= 0.5 else { return "in step with" }
        return "\(HumanText.span(abs(offset))) \(offset > 0 ? "ahead of" : "behind")"
    }

    /// "system clock stepped back by 2 h 0 min: now 3 years 12 days ahead of GPS time, was …":
    /// the size of the step first, since two offsets of years read alike when it is minutes.
    package static func describeStep(from: Double, to: Double) -> String {
        let direction = to > from ? "forward" : "back"
        return """
            system clock stepped \(direction) by \(HumanText.span(abs(to - from))): now \(describe(to)) GPS time, \
            was \(describe(from)) GPS time
            """
    }
}
