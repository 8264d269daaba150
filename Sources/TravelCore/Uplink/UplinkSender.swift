/// Which route points an uplink leaves out, and how often it speaks while parked.
package struct UplinkThinning: Sendable, Hashable {
    /// Seconds: a route point closer in time than this to the last position sent is left out.
    package var minimumInterval: Double
    /// Metres: a route point closer than this to the last position sent is left out.
    package var minimumDistance: Double
    /// Seconds without a message after which a parked vehicle sends its position again; 0: never.
    package var heartbeat: Double

    package init(minimumInterval: Double = 0, minimumDistance: Double = 0, heartbeat: Double = 0) {
        self.minimumInterval = minimumInterval
        self.minimumDistance = minimumDistance
        self.heartbeat = heartbeat
    }
}

/// What an uplink has done since it started, for `travelctl status` and the journal.
package struct UplinkCounters: Sendable, Hashable {
    /// Messages handed to the transport, resends and heartbeats included.
    package var sent = 0
    /// Messages the server acknowledged.
    package var delivered = 0
    /// Route points left out by thinning.
    package var thinned = 0
    /// Items older than the backlog's maximum age, skipped.
    package var expired = 0
    /// Sends that failed and wait to be resent.
    package var failed = 0
    /// Sends the server refused, waiting to be resent after a longer pause.
    package var refused = 0

    package init() {}
}

/// The uplink's bookkeeping, as a value the uplink service drives: which outbox items to send
/// now, which are in flight under which tag, what to resend, and how far the durable cursor may
/// go. Pure: no I/O, no clock; time comes in as GPS time.
///
/// The service loops: read the items after `readPosition` (at most `room`, whole key groups),
/// hand them to `take`, send what it returns, report each tag's outcome (`delivered`, `failed`,
/// `refused`), save `cursor` when it moves, call `retry` after a backoff once something failed.
///
/// Guarantees:
/// - Nothing is lost: the cursor passes a key only once every item of its stream up to that key
///   was delivered or skipped (thinned, expired), however the acknowledgements are ordered.
/// - Duplicates are bounded: a sender made from a saved cursor resends the items after it, which
///   are at most those in flight or waiting when it was saved (the window), plus those delivered
///   after it out of order.
/// - Order: each stream's items are handed out in key order, and resent in that order.
package struct UplinkSender: Sendable {
    /// The most items in flight or waiting to be resent.
    package let window: Int
    package let thinning: UplinkThinning
    /// Seconds: items older than this before the newest known time are skipped.
    package let maximumBacklogAge: Double

    /// The durable position: per stream, every item with a key up to it was delivered or skipped.
    package private(set) var cursor: UplinkCursor
    /// Per stream, the key of the last item handed to `take`: read next the items after it.
    package private(set) var readPosition: UplinkCursor
    package private(set) var counters = UplinkCounters()
    /// The stream and key of the item the server acknowledged last; the key is the item's time.
    package private(set) var lastDelivered: (stream: UplinkStream, key: Int64)?

    /// An item taken and not yet done with, in its stream's order.
    private struct Entry: Sendable {
        var key: Int64
        /// The order items were taken in, across streams: resends keep it.
        var sequence: Int
        var done: Bool
    }

    /// Per stream, the items taken whose key the cursor has not passed, in key order.
    private var entries: [UplinkStream: [Entry]] = [:]
    /// Items handed out, by tag, until their outcome.
    private var inFlightItems: [UInt64: (sequence: Int, item: UplinkItem)] = [:]
    /// Items whose send failed or was refused, to hand out again on `retry`.
    private var waiting: [(sequence: Int, item: UplinkItem)] = []
    /// Tags of heartbeats: nothing in the outbox depends on them.
    private var heartbeatTags: Set<UInt64> = []
    private var nextTag: UInt64 = 1
    private var nextSequence = 0
    /// The last position sent (a route point or a trip's arrival), for thinning.
    private var lastPosition: (time: UTCTime, coordinate: Coordinate)?
    /// GPS time of the last message handed out, for heartbeats.
    private var lastSentAt: UTCTime?

    /// A sender resuming from `cursor` (an empty cursor for a new uplink). `window` is at least 1.
    package init(window: Int, thinning: UplinkThinning, maximumBacklogAge: Double, cursor: UplinkCursor) {
        self.window = max(1, window)
        self.thinning = thinning
        self.maximumBacklogAge = maximumBacklogAge
        self.cursor = cursor
        self.readPosition = cursor
    }

    /// Items handed out and not yet acknowledged, refused or failed.
    package var inFlight: Int { inFlightItems.count }

    /// Items waiting for `retry`.
    package var waitingForRetry: Int { waiting.count }

    /// How many more items may be read: the window less what is in flight or waiting. A key group
    /// is read whole, so a group larger than the room may exceed the window by its size.
    package var room: Int { max(0, window - inFlightItems.count - waiting.count) }

    /// Takes `items` as read from the outbox (each stream in key order, the streams merged by
    /// key; whole key groups) and returns those to send now, each with a fresh tag. Items
    /// already taken (a key not after `readPosition`) are ignored. Skipped, counted, and done with
    /// at once: items older than `newest − maximumBacklogAge`, and route points closer than the
    /// thinning's interval or distance to the last position sent, except a trip's first point
    /// and the last point of a trip whose end (or next trip) is in the same batch. Events no
    /// uplink carries (a trip's start, a rejected fix) are done with at once, uncounted.
    /// `newest` is the GPS time now (`nil` before the first fix: nothing expires).
    package mutating func take(_ items: [UplinkItem], newest: UTCTime?) -> [(tag: UInt64, item: UplinkItem)] {
        var kept: [UplinkItem] = []
        var last = readPosition
        for item in items where item.key > readPosition[item.stream] && item.key >= last[item.stream] {
            last[item.stream] = item.key
            kept.append(item)
        }
        let protected = Self.lastPointsOfTrips(in: kept)
        let oldest = newest.map { $0.milliseconds - Int64((maximumBacklogAge * 1000).rounded()) }
        var toSend: [(tag: UInt64, item: UplinkItem)] = []
        var touched: Set<UplinkStream> = []
        for (index, item) in kept.enumerated() {
            readPosition[item.stream] = item.key
            touched.insert(item.stream)
            let sequence = nextSequence
            nextSequence += 1
            var skip = false
            if !Self.isCarried(item.event) {
                skip = true
            } else if let oldest, item.key < oldest {
                counters.expired += 1
                skip = true
            } else if case .routePoint(_, let point) = item.event, !item.startsTrip, !protected.contains(index),
                isThinned(point)
            {
                counters.thinned += 1
                skip = true
            }
            entries[item.stream, default: []].append(Entry(key: item.key, sequence: sequence, done: skip))
            if skip { continue }
            notePosition(of: item)
            toSend.append((hand(item, sequence: sequence), item))
        }
        if let last = toSend.last {
            let sentAt = newest ?? UTCTime(milliseconds: last.item.key)
            lastSentAt = max(lastSentAt ?? sentAt, sentAt)
        }
        for stream in touched { advance(stream) }
        return toSend
    }

    /// The server acknowledged `tag`'s item; returns whether the cursor moved (save it then).
    /// An unknown or finished tag changes nothing.
    @discardableResult
    package mutating func delivered(tag: UInt64) -> Bool {
        if heartbeatTags.remove(tag) != nil {
            counters.delivered += 1
            return false
        }
        guard let (sequence, item) = inFlightItems.removeValue(forKey: tag) else { return false }
        counters.delivered += 1
        lastDelivered = (item.stream, item.key)
        guard let index = entries[item.stream]?.firstIndex(where: { $0.sequence == sequence }) else { return false }
        entries[item.stream]?[index].done = true
        let before = cursor[item.stream]
        advance(item.stream)
        return cursor[item.stream] != before
    }

    /// `tag`'s item was not delivered and may be sent again: it waits for `retry`. A heartbeat
    /// is not resent (the next one says more).
    package mutating func failed(tag: UInt64) {
        if requeue(tag) { counters.failed += 1 }
    }

    /// The server refused `tag`'s item: it waits for `retry` like a failed one, and the service
    /// pauses longer before calling it.
    package mutating func refused(tag: UInt64) {
        if requeue(tag) { counters.refused += 1 }
    }

    /// The items that failed or were refused, in the order they were first taken, each with a
    /// fresh tag, to send again now.
    package mutating func retry() -> [(tag: UInt64, item: UplinkItem)] {
        let again = waiting.sorted { $0.sequence < $1.sequence }
        waiting.removeAll()
        return again.map { (hand($0.item, sequence: $0.sequence), $0.item) }
    }

    /// Whether a parked vehicle should send its position again: a heartbeat is configured, nothing
    /// waits to be resent, and nothing was sent for `thinning.heartbeat` seconds before `now` (or
    /// nothing at all since the start).
    package func heartbeatDue(now: UTCTime, parked: Bool) -> Bool {
        guard parked, thinning.heartbeat > 0, waiting.isEmpty else { return false }
        guard let lastSentAt else { return true }
        return now.seconds(since: lastSentAt) >= thinning.heartbeat
    }

    /// Records a heartbeat handed out at `now` and returns its tag; its outcome is counted and
    /// moves no cursor.
    package mutating func heartbeatSent(now: UTCTime) -> UInt64 {
        let tag = nextTag
        nextTag += 1
        heartbeatTags.insert(tag)
        counters.sent += 1
        lastSentAt = max(lastSentAt ?? now, now)
        return tag
    }

    private mutating func hand(_ item: UplinkItem, sequence: Int) -> UInt64 {
        let tag = nextTag
        nextTag += 1
        inFlightItems[tag] = (sequence, item)
        counters.sent += 1
        return tag
    }

    /// Moves `tag`'s item to the retry queue; `false` for a heartbeat or an unknown tag.
    private mutating func requeue(_ tag: UInt64) -> Bool {
        if heartbeatTags.remove(tag) != nil { return true }
        guard let pending = inFlightItems.removeValue(forKey: tag) else { return false }
        waiting.append(pending)
        return true
    }

    /// Whether `point` is too close in time or space to the last position sent.
    private func isThinned(_ point: RoutePoint) -> Bool {
        guard let lastPosition else { return false }
        if thinning.minimumInterval > 0, point.time.seconds(since: lastPosition.time) < thinning.minimumInterval {
            return true
        }
        return thinning.minimumDistance > 0
            && Geodesy.distance(point.coordinate, lastPosition.coordinate) < thinning.minimumDistance
    }

    /// Remembers the position a route point or a trip's arrival puts on the map.
    private mutating func notePosition(of item: UplinkItem) {
        switch item.event {
        case .routePoint(_, let point): lastPosition = (point.time, point.coordinate)
        case .tripEnded(let trip): lastPosition = (trip.endTime, trip.end)
        default: break
        }
    }

    /// Moves the cursor of `stream` past the done items at the front of its entries, but not
    /// into a key shared with an item still open; past everything read when nothing is open.
    private mutating func advance(_ stream: UplinkStream) {
        guard var list = entries[stream] else { return }
        let doneCount = list.prefix { $0.done }.count
        let passed: Int64?
        if doneCount == list.count {
            passed = readPosition[stream]
        } else {
            let open = list[doneCount].key
            passed = list[..<doneCount].last { $0.key < open }?.key
        }
        list.removeFirst(doneCount)
        entries[stream] = list.isEmpty ? nil : list
        if let passed, passed > cursor[stream] { cursor[stream] = passed }
    }

    /// Whether an uplink sends `event`: route points, trips' ends, zone events and POI alerts.
    private static func isCarried(_ event: TrackingEvent) -> Bool {
        switch event {
        case .routePoint, .tripEnded, .zone, .nearby: true
        case .fixRejected, .tripStarted: false
        }
    }

    /// Indices in `items` of route points never thinned: the last point of a trip whose end is
    /// among `items` (at or before the end), and a point followed in the route by one of
    /// another trip.
    private static func lastPointsOfTrips(in items: [UplinkItem]) -> Set<Int> {
        var protected: Set<Int> = []
        var previous: (index: Int, tripStart: UTCTime)?
        var lastOfTrip: [UTCTime: [(index: Int, time: UTCTime)]] = [:]
        var ends: [TripSummary] = []
        for (index, item) in items.enumerated() {
            switch item.event {
            case .routePoint(let tripStart, let point):
                if let previous, previous.tripStart != tripStart { protected.insert(previous.index) }
                previous = (index, tripStart)
                lastOfTrip[tripStart, default: []].append((index, point.time))
            case .tripEnded(let trip): ends.append(trip)
            default: break
            }
        }
        for trip in ends {
            if let last = lastOfTrip[trip.startTime]?.last(where: { $0.time <= trip.endTime }) {
                protected.insert(last.index)
            }
        }
        return protected
    }
}
