public import TravelFormats
public import TravelCore

/// A place history visited on the wire: `places --json`'s element.
public struct VisitedPlaceMessage: Sendable, Hashable {
    /// The stops' label as read today.
    public var place: String
    public var visits: Int
    public var nights: Int
    /// Seconds parked there, whole.
    public var time: Double
    public var lastArrival: UTCTime

    public init(place: String, visits: Int, nights: Int, time: Double, lastArrival: UTCTime) {
        self.place = place
        self.visits = visits
        self.nights = nights
        self.time = time
        self.lastArrival = lastArrival
    }

    /// `place` as it travels: its seconds rounded to whole ones.
    public init(_ place: VisitedPlace) {
        self.init(
            place: place.label,
            visits: place.visits,
            nights: place.nights,
            time: place.seconds.rounded(),
            lastArrival: place.lastArrival
        )
    }

    public var json: JSONValue {
        .object([
            .init("place", .string(place)),
            .init("visits", .integer(Int64(visits))),
            .init("nights", .integer(Int64(nights))),
            .init("time_s", .double(time)),
            .init("last_arrival", .string(lastArrival.iso8601)),
        ])
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    public init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            place: try fields.string("place"),
            visits: Int(clamping: try fields.integer("visits")),
            nights: Int(clamping: try fields.integer("nights")),
            time: try fields.number("time_s"),
            lastArrival: try fields.time("last_arrival")
        )
    }
}
