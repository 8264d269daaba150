/// Groups trips into journeys: from leaving home to coming back.
///
/// With a home, a journey starts with a trip when none is open and ends with the first trip that
/// arrives home (within the place radius), or that arrives back in the home area after going
/// beyond it. So a morning of errands in town is one `local` journey, and a holiday ends when
/// the vehicle is back in its region even if it parks at the office first. A trip that starts at
/// home while a journey is open closes that journey first: the vehicle came back unrecorded.
/// So does a trip that starts beyond the place radius from where the last one ended (the vehicle
/// moved unrecorded, as `Stay.stoodHere` sees such a stop), or more than
/// `JourneyRules.maximumStop` after it: where the vehicle went in between is unknown, and a
/// journey across it would span the gap (two holidays a year apart made one of 668 days).
///
/// Without a home, each trip is a journey of its own: there is nothing to measure "leaving"
/// against, and the list says so. Such a journey is `multi-day` when it spans local days and
/// otherwise has no type: `local` and `day` both speak of the home area, which is not known yet.
package enum JourneyGrouping {
    /// The point a trip's route must be measured from, or `nil` when its ends already settle
    /// everything. The store scans routes only for these trips (both ends in the home area, where
    /// only the route shows whether it went beyond), so grouping years of history reads few routes.
    package static func routeReference(for trip: TripSummary, home: Coordinate?, rules: JourneyRules) -> Coordinate? {
        let reference = home ?? trip.start
        let endsInArea =
            Geodesy.fastDistance(reference, trip.start) <= rules.homeRadius
            && Geodesy.fastDistance(reference, trip.end) <= rules.homeRadius
        return endsInArea ? reference : nil
    }

    /// The journeys of `trips` (any order), oldest first.
    package static func group(_ trips: [JourneyTrip], home: Coordinate?, rules: JourneyRules) -> [Journey] {
        let sorted = trips.sorted { $0.summary.startTime < $1.summary.startTime }
        guard let home else {
            return sorted.map { trip in
                var builder = Builder(reference: trip.summary.start, rules: rules, knowsHome: false)
                builder.add(trip)
                return builder.journey(isOpen: trip.summary.endReason == nil)
            }
        }
        var journeys: [Journey] = []
        var open: Builder?
        for trip in sorted {
            if let builder = open, isHome(trip.summary.start, home, rules) || builder.isBroken(before: trip) {
                journeys.append(builder.journey(isOpen: false))
                open = nil
            }
            var builder = open ?? Builder(reference: home, rules: rules)
            builder.add(trip)
            let end = Geodesy.fastDistance(home, trip.summary.end)
            let cameBack = end <= rules.placeRadius || builder.leftArea && end <= rules.homeRadius
            if trip.summary.endReason != nil, cameBack {
                journeys.append(builder.journey(isOpen: false))
                open = nil
            } else {
                open = builder
            }
        }
        if let open { journeys.append(open.journey(isOpen: true)) }
        return journeys
    }

    private static func isHome(_ coordinate: Coordinate, _ home: Coordinate, _ rules: JourneyRules) -> Bool {
        Geodesy.fastDistance(home, coordinate) <= rules.placeRadius
    }

    /// A journey being put together, measured from `reference`: home, or, when `knowsHome` is
    /// false, its first trip's start (which picks a destination but cannot type it).
    struct Builder {
        let reference: Coordinate
        let rules: JourneyRules
        let knowsHome: Bool
        var tripIDs: [Int64] = []
        var start = UTCTime(milliseconds: 0)
        var end = UTCTime(milliseconds: 0)
        var distance = 0.0
        var leftArea = false
        var farthestStop: (coordinate: Coordinate, distance: Double)?
        /// Where and when the last trip added ended.
        var lastEnd: (coordinate: Coordinate, time: UTCTime)?

        init(reference: Coordinate, rules: JourneyRules, knowsHome: Bool = true) {
            self.reference = reference
            self.rules = rules
            self.knowsHome = knowsHome
        }

        mutating func add(_ trip: JourneyTrip) {
            let summary = trip.summary
            if tripIDs.isEmpty { start = summary.startTime }
            tripIDs.append(trip.id)
            end = max(end, summary.endTime)
            distance += summary.distance
            lastEnd = (summary.end, summary.endTime)
            let stop = Geodesy.fastDistance(reference, summary.end)
            // An ongoing trip's end is its latest point, not a stop: the destination is where
            // the vehicle parked, as its trips name it, never a point it drove through.
            if summary.endReason != nil, stop > farthestStop?.distance ?? -1 { farthestStop = (summary.end, stop) }
            var reach = max(stop, Geodesy.fastDistance(reference, summary.start))
            if let point = trip.farthestPoint { reach = max(reach, Geodesy.fastDistance(reference, point)) }
            if reach > rules.homeRadius { leftArea = true }
        }

        /// Whether `trip` cannot continue this journey: it starts beyond the place radius from
        /// where the last trip ended (the vehicle moved unrecorded), or more than
        /// `JourneyRules.maximumStop` after it.
        func isBroken(before trip: JourneyTrip) -> Bool {
            guard let lastEnd else { return false }
            return Geodesy.fastDistance(lastEnd.coordinate, trip.summary.start) > rules.placeRadius
                || trip.summary.startTime.seconds(since: lastEnd.time) > rules.maximumStop
        }

        func journey(isOpen: Bool) -> Journey {
            let zone = rules.timeZone
            let type: JourneyType? =
                zone.localDay(of: start) != zone.localDay(of: end)
                ? .multiDay
                : !knowsHome ? nil : leftArea ? .day : .local
            return Journey(
                tripIDs: tripIDs,
                start: start,
                end: end,
                isOpen: isOpen,
                type: type,
                destination: farthestStop?.coordinate,
                distance: distance
            )
        }
    }
}
