package import TravelCore
package import TravelStore

/// What the uplinks read of the pipeline: their outbox is the history its database holds,
/// committed or still buffered, so a point is sent as soon as the engine accepts it and a restart
/// resends from the last cursor a flush kept.
extension TrackingPipeline {
    /// The items after `cursor` in `streams`, about `limit` of them, oldest first.
    package func uplinkItems(
        after cursor: UplinkCursor,
        streams: Set<UplinkStream>,
        limit: Int
    ) throws(StoreError) -> [UplinkItem] {
        try recorder.database.uplinkItems(after: cursor, streams: streams, limit: limit)
    }

    /// How many items wait after `cursor` in `streams`.
    package func uplinkBacklog(after cursor: UplinkCursor, streams: Set<UplinkStream>) throws(StoreError) -> Int {
        try recorder.database.uplinkBacklog(after: cursor, streams: streams)
    }

    /// Where the uplink `name` stood when the daemon last flushed.
    package func uplinkCursor(_ name: String) throws(StoreError) -> UplinkCursor {
        try recorder.database.uplinkCursor(name)
    }

    /// Notes that the uplink `name` is done with everything up to `cursor`: the next flush keeps
    /// it, or, `promptly`, a spool append now (64 bytes; nothing when the buffer waits for a
    /// commit), so a daemon killed while draining a backlog resends about a window, not what a
    /// flush interval delivered.
    package func uplinkMoved(_ name: String, to cursor: UplinkCursor, promptly: Bool = false) {
        let database = recorder.database
        database.setUplinkCursor(cursor, for: name)
        guard promptly, database.canSpool else { return }
        do {
            try database.spoolRoute()
        } catch {
            // The next flush retries it, and says why if it fails too.
        }
    }

    /// Yields after each accepted fix, until the pipeline is gone.
    package func uplinkNews() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        uplinkListeners.append(continuation)
        return stream
    }

    /// What a parked heartbeat says: the last accepted position, whether the vehicle is parked
    /// (no trip in progress), and the newest GPS time the engine accepted.
    package func uplinkPresent() -> (position: RoutePoint?, parked: Bool, newest: UTCTime?) {
        let engine = recorder.engine
        let position = lastFix.flatMap { fix -> RoutePoint? in
            guard let time = fix.time, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
            return RoutePoint(
                time: time,
                coordinate: Coordinate(latitude: latitude, longitude: longitude),
                altitude: fix.altitudeMSL,
                speed: fix.speed,
                track: fix.track,
                horizontalError: fix.horizontalError
            )
        }
        return (position, engine.currentTrip == nil, engine.lastAcceptedTime)
    }
}
