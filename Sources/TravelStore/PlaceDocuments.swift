package import TravelCore

// The JSON documents of home, zones, POIs and their events, shared by `travelctl --db …` and the
// daemon's control socket (see HistoryDocuments.swift).

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

    /// `GetHome`: `home` is what `home --json` prints, with the area's radius and the zone
    /// local days are counted in, which its table tells.
    package func homeDocument(rules: JourneyRules) throws(StoreError) -> JSONValue {
        [
            "home": try homeJSON(rules: rules), "radius_m": .double(rules.homeRadius),
            "time_zone": .string(rules.timeZone.name), "utc_offset": rules.timeZone.utcOffsetJSON,
        ]
    }

    /// Whether home is known under `rules`, where it is, how it became known and the nights that tell.
    private func homeJSON(rules: JourneyRules) throws(StoreError) -> JSONValue {
        let (places, home) = try placesAndHome(rules: rules)
        var members: [JSONValue.Member] = [
            .init("known", .bool(home != nil)),
            .init("places", .integer(Int64(places.places.count))),
            .init("nights_recorded", .integer(Int64(places.nightsRecorded))),
        ]
        if let home {
            members += [
                .init("source", .string(home.source.rawValue)),
                .init("lat", .double(home.coordinate.latitude)),
                .init("lon", .double(home.coordinate.longitude)),
                .init("nights_at_home", .integer(Int64(home.nightsAtHome))),
                .init("confidence", .double((home.confidence * 100).rounded() / 100)),
            ]
        }
        return .object(members)
    }

    /// `zone list --json`: the zones with their inside/outside state.
    package func zonesDocument() throws(StoreError) -> JSONValue {
        .array(try zoneRecords().map(\.json))
    }

    /// `poi list --json`: POIs of `category` (all when `nil`) by name, or with `near` those within
    /// `radius` metres of it, nearest first.
    package func poisDocument(category: String?, near: Coordinate?, radius: Double) throws(StoreError) -> JSONValue {
        .array(try poiRecords(category: category, near: near, radius: radius).map(\.json))
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
