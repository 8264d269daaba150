extension TrackingStatistics {
    /// `1200 fixes read, 1180 accepted, 20 rejected (15 inaccurate, 5 no-position), 40 re-dated
    /// by 1024 weeks (GPS week rollover), 1 step back of GPS time (…)`: what `travelctl import` and the daemon say of a run.
    /// Rejection reasons come most frequent first, then by name, so the line is stable.
    package var fixSummary: String {
        var line = "\(fixes) fixes read, \(accepted) accepted"
        if rejectedTotal > 0 {
            let reasons = rejected.sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }
            line +=
                ", \(rejectedTotal) rejected (\(reasons.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")))"
        }
        if weekRolloverCorrections > 0 {
            line += ", \(weekRolloverCorrections) re-dated by 1024 weeks (GPS week rollover)"
        }
        if timeSteps > 0 {
            line +=
                ", \(timeSteps) step\(timeSteps == 1 ? "" : "s") back of GPS time (tracking went on from the new time)"
        }
        return line
    }
}
