package import TravelCore
package import TravelFormats

/// A place history visited on the wire: `places --json`'s element.
package struct VisitedPlaceMessage: Sendable, Hashable {
    /// The stops' label as read today.
    package var place: String
    package var visits: Int
    package var nights: Int
    /// Seconds parked there, whole.
    package var time: Double
    package var lastArrival: UTCTime

    package init(place: String, visits: Int, nights: Int, time: Double, lastArrival: UTCTime) {
        self.place = place
        self.visits = visits
        self.nights = nights
        self.time = time
        self.lastArrival = lastArrival
    }

    /// `place` as it travels: its seconds rounded to whole ones.
    package init(_ place: VisitedPlace) {
        self.init(
            place: place.label,
            visits: place.visits,
            nights: place.nights,
            time: place.seconds.rounded(),
            lastArrival: place.lastArrival
        )
    }

    package var json: JSONValue {
        .object([
            .init("place", .string(place)),
            .init("visits", .integer(Int64(visits))),
            .init("nights", .integer(Int64(nights))),
            .init("time_s", .double(time)),
            .init("last_arrival", .string(lastArrival.iso8601)),
        ])
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            place: try fields.string("place"),
            visits: Int(clamping: try fields.integer("visits")),
            nights: Int(clamping: try fields.integer("nights")),
            time: try fields.number("time_s"),
            lastArrival: try fields.time("last_arrival")
        )
    }
}
