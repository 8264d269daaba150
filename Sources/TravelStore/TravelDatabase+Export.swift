package import TravelCore

// Exports: what `travelctl export --db` writes to its file and the daemon's `Export` streams in
// chunks, one code path for both, reading years of routes as fast as SQLite scans.

/// Which trips an export holds.
package enum ExportSelection: Sendable, Hashable {
    case all
    case trip(Int64)
    /// A journey's trips, with its notes and photos.
    case journey(Int64)
    /// Trips starting within the bounds (both included), with the notes and photos of the range.
    case range(since: UTCTime?, through: UTCTime?)
}

/// An export named a trip or a journey that is not stored.
package enum ExportSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case noTrip(Int64)
    case noJourney(Int64)

    package var description: String {
        switch self {
        case .noTrip(let id): "no trip \(id)"
        case .noJourney(let id): "no journey \(id)"
        }
    }
}

/// One export being written: the stops, notes and photos at once, then a trip (with its route)
/// per `writeNextTrip()`, so the caller decides when to go on: `writeAll()` for a file, a chunk
/// per reply for the control socket. One route is in memory at a time.
package struct HistoryExport {
    private var writer: ExportWriter<any Error>
    private var routes: RouteCursor
    private var finished = false

    /// Selects the trips, then writes the header, the stops after each trip and the notes and
    /// photos with a position; throws `ExportSelectionError` for an unknown trip or journey,
    /// `StoreError`, or what `sink` throws.
    package init(
        _ db: TravelDatabase,
        format: ExportFormat,
        selection: ExportSelection,
        sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let (title, trips, moments) = try Self.select(selection, in: db)
        var writer = ExportWriter<any Error>(format: format, title: title, sink: sink)
        if let first = trips.first, let last = trips.last {
            // The stops after each trip: arrived by the last trip's end, left after the first's start.
            for stop in try db.stops(between: first.summary.startTime, and: last.summary.endTime.adding(seconds: 0.001))
            {
                let name = stop.place ?? stop.coordinate.coordinateLabel
                try writer.add(
                    ExportStop(
                        arrival: stop.arrival,
                        departure: stop.departure,
                        coordinate: stop.coordinate,
                        name: name
                    )
                )
            }
        }
        for moment in moments {
            guard let coordinate = moment.coordinate else { continue }
            let kind: ExportMoment.Kind = moment.kind == .note ? .note : .photo
            try writer.add(ExportMoment(kind: kind, time: moment.time, coordinate: coordinate, text: moment.text))
        }
        self.writer = writer
        routes = try db.routeCursor(of: trips)
    }

    /// Writes the next trip, or ends the document after the last; false once it is complete.
    package mutating func writeNextTrip() throws -> Bool {
        guard !finished else { return false }
        if let next = try routes.next() {
            let (trip, route) = next
            let content = ExportTrip(
                id: trip.id,
                summary: trip.summary,
                startPlace: trip.startPlace,
                endPlace: trip.endPlace,
                journeyID: trip.journeyID
            )
            try writer.add(content, route: route)
        } else {
            try writer.finish()
            finished = true
        }
        return true
    }

    /// Writes the rest of the document.
    package mutating func writeAll() throws {
        while try writeNextTrip() {}
    }

    /// The document's title, the trips selected (oldest first) and the notes and photos that go
    /// with them: those taken during the trip, those of the journey, or those of the date range.
    package static func select(
        _ selection: ExportSelection,
        in db: TravelDatabase
    ) throws -> (title: String, trips: [TripRecord], moments: [MomentRecord]) {
        switch selection {
        case .trip(let id):
            guard let trip = try db.trip(id: id) else { throw ExportSelectionError.noTrip(id) }
            let moments = try db.moments(from: trip.summary.startTime, through: trip.summary.endTime)
            return ("TravelCompanion: trip \(id)", [trip], moments)
        case .journey(let id):
            guard let journey = try db.journey(id: id) else { throw ExportSelectionError.noJourney(id) }
            let title = "TravelCompanion: journey \(id) to \(journey.destination)"
            return (title, try db.trips(journeyID: id), try db.moments(journeyID: id))
        case .all:
            return ("TravelCompanion: all trips", try db.trips(), try db.moments())
        case .range(let since, let through):
            let from = since.map { " from \($0.iso8601)" } ?? ""
            let to = through.map { " until \($0.iso8601)" } ?? ""
            let trips = try db.trips(since: since, until: through)
            return ("TravelCompanion: trips\(from)\(to)", trips, try db.moments(from: since, through: through))
        }
    }
}

/// Each of some trips (oldest first, as `trips(…)` returns them) with its route, in order.
///
/// One scan of `route_points` over the trips' time span, with one statement, instead of a query
/// per trip: rows come in time order, and a trip's points are contiguous there. Only what
/// exports write is read (time, position, altitude). Points of trips not asked for are skipped; a
/// trip without points gets an empty route.
package struct RouteCursor {
    private let trips: [TripRecord]
    private let position: [Int64: Int]
    private let query: SQLiteStatement?
    /// The first trip not handed out yet.
    private var nextTrip = 0
    /// The points read of trip `routeTrip` (at or after `nextTrip`).
    private var route: [RoutePoint] = []
    private var routeTrip: Int?
    private var scanned = false

    init(trips: [TripRecord], connection: SQLiteDatabase) throws(StoreError) {
        self.trips = trips
        position = Dictionary(trips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard let first = trips.first else {
            query = nil
            scanned = true
            return
        }
        let through = trips.map(\.summary.endTime.milliseconds).max() ?? first.summary.endTime.milliseconds
        let query = try connection.prepare(
            "SELECT t_ms, lat, lon, alt, trip_id FROM route_points WHERE t_ms BETWEEN ?1 AND ?2 ORDER BY t_ms"
        )
        query.bind(1, first.summary.startTime.milliseconds)
        query.bind(2, through)
        self.query = query
    }

    /// The next trip and its route; `nil` after the last.
    package mutating func next() throws(StoreError) -> (TripRecord, [RoutePoint])? {
        while nextTrip < trips.count {
            if routeTrip == nextTrip && scanned {
                return handOver(route: true)
            }
            if scanned || routeTrip.map({ $0 > nextTrip }) == true {
                // A trip before the one being read, or after the scan ended, had no points.
                return handOver(route: false)
            }
            guard let query, try query.step() else {
                scanned = true
                continue
            }
            // A point of a trip not selected, or of one already handed over: not in this export.
            guard let index = position[query.int64(at: 4)], index >= nextTrip else { continue }
            let point = RoutePoint(
                time: UTCTime(milliseconds: query.int64(at: 0)),
                coordinate: Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2)),
                altitude: query.optionalDouble(at: 3)
            )
            if routeTrip == nil || routeTrip == index {
                routeTrip = index
                route.append(point)
                continue
            }
            // The first point of a later trip: the one read so far is complete.
            let complete = handOver(route: true)
            routeTrip = index
            route.append(point)
            return complete
        }
        return nil
    }

    /// Trip `nextTrip`, with the points read or none, and the cursor past it.
    private mutating func handOver(route withRoute: Bool) -> (TripRecord, [RoutePoint]) {
        defer { nextTrip += 1 }
        guard withRoute else { return (trips[nextTrip], []) }
        let points = route
        route.removeAll(keepingCapacity: true)
        routeTrip = nil
        return (trips[nextTrip], points)
    }
}

extension TravelDatabase {
    /// A cursor over `trips` and their routes (see `RouteCursor`).
    package func routeCursor(of trips: [TripRecord]) throws(StoreError) -> RouteCursor {
        try RouteCursor(trips: trips, connection: connection)
    }

    /// Calls `body` with each of `trips` (oldest first, as `trips(…)` returns them) and its
    /// route, in order, one trip's route in memory at a time (see `RouteCursor`).
    package func forEachRoute(
        of trips: [TripRecord],
        _ body: (TripRecord, [RoutePoint]) throws -> Void
    ) throws {
        var cursor = try routeCursor(of: trips)
        while let next = try cursor.next() { try body(next.0, next.1) }
    }
}
