/// The vehicle entered or left a zone.
package struct ZoneEvent: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case enter
        case exit
    }

    /// When the vehicle was first clearly on the new side (back-dated over the dwell).
    package var time: UTCTime
    package var zoneID: Int64
    package var zoneName: String
    package var kind: Kind
    /// Where the vehicle was at `time`.
    package var coordinate: Coordinate
    /// The trip the vehicle was on, by its start time, if any.
    package var tripStart: UTCTime?
    /// The change happened while the power was off: noticed at the first fix after a gap.
    package var whileOff: Bool

    package init(
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
package struct ZonePresence: Sendable, Hashable {
    package var zoneID: Int64
    package var inside: Bool
    package var since: UTCTime

    package init(zoneID: Int64, inside: Bool, since: UTCTime) {
        self.zoneID = zoneID
        self.inside = inside
        self.since = since
    }
}
