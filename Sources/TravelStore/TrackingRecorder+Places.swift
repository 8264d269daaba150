package import TravelCore

extension TrackingRecorder {
    /// Loads the stored zones and POIs into the engine's watchers, and them with the named places
    /// into the labeler of trip ends. Resuming (the daemon), the
    /// zones start from their saved state and the time of the last fix, so an exit that happened
    /// while the power was off is reported at the first fix; cooldowns continue from the alerts
    /// stored. Otherwise (an import) every zone starts unknown. `pois`: the stored POIs indexed
    /// already (they are read when `nil`).
    func watchPlaces(resuming: Bool, pois: POIIndex? = nil) throws(StoreError) {
        let rules = engine.configuration
        let records = try database.zoneRecords()
        var known: [Int64: Bool] = [:]
        var since: [Int64: UTCTime] = [:]
        if resuming {
            for record in records {
                known[record.zone.id] = record.inside
                since[record.zone.id] = record.since
            }
        }
        let last = resuming ? engine.lastAcceptedFix : nil
        let index: POIIndex
        if let pois { index = pois } else { index = try database.poiIndex() }
        // A dwell pending at a crash is rebuilt from the route points of the last minute or so,
        // and so is a nearby alert waiting for its closest approach (which is never longer ago
        // than `NearbyWatcher.longestWait`).
        let zoneWindow = rules.zones.dwell + rules.zones.settleTime
        var recent: [RoutePoint] = []
        if let last, !records.isEmpty || index.count > 0 {
            recent = try database.routePoints(
                after: last.time.adding(seconds: -max(zoneWindow, NearbyWatcher.longestWait))
            )
        }
        let zoneStart = last.map { $0.time.adding(seconds: -zoneWindow) }
        let zonePoints = records.isEmpty ? [] : recent.filter { point in zoneStart.map { point.time > $0 } ?? true }
        let start = zonePoints.first.map { ($0.time, $0.coordinate) } ?? last
        var zones = ZoneWatcher(
            zones: records.map(\.zone),
            rules: rules.zones,
            known: known,
            knownSince: since,
            lastFix: start
        )
        for point in zonePoints.dropFirst() {
            zones.observe(point.coordinate, at: point.time, error: point.horizontalError) { database.record(.zone($0)) }
        }
        engine.zones = zones
        var alerts: [Int64: UTCTime] = [:]
        if resuming, let time = last?.time {
            alerts = try database.lastAlerts(since: time.adding(seconds: -rules.nearby.cooldown))
        }
        var nearby = NearbyWatcher(index: index, rules: rules.nearby, recentAlerts: alerts)
        let tripStart = engine.currentTrip?.startTime
        for point in recent {
            nearby.observe(point.coordinate, at: point.time, tripStart: tripStart) { database.record(.nearby($0)) }
        }
        engine.nearby = nearby
        database.placeLabeler = PlaceLabeler(
            zones: records.map(\.zone),
            namedPlaces: try database.namedPlaces(),
            pois: index,
            gazetteer: TravelDatabase.gazetteer
        )
    }
}

extension TrackingRecorder {
    /// Reads the zones and POIs again (SIGHUP, a zone added while running), after committing
    /// what is buffered so each zone resumes from its current inside/outside state; the watchers
    /// then follow the engine's current rules. `pois`: the stored POIs, indexed by the caller
    /// (a million take seconds to read and index: the daemon does it off its pipeline); `nil`
    /// reads them here. Returns how many zones and POIs are watched.
    package func reloadPlaces(pois: POIIndex? = nil) throws(StoreError) -> (zones: Int, pois: Int) {
        try flush()
        try watchPlaces(resuming: true, pois: pois)
        return (engine.zones.zones.count, engine.nearby.index.count)
    }
}

extension TravelDatabase {
    /// The stored POIs, indexed for the nearby watcher and place labels.
    package func poiIndex() throws(StoreError) -> POIIndex {
        POIIndex(try poiRecords().map(\.poi))
    }
}

/// The error `body` threw, or `nil`.
func catchError(_ body: () throws(StoreError) -> Void) -> StoreError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
