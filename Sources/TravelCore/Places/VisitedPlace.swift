/// A place history visited, as `travelctl places` lists it: every stop of the same label taken together.
package struct VisitedPlace: Sendable, Hashable {
    /// The stops' label as read today (zone, named place, POI, town or coordinates).
    package var label: String
    /// Stops there.
    package var visits: Int
    /// Nights spent there: the local night time (`JourneyRules.nightSecondOfDay`, 03:00) of each
    /// day the vehicle stood there, counted as `travelctl home` counts them.
    package var nights: Int
    /// Seconds parked there, from each arrival to the next departure; a stop still going counts
    /// none, nor one the vehicle left from elsewhere (it moved unrecorded: where it spent that
    /// time is unknown), as for nights.
    package var seconds: Double
    /// The last arrival there.
    package var lastArrival: UTCTime

    package init(label: String, visits: Int, nights: Int, seconds: Double, lastArrival: UTCTime) {
        self.label = label
        self.visits = visits
        self.nights = nights
        self.seconds = seconds
        self.lastArrival = lastArrival
    }

    /// The stays grouped by their labels: the longest time spent first, then the most visits,
    /// then by label, so the order never depends on the input's.
    package static func summarize(_ stays: [(label: String, stay: Stay)], rules: JourneyRules) -> [VisitedPlace] {
        var places: [String: VisitedPlace] = [:]
        for (label, stay) in stays {
            let seconds = stay.parkedSeconds(radius: rules.placeRadius)
            let nights = PlaceMap.nights(of: stay, rules: rules)
            if var place = places[label] {
                place.visits += 1
                place.nights += nights
                place.seconds += seconds
                place.lastArrival = max(place.lastArrival, stay.arrival)
                places[label] = place
            } else {
                places[label] = VisitedPlace(
                    label: label,
                    visits: 1,
                    nights: nights,
                    seconds: seconds,
                    lastArrival: stay.arrival
                )
            }
        }
        return places.values.sorted { ($1.seconds, $1.visits, $0.label) < ($0.seconds, $0.visits, $1.label) }
    }
}
