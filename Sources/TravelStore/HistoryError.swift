package import TravelCore

/// Why a change to plans, hand-started journeys, notes or photos was refused, worded for the
/// one-line error `travelctl` prints.
package enum HistoryError: Error, Sendable, CustomStringConvertible {
    /// `plan remove` of a plan that does not exist.
    case unknownPlan(id: Int64)
    /// A new plan's dates overlap another plan's: a trip could belong to either.
    case planOverlaps(plan: PlanRecord)
    /// `journey start` while a journey started by hand is still open.
    case journeyAlreadyOpen(id: Int64, destination: String, since: UTCTime)
    /// `journey start --at` inside (or before) a journey started by hand earlier.
    case journeyOverlaps(id: Int64, destination: String)
    /// `journey stop` with no journey open.
    case noOpenJourney
    /// `journey stop --at` a time not after the journey's start.
    case stopBeforeStart(id: Int64, start: UTCTime)

    package var description: String {
        switch self {
        case .unknownPlan(let id):
            "no plan \(id)"
        case .planOverlaps(let plan):
            "those dates overlap plan \(plan.id) to \(plan.destination) (\(plan.from) to \(plan.through))"
        case .journeyAlreadyOpen(let id, let destination, let since):
            "journey \(id) to \(destination) is open since \(since.iso8601); stop it first (travelctl journey stop)"
        case .journeyOverlaps(let id, let destination):
            "that start falls before the end of journey \(id) to \(destination), started by hand"
        case .noOpenJourney:
            "no journey is open (start one with travelctl journey start --destination NAME)"
        case .stopBeforeStart(let id, let start):
            "journey \(id) started at \(start.iso8601); it cannot stop before that"
        }
    }
}
