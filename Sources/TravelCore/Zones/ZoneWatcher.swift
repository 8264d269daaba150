/// Enter/exit detection for a set of zones: fixes in, `ZoneEvent`s out (docs/zones.md).
///
/// Per zone the state is inside, outside or not yet known. A fix changes nothing while it is
/// within its threshold of a border (the band); a change needs fixes clearly on the other side
/// for `dwell` seconds, or a crossing: the vehicle came out clearly on the side it went in from,
/// `transitDistance` away from where it went in (a small zone driven through, or two sparse fixes
/// either side of it). Zones not known yet are set silently, never with an event.
package struct ZoneWatcher: Sendable {
    package let rules: ZoneRules
    /// The zones watched, by ascending id (events for one fix come in this order).
    package let zones: [Zone]
    private let geometries: [ZoneGeometry]
    private let grid: ZoneGrid
    private let indexByID: [Int64: Int]
    private var inside: Set<Int64> = []
    private var unknown: Set<Int64> = []
    private var candidates: [Int64: Candidate] = [:]
    /// Zones not known yet: the side the fixes have been clearly on, since when.
    private var settling: [Int64: (inside: Bool, since: UTCTime)] = [:]
    private var last: (time: UTCTime, coordinate: Coordinate)?
    /// Whether the first fix comes after an unknown gap (state restored, time of the last fix lost).
    private var resumedWithoutTime: Bool
    private var presenceChanges: [ZonePresence] = []
    private let knownSince: [Int64: UTCTime]

    /// The first fix clearly on the other side of a zone's border, waiting for the dwell.
    private struct Candidate: Sendable {
        var time: UTCTime
        var coordinate: Coordinate
        /// The fix before it, unless a gap separates them: where the vehicle went in from.
        var before: Coordinate?
        var whileOff: Bool
    }

    /// - Parameters:
    ///   - known: the saved state of zones (`true` inside); zones missing from it are not known
    ///     yet, and the first clear fix sets them without an event.
    ///   - knownSince: when each known state began; fixes older than that are not tested against
    ///     the zone (a restarted daemon replays its last route points to recover pending dwells).
    ///   - lastFix: the last fix seen before a restart, to tell a power gap.
    package init(
        zones: [Zone],
        rules: ZoneRules = .init(),
        known: [Int64: Bool] = [:],
        knownSince: [Int64: UTCTime] = [:],
        lastFix: (time: UTCTime, coordinate: Coordinate)? = nil
    ) {
        self.knownSince = knownSince
        self.rules = rules
        self.zones = zones.sorted { $0.id < $1.id }
        geometries = self.zones.map { ZoneGeometry($0.shape) }
        grid = ZoneGrid(geometries)
        indexByID = Dictionary(uniqueKeysWithValues: self.zones.enumerated().map { ($1.id, $0) })
        for zone in self.zones {
            switch known[zone.id] {
            case true?: inside.insert(zone.id)
            case false?: break
            case nil: unknown.insert(zone.id)
            }
        }
        last = lastFix
        resumedWithoutTime = lastFix == nil && !known.isEmpty
    }

    /// Whether the vehicle is inside the zone, or `nil` while that is not known.
    package func isInside(zoneID: Int64) -> Bool? {
        unknown.contains(zoneID) || indexByID[zoneID] == nil ? nil : inside.contains(zoneID)
    }

    /// States set or changed since the last call, for the store.
    package mutating func takePresenceChanges() -> [ZonePresence] {
        defer { presenceChanges.removeAll() }
        return presenceChanges
    }

    /// Tests one accepted fix against the zones near it and those with a state to watch.
    package mutating func observe(
        _ coordinate: Coordinate,
        at time: UTCTime,
        error: Double? = nil,
        hdop: Double? = nil,
        moving: Bool = true,
        tripStart: UTCTime? = nil,
        emit: (ZoneEvent) -> Void
    ) {
        let threshold = rules.threshold(error: error, hdop: hdop)
        let afterGap = last.map { time.seconds(since: $0.time) > rules.powerGap } ?? resumedWithoutTime
        resumedWithoutTime = false
        if afterGap {
            candidates.removeAll()
            settling.removeAll()
        }
        let previous = afterGap ? nil : last.map(\.coordinate)
        let context = FixContext(
            time: time,
            coordinate: coordinate,
            threshold: threshold,
            previous: previous,
            previousTime: last?.time,
            // Only a change already there at the first fix after the gap happened while off.
            whileOff: afterGap,
            moving: moving,
            tripStart: tripStart
        )
        for index in zonesToTest(context) {
            test(index, context, emit: emit)
        }
        last = (time, coordinate)
    }

    private struct FixContext {
        var time: UTCTime
        var coordinate: Coordinate
        var threshold: Double
        var previous: Coordinate?
        var previousTime: UTCTime?
        var whileOff: Bool
        /// Whether the trip detector has the vehicle on the move: only then can it cross a zone
        /// faster than the dwell (a parked receiver's cold start can wander 170 m and back).
        var moving: Bool
        var tripStart: UTCTime?
    }

    /// Zones whose box holds the fix (or the segment from the previous fix, when it is long enough
    /// to have crossed one), and zones inside, unknown or waiting on a dwell; by ascending id.
    private func zonesToTest(_ c: FixContext) -> [Int] {
        var south = c.coordinate.latitude
        var north = south
        var west = c.coordinate.longitude
        var east = west
        if let previous = c.previous, isLongSegment(from: previous, to: c.coordinate) {
            (south, north) = (min(south, previous.latitude), max(north, previous.latitude))
            (west, east) = (min(west, previous.longitude), max(east, previous.longitude))
        }
        var found = Set(
            grid.candidates(south: south, west: west, north: north, east: east)
                ?? grid.candidates(
                    south: c.coordinate.latitude,
                    west: c.coordinate.longitude,
                    north: c.coordinate.latitude,
                    east: c.coordinate.longitude
                ) ?? []
        )
        for id in inside.union(unknown).union(candidates.keys) {
            if let index = indexByID[id] { found.insert(index) }
        }
        return found.sorted()
    }

    private func isLongSegment(from a: Coordinate, to b: Coordinate) -> Bool {
        LocalFrame(at: a).distance(to: b) >= rules.transitDistance
    }

    private mutating func test(_ index: Int, _ c: FixContext, emit: (ZoneEvent) -> Void) {
        let zone = zones[index]
        if let since = knownSince[zone.id], c.time < since { return }
        let signed = geometries[index].signedDistance(to: c.coordinate)
        if unknown.contains(zone.id) {
            guard abs(signed) > c.threshold else { return }
            // Set once the fixes have stayed clearly on one side for the settle time: a receiver's
            // first fixes after power-on can be tens of metres off.
            guard let first = settling[zone.id], first.inside == (signed < 0) else {
                settling[zone.id] = (signed < 0, c.time)
                return
            }
            guard c.time.seconds(since: first.since) >= rules.settleTime else { return }
            unknown.remove(zone.id)
            settling[zone.id] = nil
            if first.inside { inside.insert(zone.id) }
            presenceChanges.append(ZonePresence(zoneID: zone.id, inside: first.inside, since: first.since))
            return
        }
        let isInside = inside.contains(zone.id)
        // Positive: clearly on the other side by that much more than the threshold.
        let towardsOther = isInside ? signed : -signed
        if towardsOther > c.threshold {
            if let candidate = candidates[zone.id] {
                if c.time.seconds(since: candidate.time) >= (candidate.whileOff ? rules.settleTime : rules.dwell) {
                    change(zone, to: !isInside, at: candidate, tripStart: c.tripStart, emit: emit)
                }
            } else {
                let candidate = Candidate(
                    time: c.time,
                    coordinate: c.coordinate,
                    before: c.previous,
                    whileOff: c.whileOff
                )
                candidates[zone.id] = candidate
                if rules.dwell <= 0 { change(zone, to: !isInside, at: candidate, tripStart: c.tripStart, emit: emit) }
            }
        } else if -towardsOther > c.threshold {
            if let candidate = candidates.removeValue(forKey: zone.id) {
                // Out again on the side it came from: a crossing if it came out away from where it
                // went in; drift straddling the border comes back where it was.
                if c.moving, let before = candidate.before, !candidate.whileOff,
                    isLongSegment(from: before, to: c.coordinate)
                {
                    crossed(zone, isInside: isInside, in: (candidate.time, candidate.coordinate), out: c, emit: emit)
                }
            } else if c.moving, let previous = c.previous, let previousTime = c.previousTime,
                isLongSegment(from: previous, to: c.coordinate)
            {
                crossedBetweenFixes(index, isInside: isInside, from: (previousTime, previous), to: c, emit: emit)
            }
        }
    }

    private mutating func change(
        _ zone: Zone,
        to nowInside: Bool,
        at candidate: Candidate,
        tripStart: UTCTime?,
        emit: (ZoneEvent) -> Void
    ) {
        candidates[zone.id] = nil
        if nowInside { inside.insert(zone.id) } else { inside.remove(zone.id) }
        presenceChanges.append(ZonePresence(zoneID: zone.id, inside: nowInside, since: candidate.time))
        emit(
            ZoneEvent(
                time: candidate.time,
                zoneID: zone.id,
                zoneName: zone.name,
                kind: nowInside ? .enter : .exit,
                coordinate: candidate.coordinate,
                tripStart: tripStart,
                whileOff: candidate.whileOff
            )
        )
    }

    /// Two events for a zone crossed without a dwell: in (the other side) and out again.
    private func crossed(
        _ zone: Zone,
        isInside: Bool,
        in entry: (time: UTCTime, coordinate: Coordinate),
        out c: FixContext,
        emit: (ZoneEvent) -> Void
    ) {
        let (first, second): (ZoneEvent.Kind, ZoneEvent.Kind) = isInside ? (.exit, .enter) : (.enter, .exit)
        emit(
            ZoneEvent(
                time: entry.time,
                zoneID: zone.id,
                zoneName: zone.name,
                kind: first,
                coordinate: entry.coordinate,
                tripStart: c.tripStart
            )
        )
        emit(
            ZoneEvent(
                time: c.time,
                zoneID: zone.id,
                zoneName: zone.name,
                kind: second,
                coordinate: c.coordinate,
                tripStart: c.tripStart
            )
        )
    }

    /// Looks along the straight segment between two fixes, both clearly on the zone's current
    /// side, for a stretch clearly on the other side: a small zone passed between sparse fixes.
    private func crossedBetweenFixes(
        _ index: Int,
        isInside: Bool,
        from start: (time: UTCTime, coordinate: Coordinate),
        to c: FixContext,
        emit: (ZoneEvent) -> Void
    ) {
        let geometry = geometries[index]
        let a = geometry.frame.project(start.coordinate)
        let b = geometry.frame.project(c.coordinate)
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let steps = min(max(Int(length / (c.threshold / 2)), 2), 400)
        var firstOther: Double?
        var lastOther = 0.0
        for step in 1..<steps {
            let t = Double(step) / Double(steps)
            let signed = geometry.signedDistance(to: PlanarPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)))
            if (isInside ? signed : -signed) > c.threshold {
                firstOther = firstOther ?? t
                lastOther = t
            }
        }
        guard let firstOther else { return }
        let duration = c.time.seconds(since: start.time)
        func point(_ t: Double) -> (UTCTime, Coordinate) {
            (
                start.time.adding(seconds: duration * t),
                geometry.frame.unproject(PlanarPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)))
            )
        }
        let (inTime, inPlace) = point(firstOther)
        let (outTime, outPlace) = point(lastOther)
        let zone = zones[index]
        let (first, second): (ZoneEvent.Kind, ZoneEvent.Kind) = isInside ? (.exit, .enter) : (.enter, .exit)
        emit(
            ZoneEvent(
                time: inTime,
                zoneID: zone.id,
                zoneName: zone.name,
                kind: first,
                coordinate: inPlace,
                tripStart: c.tripStart
            )
        )
        emit(
            ZoneEvent(
                time: outTime,
                zoneID: zone.id,
                zoneName: zone.name,
                kind: second,
                coordinate: outPlace,
                tripStart: c.tripStart
            )
        )
    }
}
