/// The vehicle entered or left a zone.
public struct ZoneEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case enter
        case exit
    }

    /// When the vehicle was first clearly on the new side (back-dated over the dwell).
    public var time: UTCTime
    public var zoneID: Int64
    public var zoneName: String
    public var kind: Kind
    /// Where the vehicle was at `time`.
    public var coordinate: Coordinate
    /// The trip the vehicle was on, by its start time, if any.
    public var tripStart: UTCTime?
    /// The change happened while the power was off: noticed at the first fix after a gap.
    public var whileOff: Bool

    public init(
        time: UTCTime,
        zoneID: Int64,
        zoneName: String,
        kind: Kind,
        coordinate: Coordinate,
        tripStart: UTCTime? = nil,
        whileOff: Bool = false
    ) {
        self.time = time
        self.zoneID = zoneID
        self.zoneName = zoneName
        self.kind = kind
        self.coordinate = coordinate
        self.tripStart = tripStart
        self.whileOff = whileOff
    }
}

/// A zone's inside/outside state changed (an event, or set silently the first time it is known);
/// the store keeps the latest per zone so a restart knows where the vehicle was.
public struct ZonePresence: Sendable, Hashable {
    public var zoneID: Int64
    public var inside: Bool
    public var since: UTCTime

    public init(zoneID: Int64, inside: Bool, since: UTCTime) {
        self.zoneID = zoneID
        self.inside = inside
        self.since = since
    }
}
