/// How the uplinks' payloads write times, accuracies, courses and whole numbers, the same in
/// OwnTracks JSON and OsmAnd queries (docs/uplink.md, Common rules).
package enum UplinkNumbers {
    /// `acc` (`accuracy`) when the receiver gave no error estimate, metres: what a consumer receiver in the
    /// open reaches. Home Assistant drops a location without `acc`, and refuses `acc` 0.
    package static let defaultAccuracy: Int64 = 10

    /// `acc`: the error estimate rounded up, at least 1 m; `defaultAccuracy` without one.
    package static func accuracy(_ horizontalError: Double?) -> Int64 {
        guard let horizontalError, horizontalError.isFinite, horizontalError >= 0 else {
            return defaultAccuracy
        }
        return max(1, Int64(min(horizontalError, 1e9).rounded(.up)))
    }

    /// Whole seconds since the epoch, rounded down.
    package static func seconds(_ time: UTCTime) -> Int64 {
        let (quotient, remainder) = time.milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// Degrees true as a whole number from 0 to 359: `359.6` → 0, `-10` → 350.
    package static func course(_ track: Double) -> Int64 {
        let degrees = rounded(track) % 360
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// `value` to the nearest whole number (0 for a value that is not finite).
    package static func rounded(_ value: Double) -> Int64 {
        value.isFinite ? Int64(max(-1e15, min(1e15, value)).rounded()) : 0
    }
}
