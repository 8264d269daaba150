extension JourneyGrouping {
    /// The journeys of `trips` when the user declared some: each trip that starts inside a
    /// declared window joins that journey (the first window in `declared` that holds it wins, so
    /// callers list journeys started by hand before plans); the other trips are grouped
    /// automatically, in runs between declared trips. A run interrupted by a declared journey
    /// ends there: the vehicle did not come home in between, but the user said a new journey began.
    ///
    /// A journey started by hand is always in the result, spanning its own window even before it
    /// has trips; a plan only once a trip falls inside its dates. Types are measured from the
    /// trips as for any journey, so a plan's declared type can be compared with what happened.
    package static func group(
        _ trips: [JourneyTrip],
        home: Coordinate?,
        rules: JourneyRules,
        declared: [DeclaredJourney]
    ) -> [Journey] {
        guard !declared.isEmpty else { return group(trips, home: home, rules: rules) }
        let sorted = trips.sorted { $0.summary.startTime < $1.summary.startTime }
        var journeys: [Journey] = []
        var run: [JourneyTrip] = []
        var members = Array(repeating: [JourneyTrip](), count: declared.count)
        func closeRun() {
            journeys += group(run, home: home, rules: rules).map { journey in
                var closed = journey
                closed.isOpen = false
                return closed
            }
            run.removeAll()
        }
        for trip in sorted {
            if let owner = declared.firstIndex(where: { $0.contains(trip.summary.startTime) }) {
                if !run.isEmpty { closeRun() }
                members[owner].append(trip)
            } else {
                run.append(trip)
            }
        }
        journeys += group(run, home: home, rules: rules)
        for (index, declaration) in declared.enumerated() {
            if case .plan = declaration.origin, members[index].isEmpty { continue }
            journeys.append(journey(declaration, trips: members[index], home: home, rules: rules))
        }
        return journeys.sorted { $0.start < $1.start }
    }

    /// A declared journey of `trips` (oldest first). One started by hand spans its whole window;
    /// a plan spans its trips, as its dates are only what was expected.
    private static func journey(
        _ declaration: DeclaredJourney,
        trips: [JourneyTrip],
        home: Coordinate?,
        rules: JourneyRules
    ) -> Journey {
        let reference = home ?? trips.first?.summary.start ?? Coordinate(latitude: 0, longitude: 0)
        var builder = Builder(reference: reference, rules: rules, knowsHome: home != nil)
        for trip in trips { builder.add(trip) }
        let lastTripOngoing = trips.last.map { $0.summary.endReason == nil } ?? false
        var isOpen = lastTripOngoing
        if case .manual = declaration.origin {
            let lastEnd = trips.last?.summary.endTime ?? declaration.start
            builder.start = trips.isEmpty ? declaration.start : min(declaration.start, builder.start)
            builder.end = max(declaration.end ?? lastEnd, lastEnd)
            isOpen = declaration.end == nil || lastTripOngoing
        }
        var journey = builder.journey(isOpen: isOpen)
        journey.declared = declaration.origin
        return journey
    }
}
