package import TravelCore

/// The uplinks' outbox: the history itself, read after each uplink's cursor (docs/uplink.md).
extension TravelDatabase {
    /// The items after `cursor` in `streams`, committed and still buffered, merged by key (then by
    /// stream): about `limit` of them, never splitting the items of one stream that share a key.
    package func uplinkItems(
        after cursor: UplinkCursor,
        streams: Set<UplinkStream>,
        limit: Int
    ) throws(StoreError) -> [UplinkItem] {
        var items: [UplinkItem] = []
        // Each stream's buffered items are newer than its committed rows, so `limit` and a few
        // committed rows per stream are enough for the first `limit` items of the merge.
        let fetch = limit + 16
        let newest = try newestCommitted()
        for stream in UplinkStream.allCases where streams.contains(stream) && cursor[stream] < newest[stream] ?? .min {
            items += try committedItems(stream, after: cursor[stream], limit: fetch)
        }
        items += bufferedItems(after: cursor, streams: streams)
        let merged = items.enumerated().sorted { left, right in
            (left.element.key, left.element.stream.number, left.offset)
                < (right.element.key, right.element.stream.number, right.offset)
        }.map(\.element)
        guard merged.count > limit else { return merged }
        var kept = Array(merged.prefix(limit))
        var lastKey: [UplinkStream: Int64] = [:]
        for item in kept { lastKey[item.stream] = item.key }
        kept += merged.dropFirst(limit).filter { lastKey[$0.stream] == $0.key }
        return kept
    }

    /// The newest committed key of each stream, read once after each commit. An uplink caught up
    /// with the live buffer then reads no table between commits: a read transaction per fix
    /// would touch the WAL index (`-shm`), a page the kernel writes back to the card each time.
    /// (Rows another connection commits, an import's, are seen after the daemon's next commit.)
    private func newestCommitted() throws(StoreError) -> [UplinkStream: Int64] {
        if let newestCommittedKeys { return newestCommittedKeys }
        var keys: [UplinkStream: Int64] = [:]
        for stream in UplinkStream.allCases {
            let query = try connection.prepare("SELECT max(\(stream.keyColumn)) FROM \(stream.committedRows)")
            keys[stream] = try query.firstRow { query.optionalInt64(at: 0) } ?? nil
        }
        newestCommittedKeys = keys
        return keys
    }

    /// How many items wait after `cursor` in `streams`: what `status` shows as an uplink's backlog.
    package func uplinkBacklog(after cursor: UplinkCursor, streams: Set<UplinkStream>) throws(StoreError) -> Int {
        var count = 0
        for stream in UplinkStream.allCases where streams.contains(stream) {
            let query = try connection.prepare(
                "SELECT count(*) FROM \(stream.committedRows) AND \(stream.keyColumn) > ?1"
            )
            query.bind(1, cursor[stream])
            count += try query.firstRow { Int(query.int64(at: 0)) } ?? 0
        }
        return count + bufferedItems(after: cursor, streams: streams).count
    }

    /// Where `uplink` stands: its committed cursor, moved on by what the spool holds of it (a
    /// restart after a power cut between commits). What came from the spool is committed with the
    /// next commit, which empties the spool.
    package func uplinkCursor(_ uplink: String) throws(StoreError) -> UplinkCursor {
        if let pending = cursorsToCommit[uplink] { return pending }
        var cursor = UplinkCursor()
        let query = try connection.prepare("SELECT stream, key_ms FROM uplink_cursors WHERE uplink = ?1")
        query.bind(1, uplink)
        try query.forEachRow {
            if let stream = query.text(at: 0).flatMap(UplinkStream.init(rawValue:)) {
                cursor[stream] = query.int64(at: 1)
            }
        }
        if let spooled = spool?.cursors()[uplink] {
            for (stream, key) in spooled.keys where key > cursor[stream] { cursor[stream] = key }
            cursorsToCommit[uplink] = cursor
        }
        return cursor
    }

    /// Writes the cursors moved since the last commit, inside the commit's transaction.
    func writeUplinkCursors() throws(StoreError) {
        guard !cursorsToCommit.isEmpty else { return }
        let upsert = try connection.prepare(
            """
            INSERT INTO uplink_cursors (uplink, stream, key_ms) VALUES (?1, ?2, ?3)
            ON CONFLICT (uplink, stream) DO UPDATE SET key_ms = excluded.key_ms
            """
        )
        for (uplink, cursor) in cursorsToCommit {
            for (stream, key) in cursor.keys {
                upsert.bind(1, uplink)
                upsert.bind(2, stream.rawValue)
                upsert.bind(3, key)
                try upsert.run()
            }
        }
    }

    private func committedItems(
        _ stream: UplinkStream,
        after key: Int64,
        limit: Int
    ) throws(StoreError) -> [UplinkItem] {
        let query = try connection.prepare(stream.outboxQuery)
        query.bind(1, key)
        query.bind(2, Int64(limit))
        var items: [UplinkItem] = []
        try query.forEachRow {
            items.append(Self.item(stream, from: query))
        }
        return items
    }

    /// One row of `stream.outboxQuery`.
    private static func item(_ stream: UplinkStream, from row: SQLiteStatement) -> UplinkItem {
        let key = row.int64(at: 0)
        let time = UTCTime(milliseconds: key)
        let trip = row.optionalInt64(at: 1).map { UTCTime(milliseconds: $0) }
        let coordinate = Coordinate(latitude: row.double(at: 2), longitude: row.double(at: 3))
        let event: TrackingEvent
        switch stream {
        case .route:
            let point = RoutePoint(
                time: time,
                coordinate: coordinate,
                altitude: row.optionalDouble(at: 4),
                speed: row.optionalDouble(at: 5),
                track: row.optionalDouble(at: 6),
                horizontalError: row.optionalDouble(at: 7)
            )
            return UplinkItem(
                stream: stream,
                key: key,
                event: .routePoint(tripStart: trip ?? time, point),
                startsTrip: row.int64(at: 8) != 0
            )
        case .zone:
            event = .zone(
                ZoneEvent(
                    time: time,
                    zoneID: row.int64(at: 4),
                    zoneName: row.text(at: 5) ?? "",
                    kind: row.text(at: 6).flatMap(ZoneEvent.Kind.init(rawValue:)) ?? .enter,
                    coordinate: coordinate,
                    tripStart: trip,
                    whileOff: row.int64(at: 7) != 0
                )
            )
        case .nearby:
            event = .nearby(
                NearbyAlert(
                    time: time,
                    poiID: row.int64(at: 4),
                    poiName: row.text(at: 5) ?? "",
                    category: row.text(at: 6),
                    coordinate: coordinate,
                    distance: row.double(at: 7),
                    tripStart: trip
                )
            )
        case .tripEnd:
            event = .tripEnded(
                TripSummary(
                    startTime: trip ?? time,
                    endTime: time,
                    start: Coordinate(latitude: row.double(at: 4), longitude: row.double(at: 5)),
                    end: coordinate,
                    distance: row.double(at: 6),
                    movingTime: row.double(at: 7),
                    maximumSpeed: row.double(at: 8),
                    pointCount: Int(row.int64(at: 9)),
                    endReason: row.text(at: 10).flatMap(TripEndReason.init(rawValue:))
                )
            )
        }
        return UplinkItem(stream: stream, key: key, event: event)
    }

    /// The buffer's items after `cursor`: what the engine concluded since the last commit.
    private func bufferedItems(after cursor: UplinkCursor, streams: Set<UplinkStream>) -> [UplinkItem] {
        var items: [UplinkItem] = []
        var startedTrips: Set<Int64> = []
        for event in bufferedEvents {
            let item: UplinkItem
            switch event {
            case .tripStarted(let trip):
                startedTrips.insert(trip.startTime.milliseconds)
                continue
            case .routePoint(let tripStart, let point):
                // The first point after its trip's start in the buffer is the trip's first: a
                // trip's start commits with the points that came with it.
                let first = startedTrips.remove(tripStart.milliseconds) != nil
                item = UplinkItem(stream: .route, key: point.time.milliseconds, event: event, startsTrip: first)
            case .zone(let zone):
                item = UplinkItem(stream: .zone, key: zone.time.milliseconds, event: event)
            case .nearby(let alert):
                item = UplinkItem(stream: .nearby, key: alert.time.milliseconds, event: event)
            case .tripEnded(let trip):
                item = UplinkItem(stream: .tripEnd, key: trip.endTime.milliseconds, event: event)
            case .fixRejected:
                continue
            }
            if streams.contains(item.stream), item.key > cursor[item.stream] { items.append(item) }
        }
        return items
    }
}

extension UplinkStream {
    /// The stream's key column.
    fileprivate var keyColumn: String { self == .tripEnd ? "end_ms" : "t_ms" }

    /// The stream's committed rows, as `FROM` and `WHERE` put them: `SELECT max(key) FROM …`, and
    /// `… AND key > ?1` for those after a cursor.
    fileprivate var committedRows: String {
        switch self {
        case .route: "route_points WHERE true"
        case .zone: "zone_events WHERE true"
        case .nearby: "alerts WHERE kind = 'nearby'"
        case .tripEnd: "trips WHERE end_reason IS NOT NULL"
        }
    }

    /// The committed items after `?1`, at most `?2`, oldest first: key, the trip's start, the
    /// position, then the stream's own columns (`TravelDatabase.item(_:from:)`).
    fileprivate var outboxQuery: String {
        switch self {
        case .route:
            // A trip's first point: the first point at or after its start (trips do not overlap).
            """
            SELECT r.t_ms, t.start_ms, r.lat, r.lon, r.alt, r.speed, r.track, r.err,
                r.t_ms = (SELECT MIN(p.t_ms) FROM route_points p WHERE p.t_ms >= t.start_ms)
            FROM route_points r LEFT JOIN trips t ON t.id = r.trip_id
            WHERE r.t_ms > ?1 ORDER BY r.t_ms LIMIT ?2
            """
        case .zone:
            """
            SELECT e.t_ms, t.start_ms, COALESCE(e.lat, 0), COALESCE(e.lon, 0), e.zone_id, z.name, e.kind, e.while_off
            FROM zone_events e LEFT JOIN zones z ON z.id = e.zone_id LEFT JOIN trips t ON t.id = e.trip_id
            WHERE e.t_ms > ?1 ORDER BY e.t_ms, e.id LIMIT ?2
            """
        case .nearby:
            """
            SELECT a.t_ms, t.start_ms, COALESCE(a.lat, 0), COALESCE(a.lon, 0), COALESCE(a.poi_id, 0),
                COALESCE(p.name, a.message), p.category, COALESCE(a.distance_m, 0)
            FROM alerts a LEFT JOIN pois p ON p.id = a.poi_id LEFT JOIN trips t ON t.id = a.trip_id
            WHERE a.kind = 'nearby' AND a.t_ms > ?1 ORDER BY a.t_ms, a.id LIMIT ?2
            """
        case .tripEnd:
            """
            SELECT end_ms, start_ms, end_lat, end_lon, start_lat, start_lon, COALESCE(distance_m, 0),
                COALESCE(moving_s, 0), COALESCE(max_speed, 0), COALESCE(point_count, 0), end_reason
            FROM trips WHERE end_reason IS NOT NULL AND end_ms > ?1 ORDER BY end_ms LIMIT ?2
            """
        }
    }
}
