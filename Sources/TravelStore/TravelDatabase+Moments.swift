package import TravelCore
package import TravelMessages

// Notes and photos: placed on the route at their moment, attached to the journey that holds it.
extension TravelDatabase {
    /// How old the latest point of a trip still under way may be to stand for "now" (a note
    /// written during a live drive, before the next flush).
    static let latestPointValidity: Int64 = 60_000

    /// Where the vehicle was at `time` (see `MomentPosition`): interpolated between the two route
    /// points of one trip around it, else the spot it was parked at, else `nil`.
    package func position(at time: UTCTime) throws(StoreError) -> Coordinate? {
        let before = try routePoint(
            "SELECT t_ms, lat, lon, trip_id FROM route_points WHERE t_ms <= ?1 ORDER BY t_ms DESC LIMIT 1",
            time
        )
        let after = try routePoint(
            "SELECT t_ms, lat, lon, trip_id FROM route_points WHERE t_ms >= ?1 ORDER BY t_ms LIMIT 1",
            time
        )
        if let before, let after, before.tripID == after.tripID {
            return MomentPosition.interpolate(at: time, between: before.point, and: after.point)
        }
        let parked = try connection.prepare(
            """
            SELECT lat, lon FROM stops WHERE arrival_ms <= ?1 AND (departure_ms IS NULL OR departure_ms > ?1)
            ORDER BY arrival_ms DESC LIMIT 1
            """
        )
        parked.bind(1, time.milliseconds)
        if let stop = try parked.firstRow({
            Coordinate(latitude: parked.double(at: 0), longitude: parked.double(at: 1))
        }) {
            return stop
        }
        guard let before, time.milliseconds - before.point.time.milliseconds <= Self.latestPointValidity,
            try trip(id: before.tripID)?.isOngoing == true
        else { return nil }
        return before.point.coordinate
    }

    private func routePoint(_ sql: String, _ time: UTCTime) throws(StoreError) -> (point: RoutePoint, tripID: Int64)? {
        let query = try connection.prepare(sql)
        query.bind(1, time.milliseconds)
        return try query.firstRow {
            (
                RoutePoint(
                    time: UTCTime(milliseconds: query.int64(at: 0)),
                    coordinate: Coordinate(latitude: query.double(at: 1), longitude: query.double(at: 2))
                ),
                query.int64(at: 3)
            )
        }
    }

    /// Stores a note at `time`, placed and attached to its journey.
    package func addNote(_ text: String, at time: UTCTime) throws(StoreError) -> MomentMessage {
        let coordinate = try position(at: time)
        let insert = try connection.prepare(
            "INSERT INTO notes (t_ms, text, lat, lon, journey_id) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id"
        )
        let journeyID = try journeyID(at: time)
        insert.bind(1, time.milliseconds)
        insert.bind(2, text)
        insert.bind(3, coordinate?.latitude)
        insert.bind(4, coordinate?.longitude)
        insert.bind(5, journeyID)
        guard let id = try insert.firstRow({ insert.int64(at: 0) }) else {
            throw .statementFailed(sql: "INSERT INTO notes", reason: "no id returned")
        }
        return MomentMessage(id: id, kind: .note, time: time, text: text, coordinate: coordinate, journeyID: journeyID)
    }

    /// Stores a reference to the photo at `path` taken at `time`, at `coordinate` (its own GPS
    /// position) or else placed on the route; `nil` when a photo with the same SHA-256 is stored
    /// already (the same file, perhaps under another name).
    package func addPhoto(
        path: String,
        sha256: String,
        at time: UTCTime,
        coordinate given: Coordinate? = nil
    ) throws(StoreError) -> MomentMessage? {
        if try photo(sha256: sha256) != nil { return nil }
        let coordinate: Coordinate?
        if let given { coordinate = given } else { coordinate = try position(at: time) }
        let journeyID = try journeyID(at: time)
        let insert = try connection.prepare(
            "INSERT INTO photos (t_ms, path, sha256, lat, lon, journey_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id"
        )
        insert.bind(1, time.milliseconds)
        insert.bind(2, path)
        insert.bind(3, sha256)
        insert.bind(4, coordinate?.latitude)
        insert.bind(5, coordinate?.longitude)
        insert.bind(6, journeyID)
        guard let id = try insert.firstRow({ insert.int64(at: 0) }) else {
            throw .statementFailed(sql: "INSERT INTO photos", reason: "no id returned")
        }
        return MomentMessage(
            id: id,
            kind: .photo,
            time: time,
            text: path,
            sha256: sha256,
            coordinate: coordinate,
            journeyID: journeyID
        )
    }

    /// The stored photo with this SHA-256, if any.
    package func photo(sha256: String) throws(StoreError) -> MomentMessage? {
        try moments(where: "sha256 = '\(sha256.filter(\.isHexDigit))'", kinds: [.photo]).first
    }

    /// Notes and photos of journey `id`, in time order.
    package func moments(journeyID id: Int64) throws(StoreError) -> [MomentMessage] {
        try moments(where: "journey_id = \(id)")
    }

    /// Notes and photos taken in `[from, through]` (either bound may be omitted), in time order.
    package func moments(from: UTCTime? = nil, through: UTCTime? = nil) throws(StoreError) -> [MomentMessage] {
        try moments(where: "t_ms BETWEEN \(from?.milliseconds ?? .min) AND \(through?.milliseconds ?? .max)")
    }

    func moments(
        where condition: String,
        kinds: Set<MomentMessage.Kind> = [.note, .photo]
    ) throws(StoreError) -> [MomentMessage] {
        let noteRows = "SELECT 'note', id, t_ms, text, NULL, lat, lon, journey_id FROM notes WHERE \(condition)"
        let photoRows = "SELECT 'photo', id, t_ms, path, sha256, lat, lon, journey_id FROM photos WHERE \(condition)"
        let rows = [(MomentMessage.Kind.note, noteRows), (.photo, photoRows)].filter { kinds.contains($0.0) }.map(\.1)
        let query = try connection.prepare(rows.joined(separator: " UNION ALL ") + " ORDER BY 3, 1, 2")
        var moments: [MomentMessage] = []
        try query.forEachRow {
            moments.append(
                MomentMessage(
                    id: query.int64(at: 1),
                    kind: query.text(at: 0) == "note" ? .note : .photo,
                    time: UTCTime(milliseconds: query.int64(at: 2)),
                    text: query.text(at: 3) ?? "",
                    sha256: query.text(at: 4),
                    coordinate: query.optionalDouble(at: 5).map {
                        Coordinate(latitude: $0, longitude: query.double(at: 6))
                    },
                    journeyID: query.optionalInt64(at: 7)
                )
            )
        }
        return moments
    }

    /// The journey whose span holds `time`: one started by hand first, then a plan's, then the
    /// latest automatic one to start before it.
    private func journeyID(at time: UTCTime) throws(StoreError) -> Int64? {
        let query = try connection.prepare("SELECT \(Self.journeyAtTime("?1"))")
        query.bind(1, time.milliseconds)
        return try query.firstRow { query.optionalInt64(at: 0) } ?? nil
    }

    /// A scalar subquery: the id of the journey holding the instant `time` (an SQL expression).
    private static func journeyAtTime(_ time: String) -> String {
        """
        (SELECT j.id FROM journeys AS j
         WHERE j.start_ms <= \(time) AND coalesce(j.end_ms, \(Int64.max)) >= \(time)
         ORDER BY j.manual DESC, j.plan_id IS NULL, j.start_ms DESC LIMIT 1)
        """
    }

    /// Attaches every note and photo to the journey holding its moment, after a regroup.
    func reattachMoments() throws(StoreError) {
        try connection.execute(
            """
            UPDATE notes SET journey_id = \(Self.journeyAtTime("notes.t_ms"));
            UPDATE photos SET journey_id = \(Self.journeyAtTime("photos.t_ms"));
            """
        )
    }
}
