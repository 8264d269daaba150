package import TravelCore

/// Where the vehicle stayed between two trips: from the arrival of one to the departure of the next.
package struct StopRecord: Sendable, Hashable {
    /// The row id.
    package var id: Int64
    /// When the trip before ended (back-dated to arrival).
    package var arrival: UTCTime
    /// When the next trip started; `nil` while the vehicle is still there.
    package var departure: UTCTime?
    /// Where the trip before ended.
    package var coordinate: Coordinate
    /// The place label, as for trip ends.
    package var place: String?
    /// The trip that arrived here, if still stored.
    package var tripBefore: Int64?
    /// The trip that left from here, once there is one.
    package var tripAfter: Int64?
    /// Where the trip that left from here started: elsewhere when the vehicle moved unrecorded.
    package var departureCoordinate: Coordinate?

    package init(
        id: Int64,
        arrival: UTCTime,
        departure: UTCTime?,
        coordinate: Coordinate,
        place: String?,
        tripBefore: Int64?,
        tripAfter: Int64?,
        departureCoordinate: Coordinate? = nil
    ) {
        self.departureCoordinate = departureCoordinate
        self.id = id
        self.arrival = arrival
        self.departure = departure
        self.coordinate = coordinate
        self.place = place
        self.tripBefore = tripBefore
        self.tripAfter = tripAfter
    }
}
