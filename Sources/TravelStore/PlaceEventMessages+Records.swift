package import TravelCore
package import TravelMessages

// Home and the events of zones and POIs as messages, shared by `travelctl --db …` and the
// daemon's control socket (see TripMessages+Records.swift).

extension TravelDatabase {
    /// `events`: zone events and nearby alerts from `since` through `through` (both included),
    /// oldest first; `zone` keeps one zone's, `poi` one POI's (by name), `kind` one kind. A zone
    /// or POI no place is named is a failure, not an empty list.
    package func placeEventMessages(
        since: UTCTime?,
        through: UTCTime?,
        zone: String?,
        poi: String? = nil,
        kind: String?
    ) throws(StoreError) -> Result<[PlaceEventMessage], UnknownPlace> {
        if let zone, try !hasPlace(named: zone, in: "zones") { return .failure(.zone(zone)) }
        if let poi, try !hasPlace(named: poi, in: "pois") { return .failure(.poi(poi)) }
        let until = through?.adding(seconds: 0.001)
        let events = try placeEvents(since: since, until: until, zone: zone, poi: poi, kind: kind)
        return .success(try events.map { event throws(StoreError) in try event.storedMessage })
    }

    /// `home`: whether home is known under `rules`, where it is, how it became known and the
    /// nights that tell.
    package func homeMessage(rules: JourneyRules) throws(StoreError) -> HomeMessage {
        let (places, home) = try placesAndHome(rules: rules)
        return HomeMessage(places: places, home: home)
    }
}

/// A filter of `events` naming a zone or POI that does not exist.
package enum UnknownPlace: Error, Sendable, Hashable, CustomStringConvertible {
    case zone(String)
    case poi(String)

    package var description: String {
        switch self {
        case .zone(let name): "no zone named \(name)"
        case .poi(let name): "no POI named \(name)"
        }
    }
}
