internal import TravelCore

/// Whether the receiver has a position, so "fix acquired" and "fix lost" are logged once per
/// change instead of once per epoch.
struct FixPresence {
    enum Change: Equatable {
        case acquired
        case lost
    }

    private(set) var hasFix = false

    /// The change `fix` makes: a 2D/3D position after none, or none after one.
    mutating func observe(_ fix: Fix) -> Change? {
        set(fix.hasPosition)
    }

    /// The source went away: a fix held until then is lost.
    mutating func sourceLost() -> Change? {
        set(false)
    }

    private mutating func set(_ now: Bool) -> Change? {
        defer { hasFix = now }
        guard now != hasFix else { return nil }
        return now ? .acquired : .lost
    }
}
