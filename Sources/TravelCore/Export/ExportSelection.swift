/// Which trips an export or a report holds.
package enum ExportSelection: Sendable, Hashable {
    case all
    case trip(Int64)
    /// A journey's trips, with its notes and photos.
    case journey(Int64)
    /// Trips starting within the bounds (both included), with the notes and photos of the range;
    /// a date bound is a local day of the history's zone.
    case range(since: TimeBound?, through: TimeBound?)
}
