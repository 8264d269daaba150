package import TravelCore
package import TravelMessages

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
    /// `trip remove` of a trip that does not exist.
    case unknownTrip(id: Int64)
    /// `trip remove` of the trip still being recorded.
    case tripInProgress(id: Int64)
    /// `note remove` or `photo remove` of one that does not exist.
    case unknownMoment(MomentMessage.Kind, id: Int64)
    /// `imports remove` or `import --replace` of a file never imported.
    case unknownImport(String)
    /// `imports remove` naming several imports (a path imported with different contents, a short id).
    case ambiguousImport(String, matches: Int)

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
        case .unknownTrip(let id):
            "no trip \(id)"
        case .tripInProgress(let id):
            "trip \(id) is still being recorded; it can be removed once it has ended"
        case .unknownMoment(let kind, let id):
            "no \(kind.rawValue) \(id)"
        case .unknownImport(let key):
            "no import \(key) (travelctl imports lists them)"
        case .ambiguousImport(let key, let matches):
            "\(key) names \(matches) imports; give the ID travelctl imports shows"
        }
    }
}
