package import TravelCore
internal import TravelFormats
package import TravelMessages

// The store's records as the messages `travelctl` and the control socket carry (TravelMessages'
// Messages), so `--db` and the daemon answer from the same values.

extension TripRecord {
    /// The trip as `trips --json` has it.
    package var message: TripMessage {
        TripMessage(id: id, summary: summary, startPlace: startPlace, endPlace: endPlace, journeyID: journeyID)
    }
}

extension StopRecord {
    /// The stop as `trip show --json` has it.
    package var message: StopMessage {
        StopMessage(id: id, arrival: arrival, departure: departure, coordinate: coordinate, place: place)
    }
}

extension PlaceEventRecord {
    /// The event as `events --json` has it, read from the object its payload writes.
    package var storedMessage: PlaceEventMessage {
        get throws(StoreError) {
            do {
                return try PlaceEventMessage(JSONFields(json))
            } catch {
                throw .unexpectedValue(column: "events (\(error))", value: json.serializedString())
            }
        }
    }
}

extension TravelDatabase {
    /// `trip show`: the trip with its route size, its stops, and its zone events and nearby
    /// alerts (as `events` has them); `nil` when there is no such trip.
    package func tripDetail(id: Int64) throws(StoreError) -> TripDetailMessage? {
        guard let trip = try trip(id: id) else { return nil }
        let route = try routePoints(tripID: id)
        let (start, end) = (trip.summary.startTime, trip.summary.endTime)
        let stops = try stops(between: start, and: end)
        let events = try placeEvents(since: start, until: end.adding(seconds: 0.001)).filter { $0.tripID == id }
        return TripDetailMessage(
            trip: trip.message,
            routePoints: Int64(route.count),
            stops: stops.map(\.message),
            events: try events.map { event throws(StoreError) in try event.storedMessage }
        )
    }

    /// The totals `stats` charts: of `year`, or of the latest journey's year; `nil` without journeys.
    package func monthlyTotals(year: Int?, zone: LocalTimeZone) throws(StoreError) -> MonthlyTotals? {
        let journeys = try journeys(zone: zone)
        guard let year = year ?? journeys.last.map({ zone.local($0.start).components.year }) else { return nil }
        return MonthlyTotals(year: year, journeys: journeys.map { ($0.start, $0.distance) }, zone: zone)
    }
}
