package import TravelCore
package import TravelMessages

// The replies of the read-only control methods, read from the database: the daemon's
// `HistoryReader` sends them and `travelctl --db` prints them, so a listing is the same either way.

extension TravelDatabase {
    /// `ListTrips`.
    package func listTripsReply(_ p: ListTripsParameters, zone: LocalTimeZone) throws(StoreError) -> ListTripsReply {
        ListTripsReply(
            trips: try trips(since: p.since.start(in: zone), until: p.until.end(in: zone)).map(\.message),
            timeZone: zone.name
        )
    }

    /// `GetTrip`; `nil` when there is no trip `id`.
    package func getTripReply(id: Int64, zone: LocalTimeZone) throws(StoreError) -> GetTripReply? {
        try tripDetail(id: id).map { GetTripReply(trip: $0, timeZone: zone.name) }
    }

    /// `Stats`, by months local to `zone`.
    package func statsReply(_ p: StatsParameters, zone: LocalTimeZone) throws(StoreError) -> StatsReply {
        StatsReply(
            stats: try monthlyTotals(year: p.year, zone: zone).map(StatsMessage.init),
            timeZone: zone.name,
            utcOffset: zone.fixedOffset?.description
        )
    }

    /// `ListEvents`, or the zone or POI the filter names that does not exist.
    package func listEventsReply(
        _ p: ListEventsParameters,
        zone: LocalTimeZone
    ) throws(StoreError) -> Result<ListEventsReply, UnknownPlace> {
        try placeEventMessages(
            since: p.since.start(in: zone),
            through: p.until.end(in: zone),
            zone: p.zone,
            poi: p.poi,
            kind: p.kind
        ).map {
            ListEventsReply(events: $0, timeZone: zone.name)
        }
    }

    /// `ListJourneys`, with what its table says around it (is home known, are there trips at all).
    package func listJourneysReply(
        _ p: ListJourneysParameters,
        rules: JourneyRules
    ) throws(StoreError) -> ListJourneysReply {
        let zone = rules.timeZone
        return ListJourneysReply(
            journeys: try journeys(JourneyFilter(p, zone: zone), zone: zone).map { $0.message(zone: zone) },
            timeZone: zone.name,
            utcOffset: zone.fixedOffset?.description,
            homeKnown: try homeIsKnown(rules: rules),
            hasTrips: try hasTrips()
        )
    }

    /// `GetJourney`; `nil` when there is no journey `id`.
    package func getJourneyReply(id: Int64, zone: LocalTimeZone) throws(StoreError) -> GetJourneyReply? {
        try journeyDetail(id: id, zone: zone).map {
            GetJourneyReply(journey: $0, timeZone: zone.name, utcOffset: zone.fixedOffset?.description)
        }
    }

    /// `GetHome`, with the radius and zone its table tells.
    package func getHomeReply(rules: JourneyRules) throws(StoreError) -> GetHomeReply {
        GetHomeReply(
            home: try homeMessage(rules: rules),
            radius: rules.homeRadius,
            timeZone: rules.timeZone.name,
            utcOffset: rules.timeZone.fixedOffset?.description
        )
    }

    /// `ListPlans`.
    package func listPlansReply() throws(StoreError) -> ListPlansReply {
        ListPlansReply(plans: try plans().map(\.message))
    }

    /// `ListNotes` and `ListPhotos`.
    package func listMomentsReply<Kind: MomentKind>(
        _ p: ListMomentsParameters,
        of _: Kind.Type,
        zone: LocalTimeZone
    ) throws(StoreError) -> ListMomentsReply<Kind> {
        ListMomentsReply(
            moments: try moments(
                Kind.kind,
                since: p.since.start(in: zone),
                until: p.until.end(in: zone),
                journeyID: p.journey
            )
            .map(\.listedMessage),
            timeZone: zone.name,
            utcOffset: zone.fixedOffset?.description
        )
    }

    /// `ListImports`.
    package func listImportsReply() throws(StoreError) -> ListImportsReply {
        ListImportsReply(imports: try importedFiles().map(\.message))
    }

    /// `ListZones`.
    package func listZonesReply(zone: LocalTimeZone) throws(StoreError) -> ListZonesReply {
        ListZonesReply(zones: try zoneRecords().map(\.message), timeZone: zone.name)
    }

    /// `ListPlaces`.
    package func listPlacesReply(rules: JourneyRules) throws(StoreError) -> ListPlacesReply {
        ListPlacesReply(
            places: try visitedPlaces(rules: rules).map(VisitedPlaceMessage.init),
            timeZone: rules.timeZone.name
        )
    }

    /// `ListPOIs`.
    package func listPOIsReply(_ p: ListPOIsParameters) throws(StoreError) -> ListPOIsReply {
        ListPOIsReply(pois: try poiRecords(category: p.category, near: p.center, radius: p.radius).map(\.message))
    }
}

extension JourneyFilter {
    /// The filter `parameters` describe, their dates local to `zone`.
    package init(_ parameters: ListJourneysParameters, zone: LocalTimeZone) {
        self.init(
            since: parameters.since.start(in: zone),
            until: parameters.until.end(in: zone),
            destination: parameters.destination,
            type: parameters.type,
            search: parameters.search
        )
    }
}
