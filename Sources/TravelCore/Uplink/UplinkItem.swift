/// The streams an uplink's outbox is read in. Each is in time order on its own, as the engine
/// emits it; across streams it is not (a zone event is back-dated over its dwell, a trip's end
/// to the arrival, minutes after points later than it were sent), so each has its own cursor.
package enum UplinkStream: String, CaseIterable, Sendable, Hashable {
    /// Route points (`route_points.t_ms`).
    case route
    /// Zone enter and exit events (`zone_events.t_ms`).
    case zone
    /// POI alerts (`alerts.t_ms`).
    case nearby
    /// Trips' ends (`trips.end_ms` of ended trips).
    case tripEnd = "trip-end"
}

/// Where an uplink stands: for each stream, the key of the last item it may forget, because
/// the server acknowledged it (or thinning skipped it) and every item before it. A restart
/// resends from here, so duplicates are bounded by what was sent after the last saved cursor.
package struct UplinkCursor: Sendable, Hashable {
    /// Keys by stream, milliseconds; a stream absent has sent nothing yet.
    package var keys: [UplinkStream: Int64] = [:]

    package init(keys: [UplinkStream: Int64] = [:]) { self.keys = keys }

    /// The key of the last item done with in `stream`, or `Int64.min` when none is.
    package subscript(stream: UplinkStream) -> Int64 {
        get { keys[stream] ?? Int64.min }
        set { keys[stream] = newValue }
    }
}

/// One thing an uplink may send, read from the history: committed rows, or what the daemon
/// holds in memory (and in the spool) until its next commit, in the same shape either way.
package struct UplinkItem: Sendable, Hashable {
    package var stream: UplinkStream
    /// The item's place in its stream, milliseconds since the epoch: a route point's, zone
    /// event's or alert's time, a trip's back-dated end. Several items may share a key; a
    /// cursor passes a key only once all of them are done.
    package var key: Int64
    /// `.routePoint`, `.zone`, `.nearby` or `.tripEnded`.
    package var event: TrackingEvent
    /// For a route point: the first of its trip (OwnTracks `t: "v"`, Traccar `motion=true`).
    package var startsTrip: Bool

    package init(stream: UplinkStream, key: Int64, event: TrackingEvent, startsTrip: Bool = false) {
        self.stream = stream
        self.key = key
        self.event = event
        self.startsTrip = startsTrip
    }
}
