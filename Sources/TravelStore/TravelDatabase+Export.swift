package import TravelCore
package import TravelMessages

// Exports: what `travelctl export --db` writes to its file and the daemon's `Export` streams in
// chunks, one code path for both, reading years of routes as fast as SQLite scans.

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

/// One export being written a piece at a time: the stops, notes and photos at once, then per
/// `writeNextPiece()` a trip's start, up to `pieceSize` of its route points, its end, or the end of
/// the document, so the caller decides when to go on: `writeAll()` for a file, a chunk per reply
/// for the control socket. Route points are read from SQLite as they are written, never gathered:
/// an export needs the same memory for a trip of a minute and a trip of a week.
///
/// The export reads one snapshot of the database (a read transaction from `init` to the end of
/// the document), so a trip still being recorded is written as it stood when the export began,
/// and the pass that measures a route's shape for GeoJSON and KML sees the points the next one
/// writes.
package struct HistoryExport {
    /// Route points written per `writeNextPiece()`: about 100 KB of text.
    package static let pieceSize = 1_024

    private var writer: ExportWriter<any Error>
    private var routes: RouteCursor
    private let connection: SQLiteDatabase
    private var state = State.betweenTrips

    private enum State {
        case betweenTrips
        case inTrip
        case finished
    }

    /// Selects the trips, then writes the header, the stops after each trip and the notes and
    /// photos with a position; throws `ExportSelectionError` for an unknown trip or journey,
    /// `StoreError`, or what `sink` throws. A range's dates are local days of `zone`.
    package init(
        _ db: TravelDatabase,
        format: ExportFormat,
        selection: ExportSelection,
        zone: LocalTimeZone,
        sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        try db.connection.execute("BEGIN")
        do {
            (writer, routes) = try Self.begin(db, format: format, selection: selection, zone: zone, sink: sink)
        } catch {
            try? db.connection.execute("ROLLBACK")
            throw error
        }
        connection = db.connection
    }

    private static func begin(
        _ db: TravelDatabase,
        format: ExportFormat,
        selection: ExportSelection,
        zone: LocalTimeZone,
        sink: @escaping ([UInt8]) throws -> Void
    ) throws -> (ExportWriter<any Error>, RouteCursor) {
        let (title, trips, moments) = try select(selection, in: db, zone: zone)
        var writer = ExportWriter<any Error>(format: format, title: title, sink: sink)
        if let first = trips.first, let last = trips.last {
            // The stops after each trip: arrived by the last trip's end, left after the first's start.
            for stop in try db.stops(between: first.summary.startTime, and: last.summary.endTime.adding(seconds: 0.001))
            {
                let name = stop.place ?? stop.coordinate.coordinateLabel
                let stay = Stay(
                    coordinate: stop.coordinate,
                    arrival: stop.arrival,
                    departure: stop.departure,
                    departureCoordinate: stop.departureCoordinate
                )
                try writer.add(
                    ExportStop(
                        arrival: stop.arrival,
                        departure: stop.departure,
                        coordinate: stop.coordinate,
                        name: name,
                        movedUnrecorded: stop.departure != nil && !stay.stoodHere(radius: JourneyRules().placeRadius)
                    )
                )
            }
        }
        for moment in moments {
            guard let coordinate = moment.coordinate else { continue }
            let kind: ExportMoment.Kind = moment.kind == .note ? .note : .photo
            try writer.add(ExportMoment(kind: kind, time: moment.time, coordinate: coordinate, text: moment.text))
        }
        return (writer, try db.routeCursor(of: trips, measuringShapes: format.needsRouteShape))
    }

    /// Writes the next piece: a trip's start, up to `pieceSize` of its route points, its end, or
    /// the end of the document; false once the document is complete.
    package mutating func writeNextPiece() throws -> Bool {
        switch state {
        case .finished:
            return false
        case .betweenTrips:
            if let (trip, shape) = try routes.nextTrip() {
                let content = ExportTrip(
                    id: trip.id,
                    summary: trip.summary,
                    startPlace: trip.startPlace,
                    endPlace: trip.endPlace,
                    journeyID: trip.journeyID
                )
                writer.beginTrip(content, shape: shape)
                state = .inTrip
            } else {
                try writer.finish()
                try connection.execute("COMMIT")
                state = .finished
            }
        case .inTrip:
            for _ in 0..<Self.pieceSize {
                guard let point = try routes.nextPoint() else {
                    try writer.endTrip()
                    state = .betweenTrips
                    break
                }
                try writer.add(point)
            }
        }
        return true
    }

    /// Writes the rest of the document.
    package mutating func writeAll() throws {
        while try writeNextPiece() {}
    }

    /// The document's title, the trips selected (oldest first) and the notes and photos that go
    /// with them: those taken during the trip, those of the journey, or those of the date range
    /// (its dates local days of `zone`).
    package static func select(
        _ selection: ExportSelection,
        in db: TravelDatabase,
        zone: LocalTimeZone
    ) throws -> (title: String, trips: [TripRecord], moments: [MomentMessage]) {
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
        case .range(let sinceBound, let throughBound):
            let from = sinceBound.map { " from \($0)" } ?? ""
            let to = throughBound.map { " until \($0)" } ?? ""
            let (since, through) = (sinceBound.start(in: zone), throughBound.end(in: zone))
            let trips = try db.trips(since: since, until: through)
            return ("TravelCompanion: trips\(from)\(to)", trips, try db.moments(from: since, through: through))
        }
    }
}

/// Each of some trips (oldest first, as `trips(…)` returns them) and its route, read point by
/// point: `nextTrip()`, then its points from `nextPoint()` until `nil`, and so on.
///
/// One scan of `route_points` over the trips' time span, with one statement, instead of a query
/// per trip: rows come in time order, and a trip's points are contiguous there. Only what
/// exports write is read (time, position, altitude). Points of trips not asked for are skipped; a
/// trip without points gets an empty route. When measuring shapes, a second scan of the same rows
/// runs a trip ahead and measures each route's `ExportRouteShape` before its first point is
/// handed out; both must read one snapshot (a transaction around the cursor's use).
package struct RouteCursor {
    private let trips: [TripRecord]
    private var points: RouteScan
    private var shapes: RouteScan?
    /// The trip whose points `nextPoint()` hands out.
    private var current: Int?
    private var following = 0

    init(trips: [TripRecord], measuringShapes: Bool, connection: SQLiteDatabase) throws(StoreError) {
        self.trips = trips
        points = try RouteScan(trips, connection: connection)
        shapes = measuringShapes ? try RouteScan(trips, connection: connection) : nil
    }

    /// The next trip, with its route's shape when the cursor measures them; `nil` after the last.
    /// What remains of the previous trip's route is skipped.
    package mutating func nextTrip() throws(StoreError) -> (TripRecord, ExportRouteShape?)? {
        if let current { while try points.next(of: current) != nil {} }
        guard following < trips.count else {
            current = nil
            return nil
        }
        current = following
        following += 1
        guard shapes != nil else { return (trips[following - 1], nil) }
        var shape = ExportRouteShape()
        while let point = try shapes?.next(of: following - 1) { shape.add(point) }
        return (trips[following - 1], shape)
    }

    /// The next point of the route of the trip `nextTrip()` returned; `nil` after its last.
    package mutating func nextPoint() throws(StoreError) -> RoutePoint? {
        guard let current else { return nil }
        return try points.next(of: current)
    }

    /// The next trip and its whole route; `nil` after the last.
    package mutating func next() throws(StoreError) -> (TripRecord, [RoutePoint])? {
        guard let (trip, _) = try nextTrip() else { return nil }
        var route: [RoutePoint] = []
        while let point = try nextPoint() { route.append(point) }
        return (trip, route)
    }
}

/// The rows of one scan of `route_points` over some trips' time span that belong to them, in
/// time order, each with its trip's index: points of other trips are skipped, and so are those of
/// a trip before the latest one met (a trip's points are contiguous in time).
private struct RouteScan {
    private let position: [Int64: Int]
    private let query: SQLiteStatement?
    /// The index of the latest trip met: points of earlier trips are not read any more.
    private var latest = 0
    /// A point read but not handed out yet: the first of a later trip.
    private var pending: (trip: Int, point: RoutePoint)?
    private var ended = false

    init(_ trips: [TripRecord], connection: SQLiteDatabase) throws(StoreError) {
        position = Dictionary(trips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard let first = trips.first else {
            query = nil
            ended = true
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

    /// The next point if it is one of trip `index`'s (whose predecessors are done with), else `nil`.
    mutating func next(of index: Int) throws(StoreError) -> RoutePoint? {
        if pending == nil { pending = try read() }
        guard let pending, pending.trip == index else { return nil }
        self.pending = nil
        return pending.point
    }

    private mutating func read() throws(StoreError) -> (trip: Int, point: RoutePoint)? {
        guard let query, !ended else { return nil }
        while try query.step() {
            guard let index = position[query.int64(at: 4)], index >= latest else { continue }
            latest = index
            let point = RoutePoint(
                time: UTCTime(milliseconds: query.int64(at: 0)),
                coordinate: Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2)),
                altitude: query.optionalDouble(at: 3)
            )
            return (index, point)
        }
        // The statement has reset itself: stepping it again would start over.
        ended = true
        return nil
    }
}

extension TravelDatabase {
    /// A cursor over `trips` and their routes (see `RouteCursor`); `measuringShapes` has it
    /// measure each route's shape before handing out its points, for GeoJSON and KML.
    package func routeCursor(of trips: [TripRecord], measuringShapes: Bool = false) throws(StoreError) -> RouteCursor {
        try RouteCursor(trips: trips, measuringShapes: measuringShapes, connection: connection)
    }
}
