package import TravelCore

// Places, home and journeys: derived from the trip log, regrouped after each import.
extension TravelDatabase {
    /// Every stop as a stay, oldest first.
    package func stays() throws(StoreError) -> [Stay] {
        let query = try connection.prepare(
            """
            SELECT s.arrival_ms, s.departure_ms, s.lat, s.lon, t.start_lat, t.start_lon
            FROM stops AS s LEFT JOIN trips AS t ON t.id = s.trip_after ORDER BY s.arrival_ms
            """
        )
        var stays: [Stay] = []
        try query.forEachRow {
            stays.append(
                Stay(
                    coordinate: Coordinate(latitude: query.double(at: 2), longitude: query.double(at: 3)),
                    arrival: UTCTime(milliseconds: query.int64(at: 0)),
                    departure: query.optionalInt64(at: 1).map(UTCTime.init(milliseconds:)),
                    departureCoordinate: query.optionalDouble(at: 4).map {
                        Coordinate(latitude: $0, longitude: query.double(at: 5))
                    }
                )
            )
        }
        return stays
    }

    /// The places the vehicle stayed at and its home under `rules` (`nil` while unknown).
    package func placesAndHome(rules: JourneyRules) throws(StoreError) -> (places: PlaceMap, home: Home?) {
        let places = PlaceMap(stays: try stays(), rules: rules)
        return (places, Home(places: places, rules: rules))
    }

    /// Groups every trip into journeys under `rules` and stores them, in one transaction: trips
    /// get their `journey_id`, a journey that starts with the same trip as before keeps its id,
    /// and automatic journeys that no longer exist are removed. Journeys started by hand, then
    /// plans, take the trips that start inside their windows first (`JourneyGrouping`); notes and
    /// photos are attached again to the journey holding their moment. Returns the home used.
    @discardableResult
    package func regroupJourneys(rules: JourneyRules) throws(StoreError) -> Home? {
        let (places, home) = try placesAndHome(rules: rules)
        let trips = try trips()
        var grouped: [JourneyTrip] = []
        grouped.reserveCapacity(trips.count)
        for trip in trips {
            let reference = JourneyGrouping.routeReference(for: trip.summary, home: home?.coordinate, rules: rules)
            let farthest = try reference.map { reference throws(StoreError) in
                try farthestRoutePoint(of: trip, from: reference)
            }
            grouped.append(JourneyTrip(id: trip.id, summary: trip.summary, farthestPoint: farthest ?? nil))
        }
        let plans = try self.plans()
        let declared = try manualJourneyWindows() + plans.map { $0.window(zone: rules.timeZone) }
        let journeys = JourneyGrouping.group(grouped, home: home?.coordinate, rules: rules, declared: declared)
        let planDestinations = Dictionary(uniqueKeysWithValues: plans.map { ($0.id, $0.destination) })
        let currentJourney = Dictionary(uniqueKeysWithValues: trips.map { ($0.id, $0.journeyID) })
        // The recorder's labeler (zones, named places and POIs) where there is one; else the zones
        // and named places alone: reading a million POIs for every regroup would cost more than
        // the names are worth. Listings read the label again through today's zones and names.
        let labeler: PlaceLabeler
        if let placeLabeler { labeler = placeLabeler } else { labeler = try readLabeler() }
        try connection.inTransaction { () throws(StoreError) in
            try saveHome(home, radius: rules.placeRadius)
            let existing = try automaticJourneyIDs()
            let existingPlans = try planJourneyIDs()
            let statements = try JourneyStatements(connection)
            var kept: Set<Int64> = []
            for journey in journeys {
                let end: Int64? = journey.isOpen ? nil : journey.end.milliseconds
                let id: Int64
                switch journey.declared {
                case .manual(let journeyID):
                    id = journeyID
                    try statements.setType(journey.type, of: id)
                case .plan(let planID):
                    let label = planDestinations[planID] ?? ""
                    if let known = existingPlans[planID] {
                        id = known
                        try statements.update(id, start: journey.start.milliseconds, end: end, journey.type, label)
                    } else {
                        id = try statements.insert(start: journey.start.milliseconds, end: end, journey.type, label)
                        try statements.setPlan(planID, of: id)
                    }
                case nil:
                    // No label while the journey's only trip is under way: it has stopped nowhere yet.
                    let label =
                        journey.destination.map {
                            Self.label($0, home: home, places: places, labeler: labeler, rules: rules)
                        } ?? ""
                    if let known = existing[journey.start.milliseconds] {
                        id = known
                        try statements.update(
                            id,
                            start: journey.start.milliseconds,
                            end: end,
                            journey.type,
                            label,
                            at: journey.destination
                        )
                    } else {
                        id = try statements.insert(
                            start: journey.start.milliseconds,
                            end: end,
                            journey.type,
                            label,
                            at: journey.destination
                        )
                    }
                }
                kept.insert(id)
                for tripID in journey.tripIDs where currentJourney[tripID] != id {
                    try statements.assign(tripID, to: id)
                }
            }
            let remove = try connection.prepare("DELETE FROM journeys WHERE id = ?1")
            for id in Array(existing.values) + Array(existingPlans.values) where !kept.contains(id) {
                remove.bind(1, id)
                try remove.run()
            }
            try reattachMoments()
        }
        return home
    }

    /// Journeys passing `filter`, oldest first, with their trips' totals.
    package func journeys(
        _ filter: JourneyFilter = JourneyFilter(),
        zone: LocalTimeZone
    ) throws(StoreError)
        -> [JourneyRecord]
    {
        var narrowed = filter
        narrowed.search = nil
        var journeys = try journeyRecords(placeLabels: false).filter { narrowed.matches($0, zone: zone) }
        guard filter.search != nil, !journeys.isEmpty else { return journeys }
        // Free text also searches the trips' place labels: read them for the journeys left only.
        let labels = try placeLabels(of: journeys.count <= 500 ? journeys.map(\.id) : nil)
        for index in journeys.indices { journeys[index].placeLabels = labels[journeys[index].id] ?? [] }
        return journeys.filter { filter.matches($0, zone: zone) }
    }

    /// The journey with row id `id`, or `nil` when there is none.
    package func journey(id: Int64) throws(StoreError) -> JourneyRecord? {
        try journeyRecords(id: id, placeLabels: true).first
    }

    /// The trips of journey `id`, oldest first.
    package func trips(journeyID id: Int64) throws(StoreError) -> [TripRecord] {
        guard let journey = try journey(id: id) else { return [] }
        var trips: [TripRecord] = []
        for tripID in journey.tripIDs {
            if let trip = try trip(id: tripID) { trips.append(trip) }
        }
        return trips
    }

    /// Journey rows with their trips' totals, oldest first: all of them, or the one with `id`.
    ///
    /// Shaped for ten years of history (docs/journeys.md has the figures): the trips' totals are
    /// one pass over the covering index `trips_by_journey_totals`, joined to journeys read in
    /// start order; the place labels, which only a free-text search needs, are read only then.
    private func journeyRecords(id: Int64? = nil, placeLabels: Bool) throws(StoreError) -> [JourneyRecord] {
        if id == nil, !placeLabels { return try allJourneyRecords() }
        let labels = placeLabels ? "group_concat(start_place || char(10) || coalesce(end_place, ''), char(10))" : "NULL"
        let query = try connection.prepare(
            """
            SELECT j.id, j.start_ms, j.end_ms, j.type, j.destination, t.last_end, coalesce(t.distance, 0), t.ids,
                t.places, j.manual, p.id, p.type, p.from_date, p.to_date, j.destination_lat, j.destination_lon
            FROM journeys AS j
            LEFT JOIN (
                SELECT journey_id, max(end_ms) AS last_end, sum(distance_m) AS distance, group_concat(id) AS ids,
                    \(labels) AS places
                FROM trips WHERE journey_id \(id.map { "= \($0)" } ?? "IS NOT NULL") GROUP BY journey_id
            ) AS t ON t.journey_id = j.id
            LEFT JOIN plans AS p ON p.id = j.plan_id
            \(id.map { "WHERE j.id = \($0)" } ?? "") ORDER BY j.start_ms
            """
        )
        var journeys: [JourneyRecord] = []
        let readLabels = try readLabels()
        try query.forEachRow { () throws(StoreError) in
            let type = try Self.journeyType(query.text(at: 3))
            let start = UTCTime(milliseconds: query.int64(at: 1))
            let lastTripEnd = query.optionalInt64(at: 5)
            journeys.append(
                JourneyRecord(
                    id: query.int64(at: 0),
                    start: start,
                    end: UTCTime(milliseconds: query.optionalInt64(at: 2) ?? lastTripEnd ?? start.milliseconds),
                    isOpen: query.optionalInt64(at: 2) == nil,
                    type: type,
                    destination: Self.destination(query, text: 4, at: 14, readLabels),
                    tripIDs: Self.integers(inList: query.text(at: 7)).sorted(),
                    distance: query.double(at: 6),
                    placeLabels: Self.lines(query.text(at: 8)),
                    isManual: query.int64(at: 9) == 1,
                    plan: try Self.plannedJourney(query, from: 10)
                )
            )
        }
        return journeys
    }

    /// Every journey row with its trips' totals, oldest first, without place labels: what
    /// `journeys` and `stats` list.
    ///
    /// The totals are summed here from one pass over the covering index `trips_by_journey_totals`
    /// rather than by `GROUP BY` with `group_concat`: SQLite's aggregate steps were most
    /// of the query's time on ten years of history. The sum runs in the index's order, as SQLite's did.
    private func allJourneyRecords() throws(StoreError) -> [JourneyRecord] {
        typealias Totals = (lastEnd: Int64, distance: Double, ids: [Int64])
        var totals: [Int64: Totals] = [:]
        // Rows come grouped by journey: each group is summed, then stored once.
        var group: (journeyID: Int64, totals: Totals)?
        let trips = try connection.prepare(
            "SELECT journey_id, end_ms, distance_m, id FROM trips WHERE journey_id IS NOT NULL ORDER BY journey_id, end_ms"
        )
        try trips.forEachRow {
            let journeyID = trips.int64(at: 0)
            let (end, distance, id) = (trips.int64(at: 1), trips.double(at: 2), trips.int64(at: 3))
            if var current = group, current.journeyID == journeyID {
                group = nil  // so `current` holds the only reference to its ids
                current.totals.lastEnd = max(current.totals.lastEnd, end)
                current.totals.distance += distance
                current.totals.ids.append(id)
                group = current
            } else {
                if let group { totals[group.journeyID] = group.totals }
                group = (journeyID, (end, 0 + distance, [id]))
            }
        }
        if let group { totals[group.journeyID] = group.totals }
        let query = try connection.prepare(
            """
            SELECT j.id, j.start_ms, j.end_ms, j.type, j.destination, j.manual, p.id, p.type, p.from_date, p.to_date,
                j.destination_lat, j.destination_lon
            FROM journeys AS j LEFT JOIN plans AS p ON p.id = j.plan_id ORDER BY j.start_ms
            """
        )
        var journeys: [JourneyRecord] = []
        let labels = try readLabels()
        journeys.reserveCapacity(totals.count)
        try query.forEachRow { () throws(StoreError) in
            let type = try Self.journeyType(query.text(at: 3))
            let id = query.int64(at: 0)
            let start = UTCTime(milliseconds: query.int64(at: 1))
            let total = totals[id]
            journeys.append(
                JourneyRecord(
                    id: id,
                    start: start,
                    end: UTCTime(milliseconds: query.optionalInt64(at: 2) ?? total?.lastEnd ?? start.milliseconds),
                    isOpen: query.optionalInt64(at: 2) == nil,
                    type: type,
                    destination: Self.destination(query, text: 4, at: 10, labels),
                    tripIDs: total?.ids.sorted() ?? [],
                    distance: total?.distance ?? 0,
                    placeLabels: [],
                    isManual: query.int64(at: 5) == 1,
                    plan: try Self.plannedJourney(query, from: 6)
                )
            )
        }
        return journeys
    }

    /// The integers of a `group_concat` list (`"3,4,12"`), read from its bytes: splitting a
    /// `String` walks grapheme clusters, which made up most of the list's time.
    private static func integers(inList text: String?) -> [Int64] {
        guard let text else { return [] }
        var values: [Int64] = []
        var value: Int64 = 0
        var digits = 0
        for byte in text.utf8 {
            if byte >= 0x30, byte <= 0x39 {
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
            } else {
                if digits > 0 { values.append(value) }
                (value, digits) = (0, 0)
            }
        }
        if digits > 0 { values.append(value) }
        return values
    }

    /// The lines of a `group_concat(…, char(10))` text, split on its bytes.
    private static func lines(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.utf8.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The start and end place labels of the trips of each journey in `ids` (every journey for `nil`).
    private func placeLabels(of ids: [Int64]?) throws(StoreError) -> [Int64: [String]] {
        let which = ids.map { "IN (\($0.map(String.init).joined(separator: ",")))" } ?? "IS NOT NULL"
        let query = try connection.prepare(
            "SELECT journey_id, start_place, end_place FROM trips WHERE journey_id \(which)"
        )
        var labels: [Int64: [String]] = [:]
        try query.forEachRow {
            let id = query.int64(at: 0)
            for column: Int32 in [1, 2] {
                if let label = query.text(at: column) { labels[id, default: []].append(label) }
            }
        }
        return labels
    }

    /// Plans' journeys by plan id.
    private func planJourneyIDs() throws(StoreError) -> [Int64: Int64] {
        let query = try connection.prepare("SELECT plan_id, id FROM journeys WHERE plan_id IS NOT NULL")
        var ids: [Int64: Int64] = [:]
        try query.forEachRow { ids[query.int64(at: 0)] = query.int64(at: 1) }
        return ids
    }

    /// Automatic journeys (neither planned nor started by hand) by start time.
    private func automaticJourneyIDs() throws(StoreError) -> [Int64: Int64] {
        let query = try connection.prepare("SELECT start_ms, id FROM journeys WHERE manual = 0 AND plan_id IS NULL")
        var ids: [Int64: Int64] = [:]
        try query.forEachRow { ids[query.int64(at: 0)] = query.int64(at: 1) }
        return ids
    }

    /// The point of `trip`'s route farthest from `reference`, or `nil` when it has no points.
    private func farthestRoutePoint(of trip: TripRecord, from reference: Coordinate) throws(StoreError) -> Coordinate? {
        let query = try connection.prepare(
            "SELECT lat, lon FROM route_points WHERE t_ms BETWEEN ?1 AND ?2 AND trip_id = ?3"
        )
        query.bind(1, trip.summary.startTime.milliseconds)
        query.bind(2, trip.summary.endTime.milliseconds)
        query.bind(3, trip.id)
        var farthest: (coordinate: Coordinate, distance: Double)?
        try query.forEachRow {
            let point = Coordinate(latitude: query.double(at: 0), longitude: query.double(at: 1))
            let distance = Geodesy.fastDistance(reference, point)
            if distance > farthest?.distance ?? -1 { farthest = (point, distance) }
        }
        return farthest?.coordinate
    }

    /// A stored journey type; NULL for a journey within one day while home was unknown.
    private static func journeyType(_ text: String?) throws(StoreError) -> JourneyType? {
        guard let text else { return nil }
        guard let type = JourneyType(rawValue: text) else {
            throw .unexpectedValue(column: "journeys.type", value: text)
        }
        return type
    }

    /// The plan columns of a `journeyRecords` row, or `nil` for a journey no plan declared.
    /// `column` is the index of `p.id`; type, from and to dates follow it.
    private static func plannedJourney(
        _ row: SQLiteStatement,
        from column: Int32
    ) throws(StoreError)
        -> JourneyRecord.Planned?
    {
        guard let id = row.optionalInt64(at: column) else { return nil }
        let typeText = row.text(at: column + 1) ?? ""
        guard let type = JourneyType(rawValue: typeText) else {
            throw .unexpectedValue(column: "plans.type", value: typeText)
        }
        guard let from = LocalDate(parsing: row.text(at: column + 2) ?? ""),
            let through = LocalDate(parsing: row.text(at: column + 3) ?? "")
        else { throw .unexpectedValue(column: "plans.from_date", value: row.text(at: column + 2) ?? "") }
        return JourneyRecord.Planned(planID: id, type: type, from: from, through: through)
    }

    /// A journey's destination as read today: the label stored when journeys were grouped, read
    /// again at the destination's position (columns `column`, `column + 1`) through today's zones
    /// and named places, and the gazetteer where it was only coordinates. `Home` stays home; a
    /// plan's or a hand-started journey's destination, which the user named, has no position.
    private static func destination(
        _ row: SQLiteStatement,
        text: Int32,
        at column: Int32,
        _ labels: ReadLabels
    ) -> String {
        let stored = row.text(at: text) ?? ""
        // Rows grouped before home was written "Home" say "home".
        if stored == "home" || stored == NamedPlace.homeName { return NamedPlace.homeName }
        guard let latitude = row.optionalDouble(at: column),
            let longitude = row.optionalDouble(at: column + 1)
        else { return stored }
        let place = Coordinate(latitude: latitude, longitude: longitude)
        return labels.label(stored, at: place, storedIsCoordinates: Coordinate(parsing: stored) != nil) ?? stored
    }

    /// A destination's label: `Home`, as places name it, else the zone it lies in or the POI next
    /// to it (as a trip's end is labelled), else the coordinates of the place it belongs to.
    private static func label(
        _ destination: Coordinate,
        home: Home?,
        places: PlaceMap,
        labeler: PlaceLabeler,
        rules: JourneyRules
    ) -> String {
        if let home, Geodesy.fastDistance(home.coordinate, destination) <= rules.placeRadius {
            return NamedPlace.homeName
        }
        if let name = labeler.label(for: destination) { return name }
        let place = places.place(near: destination).map { places.places[$0].centre }
        return (place ?? destination).coordinateLabel
    }
}
