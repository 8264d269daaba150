/// How far the system clock is from GPS time, from the fixes of a live receiver.
///
/// Each fix gives one sample: the system clock when the fix arrived minus the fix's own time.
/// A sample is the offset plus the fix's delivery delay (the receiver's output, the serial line,
/// gpsd), which is never negative, so the smallest recent sample is the best estimate. A sample
/// far from the estimate is a delay (one late fix) or the clock stepped (NTP, a person, a
/// restored fake-hwclock); several in a row on the same side are a step.
public struct ClockOffsetEstimator: Sendable, Hashable {
    /// What changed, for the log.
    public enum Change: Sendable, Hashable {
        /// The first estimate (seconds, system minus GPS).
        case measured(offset: Double)
        /// The system clock jumped: the offset went from `from` to `to` seconds.
        case stepped(from: Double, to: Double)
    }

    /// Samples needed before the first estimate, and the window the estimate is the minimum of.
    public static let window = 8
    /// A sample this far (seconds) from the estimate is not ordinary delay jitter.
    public static let stepThreshold = 2.0
    /// Samples in a row beyond the threshold, on one side, that make a step.
    public static let samplesForStep = 3

    /// The current estimate, seconds the system clock is ahead of GPS time (negative: behind).
    public private(set) var offset: Double?
    private var recent: [Double] = []
    private var outliers: [Double] = []

    public init() {}

    /// Takes the sample of one fix; returns a change worth logging.
    public mutating func observe(gps: UTCTime, system: UTCTime) -> Change? {
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
    public static func describe(_ offset: Double) -> String {
        let magnitude = abs(offset)
        guard magnitude >= 0.5 else { return "in step with" }
        let side = offset > 0 ? "ahead of" : "behind"
        let seconds = Int(magnitude.rounded())
        let days = seconds / 86_400
        let text: String
        if days >= 365 {
            let years = days / 365
            text = "\(years) year\(years == 1 ? "" : "s") \(days % 365) day\(days % 365 == 1 ? "" : "s")"
        } else if days >= 1 {
            text = "\(days) day\(days == 1 ? "" : "s") \((seconds % 86_400) / 3600) h"
        } else if seconds >= 3600 {
            text = "\(seconds / 3600) h \((seconds % 3600) / 60) min"
        } else if seconds >= 60 {
            text = "\(seconds / 60) min \(seconds % 60) s"
        } else {
            let tenths = (magnitude * 10).rounded() / 10
            text = "\(tenths) s"
        }
        return "\(text) \(side)"
    }
}
