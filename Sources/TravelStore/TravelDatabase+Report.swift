package import TravelCore
internal import TravelFormats
internal import TravelMessages

/// The data of `travelctl report`: one JSON document the HTML page embeds and draws (map layers,
/// charts, tables). Built here, by the function the daemon's `Report` method and `travelctl
/// --db … report` both call, so the page is the same bytes either way.
///
/// Nothing in it depends on when it is made: its latest moment (`until`) is the history's.
package struct ReportDocument {
    /// How far a drawn route may stray from the stored one, metres (Douglas–Peucker): invisible
    /// at the zoom a trip fills the screen, and a year of routes stays within a few megabytes.
    package static let routeTolerance = 10.0
    /// Route coordinates are drawn to 1e-5° (about a metre), sent as integers of that unit.
    package static let coordinateScale = 100_000.0
    /// The most POIs the map draws (as small canvas circles): those in the report's area, by id.
    package static let poiLimit = 5_000

    /// The document, compact JSON.
    package private(set) var bytes: [UInt8]

    /// Reads the selection's trips, routes, stops, notes, photos, zone events and alerts and
    /// journeys; throws `ExportSelectionError` for an unknown trip or journey, or `StoreError`.
    package init(_ db: TravelDatabase, selection: ExportSelection, rules: JourneyRules) throws {
        let zone = rules.timeZone
        let (title, trips, moments) = try HistoryExport.select(selection, in: db, zone: zone)
        let allJourneys = try db.journeys(zone: zone)
        // A route's colour: its journey's type, else the type its plan declared (home unknown).
        let types = Dictionary(
            allJourneys.map { ($0.id, $0.type ?? $0.plan?.type) },
            uniquingKeysWith: { first, _ in first }
        )
        let journeys: [JourneyRecord]
        switch selection {
        case .all: journeys = allJourneys
        case .journey(let id): journeys = allJourneys.filter { $0.id == id }
        case .trip: journeys = allJourneys.filter { $0.id == trips.first?.journeyID }
        case .range(let since, let through):
            journeys = try db.journeys(
                JourneyFilter(since: since.start(in: zone), until: through.end(in: zone)),
                zone: zone
            )
        }
        // The period: from the first trip's start to the latest trip end or moment, within a range's end.
        let from = trips.first?.summary.startTime
        var until = (trips.map(\.summary.endTime) + moments.map(\.time)).max()
        if case .range(_, let through?) = selection, let end = until { until = min(end, through.end(in: zone)) }
        let events =
            try from.flatMap { from in
                try until.map { until in try db.placeEvents(since: from, until: until.adding(seconds: 0.001)) }
            } ?? []

        var json = JSONWriter()
        json.beginObject()
        json.member("title", .string(title))
        json.member("time_zone", .string(zone.name))
        json.key("from")
        if let from { json.time(from) } else { json.value(.null) }
        json.key("until")
        if let until { json.time(until) } else { json.value(.null) }

        var heat = TimeHeatmap()
        var area = ReportArea()
        for case let coordinate? in moments.map(\.coordinate) { area.add(coordinate) }
        var drawn = 0
        json.key("trips")
        json.beginArray()
        var cursor = try db.routeCursor(of: trips)
        while let (trip, route) = try cursor.next() {
            heat.add(route: route)
            let kept = RouteSimplifier.simplify(route.map(\.coordinate), tolerance: Self.routeTolerance)
            drawn += kept.count
            area.add(route: kept)
            area.add(trip.summary.start)
            area.add(trip.summary.end)
            Self.write(trip, type: trip.journeyID.flatMap { types[$0] ?? nil }, route: kept, to: &json)
        }
        json.endArray()

        if let from, let until {
            // Parked time, within the period: a stop not left yet counts until the history ends.
            for stop in try db.stops(between: from, and: until) {
                let arrival = max(stop.arrival.milliseconds, from.milliseconds)
                let departure = min((stop.departure ?? until).milliseconds, until.milliseconds)
                heat.add(stop.coordinate, milliseconds: departure - arrival)
            }
        }
        let (cellSize, cells) = heat.cells()
        json.key("heat")
        json.beginObject()
        json.member("cell_deg", .double(cellSize))
        json.key("cells")
        json.beginArray()
        for cell in cells {
            json.value(.integer(Int64(cell.row)))
            json.value(.integer(Int64(cell.column)))
            json.value(.integer(cell.seconds))
        }
        json.endArray()
        json.endObject()

        json.member("journeys", .array(journeys.map { $0.message(zone: zone).json }))
        json.member("notes", .array(moments.filter { $0.kind == .note }.map(\.json)))
        json.member("photos", .array(moments.filter { $0.kind == .photo }.map(\.json)))
        json.member("events", .array(events.map(\.json)))
        json.member("stats", .array(Self.stats(of: journeys, all: allJourneys, selection: selection, zone: zone)))
        json.member("zones", .array(try db.zoneRecords().map { Self.json(of: $0.zone) }))
        let pois =
            try area.bounds.map { try db.pois(from: $0.southWest, to: $0.northEast) }?
            .filter { area.contains($0.coordinate) } ?? []
        json.member("pois", .array(pois.prefix(Self.poiLimit).map(Self.json(of:))))
        json.member(
            "totals",
            [
                "journeys": .integer(Int64(journeys.count)),
                "trips": .integer(Int64(trips.count)),
                "distance_m": .double((trips.reduce(0) { $0 + $1.summary.distance } * 10).rounded() / 10),
                "duration_s": .double(trips.reduce(0) { $0 + $1.summary.duration }),
                "duration": .string(HumanText.duration(trips.reduce(0) { $0 + $1.summary.duration })),
                "route_points": .integer(Int64(trips.reduce(0) { $0 + $1.summary.pointCount })),
                "drawn_points": .integer(Int64(drawn)),
                "pois_in_area": .integer(Int64(pois.count)),
            ]
        )
        json.endObject()
        bytes = json.bytes
    }

    /// A trip as `trips --json` has it, with its journey's type (or planned type) and its drawn route: the first
    /// point in 1e-5° integers, then each point as the difference from the one before.
    private static func write(_ trip: TripRecord, type: JourneyType?, route: [Coordinate], to json: inout JSONWriter) {
        var members = trip.message.members
        members.append(.init("type", type.map { .string($0.rawValue) } ?? .null))
        // Durations read as `trips` and the daemon write them: the page does not round its own.
        members.append(.init("duration", .string(HumanText.duration(trip.summary.duration))))
        json.beginObject()
        for member in members { json.member(member.key, member.value) }
        json.key("route")
        json.beginArray()
        var (latitude, longitude): (Int64, Int64) = (0, 0)
        for point in route {
            let (nextLatitude, nextLongitude) = (
                Int64((point.latitude * coordinateScale).rounded()),
                Int64((point.longitude * coordinateScale).rounded())
            )
            json.value(.integer(nextLatitude - latitude))
            json.value(.integer(nextLongitude - longitude))
            (latitude, longitude) = (nextLatitude, nextLongitude)
        }
        json.endArray()
        json.endObject()
    }

    /// A zone as `zone list --json` has it, without the daemon's inside/outside state (the page
    /// shows where zones are, and the same history gives the same bytes while the daemon runs).
    private static func json(of zone: Zone) -> JSONValue {
        let message = ZoneRecord(zone: zone).message
        guard case .object(let members) = message.json else { return message.json }
        return .object(members.filter { $0.key != "inside" && $0.key != "since" })
    }

    /// A POI for the map: `id`, `name`, `category`, `lat`, `lon` (to 1e-5°).
    private static func json(of poi: POI) -> JSONValue {
        [
            "id": .integer(poi.id), "name": .string(poi.name), "category": poi.category.map(JSONValue.string) ?? .null,
            "lat": .double((poi.coordinate.latitude * coordinateScale).rounded() / coordinateScale),
            "lon": .double((poi.coordinate.longitude * coordinateScale).rounded() / coordinateScale),
        ]
    }

    /// `stats --json` of each local year the journeys start in. The whole history's report charts
    /// every journey of each year, as `travelctl stats --year` does; a trip's, journey's or range's
    /// report charts its own journeys, in the months from its first journey's start to its last one's
    /// end (a range's: widened to the range asked for) only.
    private static func stats(
        of journeys: [JourneyRecord],
        all: [JourneyRecord],
        selection: ExportSelection,
        zone: LocalTimeZone
    ) -> [JSONValue] {
        let years = Set(journeys.map { zone.local($0.start).components.year }).sorted()
        guard selection != .all, let first = journeys.map(\.start).min(), let last = journeys.map(\.end).max()
        else {
            let starts = all.map { (start: $0.start, distance: $0.distance) }
            return years.map { StatsMessage(MonthlyTotals(year: $0, journeys: starts, zone: zone)).json }
        }
        var (from, through) = (first, last)
        if case .range(let since, let until) = selection {
            // The range asked for, and the months of any selected journey that starts before it or ends after.
            from = min(since.start(in: zone) ?? from, from)
            through = max(until.end(in: zone) ?? through, through)
        }
        func month(_ time: UTCTime) -> Int {
            let local = zone.local(time).components
            return local.year * 12 + local.month - 1
        }
        let months = month(from)...max(month(from), month(through))
        let starts = journeys.map { (start: $0.start, distance: $0.distance) }
        return years.map { year in
            var stats = StatsMessage(MonthlyTotals(year: year, journeys: starts, zone: zone))
            stats.months.removeAll { !months.contains(year * 12 + $0.month - 1) }
            return stats.json
        }
    }
}
