/// Finds trips in a stream of accepted fixes: a value-type state machine whose only clock is
/// the fixes' own time, so a replayed log gives exactly the trips of the live run.
///
/// - Parked: the vehicle stays near its parking spot (the mean of its fixes there). Drift never
///   starts a trip: only two consecutive fixes beyond `departureRadius` do. The trip start is
///   then back-dated to the moment the vehicle left the spot.
/// - Driving: a trip is open. Stops shorter than `minimumParkingDuration` (lights, bus stops,
///   jams) are part of it, whether fixes kept coming or not. A longer stay within `stopRadius`
///   ends it, back-dated to arrival. A gap in the fixes ends it at the last fix before the gap
///   after `maximumGap`, or after `parkedGap` when the source restarted in between and the
///   vehicle stood still (ignition off); shorter gaps while moving (tunnels) do not. The gap is
///   measured on GPS time, not only at the next fix: `advance(to:)` ends the trip as soon as
///   it passes, from no-fix epochs' time or the daemon's clock.
/// - A trip is announced only once it has covered `minimumTripDistance` over `minimumTripDuration`
///   and `minimumTripPoints` fixes, so moving the car in a car park, a cold receiver's wander and a
///   stale position corrected by one jump are not trips.
struct TripDetector: Sendable {
    let configuration: TrackingConfiguration

    private(set) var phase = Phase.idle
    /// Set by `sourceRestarted`: the next gap spans a restart of the receiver or the daemon.
    private var restartPending = false
    /// Recent samples, newest last: what back-dating looks into. Not persisted (a restart only
    /// makes the next boundary coarser, never wrong).
    private var recent = SampleWindow()

    enum Phase: Sendable, Hashable {
        case idle
        case parked(Parking)
        case driving(Drive)
    }

    /// Where the vehicle stands and since when.
    struct Parking: Sendable, Hashable {
        /// Mean of the fixes near the spot (drift averages out).
        var spot: Coordinate
        var weight: Double
        var since: UTCTime
        var last: Sample
        /// Consecutive fixes beyond `departureRadius`.
        var fixesAway: Int
    }

    /// The trip in progress.
    struct Drive: Sendable, Hashable {
        var trip: TripSummary
        var last: Sample
        /// Where distance was last added; drift below `distanceStep` adds nothing.
        var distanceAnchor: Coordinate
        var distanceAnchorTime: UTCTime
        /// Whether `tripStarted` has been emitted (the trip covered `minimumTripDistance`).
        var announced: Bool
        /// The current candidate stop: everything since `dwellStart` stayed near `dwellCenter`.
        var dwellCenter: Coordinate
        var dwellWeight: Double
        var dwellStart: Sample
    }

    /// One accepted fix as the detector keeps it, with running totals of the trip it is in.
    struct Sample: Sendable, Hashable {
        var point: RoutePoint
        /// Trip distance, moving time, maximum speed and point count up to and including this sample.
        var distance: Double = 0
        var movingTime: Double = 0
        var maximumSpeed: Double = 0
        var pointCount: Int = 0

        var time: UTCTime { point.time }
        var coordinate: Coordinate { point.coordinate }
    }

    init(configuration: TrackingConfiguration) {
        self.configuration = configuration
    }

    /// Resumes from a saved phase and back-dating window (see `persistentWindow`); without a
    /// window, it restarts with what the phase holds.
    init(configuration: TrackingConfiguration, phase: Phase, window: [Sample] = []) {
        self.configuration = configuration
        self.phase = phase
        if !window.isEmpty {
            for sample in window { recent.append(sample) }
            return
        }
        switch phase {
        case .idle:
            break
        case .parked(let parking):
            recent.append(parking.last)
        case .driving(let drive):
            if drive.dwellStart.time < drive.last.time { recent.append(drive.dwellStart) }
            recent.append(drive.last)
        }
    }

    /// The part of the back-dating window a restart must not lose: while parked, the samples since
    /// the vehicle last stood still at its spot (none while it does); while a trip is not yet announced,
    /// its samples so far. Otherwise nothing (the phase holds enough). At most a few minutes.
    var persistentWindow: [Sample] {
        switch phase {
        case .idle:
            return []
        case .parked(let parking):
            // From the last sample standing still at the spot: what `depart` would look back to.
            let samples = recent.samples
            let spot = LocalFrame(at: parking.spot)
            let lastStill = samples.lastIndex {
                spot.distance(to: $0.coordinate) <= configuration.stationaryRadius
                    && ($0.point.speed ?? 0) < configuration.movingSpeed
            }
            guard let lastStill else { return Array(samples) }
            return lastStill == samples.index(before: samples.endIndex) ? [] : Array(samples[lastStill...])
        case .driving(let drive):
            return drive.announced ? [] : Array(recent.samples)
        }
    }

    /// The trip in progress, if one has been announced.
    var currentTrip: TripSummary? {
        if case .driving(let drive) = phase, drive.announced { return drive.trip }
        return nil
    }

    // MARK: Feeding

    /// Feeds one accepted fix.
    mutating func ingest(_ point: RoutePoint, emit: (TrackingEvent) -> Void) {
        switch phase {
        case .idle:
            park(at: Sample(point: point))
        case .parked(var parking):
            whileParked(&parking, point, emit: emit)
        case .driving(var drive):
            whileDriving(&drive, point, emit: emit)
        }
    }

    /// The receiver or the daemon restarted (power returned). A gap across a restart while the
    /// vehicle stood still is a parking (ignition off), however short: restarting from the
    /// same spot is a new trip. Without this mark, a silent stretch counts as stop time, since
    /// many loggers record nothing while stationary.
    mutating func sourceRestarted() {
        restartPending = true
    }

    /// The input ended (an imported log): an open trip ends at its arrival, or its last fix.
    mutating func endOfInput(emit: (TrackingEvent) -> Void) {
        guard case .driving(let drive) = phase else { return }
        let dwelling = drive.last.time.seconds(since: drive.dwellStart.time) > 0
        finish(drive, at: dwelling ? arrival(of: drive) : drive.last, reason: .endOfInput, emit: emit)
        park(at: drive.last)
    }

    /// GPS time reached `now` without a fix (no-fix epochs, or a silent receiver on the daemon's
    /// clock): once the gap since the last fix passes `maximumGap`, an open trip ends as the next
    /// fix would end it (reason `.dataGap`, at arrival or its last fix), so it ends on time, not
    /// when fixes return. The vehicle is then parked at the last fix.
    mutating func advance(to now: UTCTime, emit: (TrackingEvent) -> Void) {
        guard case .driving(let drive) = phase, now.seconds(since: drive.last.time) > configuration.maximumGap
        else { return }
        finishAtGap(drive, emit: emit)
        park(at: drive.last)
    }

    /// GPS time stepped back and stayed there (`FixFilter.Decision.rebased`): gaps, speeds and
    /// back-dating across the step mean nothing, so an open trip ends at its last fix (reason
    /// `.timeStep`) and the next fix starts afresh, as the first fix ever did.
    mutating func timeStepped(emit: (TrackingEvent) -> Void) {
        if case .driving(let drive) = phase { finish(drive, at: drive.last, reason: .timeStep, emit: emit) }
        phase = .idle
        recent.removeAll()
        restartPending = false
    }

    private mutating func park(at sample: Sample) {
        var start = sample
        start.distance = 0
        start.movingTime = 0
        start.maximumSpeed = 0
        start.pointCount = 0
        phase = .parked(Parking(spot: sample.coordinate, weight: 1, since: sample.time, last: start, fixesAway: 0))
        recent.removeAll()
        recent.append(start)
    }

    // MARK: Parked

    private mutating func whileParked(_ parking: inout Parking, _ point: RoutePoint, emit: (TrackingEvent) -> Void) {
        let sample = Sample(point: point)
        let gap = point.time.seconds(since: parking.last.time)
        if gap > configuration.maximumGap {
            // Off for a long time: wherever it is now is where it is parked.
            park(at: sample)
            return
        }
        let away = LocalFrame(at: point.coordinate).distance(to: parking.spot)
        recent.append(sample)
        recent.trim(keeping: configuration.minimumParkingDuration + configuration.parkedGap + 60, before: point.time)
        parking.last = sample
        if away <= configuration.departureRadius {
            parking.fixesAway = 0
            if away <= configuration.stationaryRadius {
                // Average the spot over up to a few minutes of fixes, so it sits in the drift's centre.
                parking.weight = min(parking.weight + 1, 300)
                parking.spot = Self.blend(parking.spot, point.coordinate, weight: 1 / parking.weight)
            }
            phase = .parked(parking)
            return
        }
        parking.fixesAway += 1
        guard parking.fixesAway >= 2 else {
            phase = .parked(parking)
            return
        }
        depart(from: parking, emit: emit)
    }

    /// Starts a drive back-dated to the last sample that stood at the spot, and replays the
    /// samples since through the drive.
    private mutating func depart(from parking: Parking, emit: (TrackingEvent) -> Void) {
        let samples = recent.samples
        let spot = LocalFrame(at: parking.spot)
        var startIndex = samples.startIndex
        for index in samples.indices.reversed()
        where spot.distance(to: samples[index].coordinate) <= configuration.stationaryRadius {
            startIndex = index
            break
        }
        // The vehicle was already rolling a little before it left the spot's radius.
        while startIndex > samples.startIndex, let speed = samples[startIndex].point.speed,
            speed >= configuration.movingSpeed
        {
            startIndex -= 1
        }
        var start = samples[startIndex]
        start.distance = 0
        start.movingTime = 0
        start.maximumSpeed = 0
        start.pointCount = 1
        let trip = TripSummary(
            startTime: start.time,
            endTime: start.time,
            start: start.coordinate,
            end: start.coordinate
        )
        var drive = Drive(
            trip: trip,
            last: start,
            distanceAnchor: start.coordinate,
            distanceAnchorTime: start.time,
            announced: false,
            dwellCenter: start.coordinate,
            dwellWeight: 1,
            dwellStart: start
        )
        let replay = Array(samples[(startIndex + 1)...])
        recent.removeAll()
        recent.append(start)
        phase = .driving(drive)
        for sample in replay {
            guard case .driving(let current) = phase else {
                ingest(sample.point, emit: emit)
                continue
            }
            drive = current
            whileDriving(&drive, sample.point, emit: emit)
        }
    }

    // MARK: Driving

    private mutating func whileDriving(_ drive: inout Drive, _ point: RoutePoint, emit: (TrackingEvent) -> Void) {
        let gap = point.time.seconds(since: drive.last.time)
        let here = LocalFrame(at: point.coordinate)
        let moved = here.distance(to: drive.last.coordinate)
        let restarted = restartPending
        restartPending = false
        if gap > configuration.maximumGap
            || (restarted && gap > configuration.parkedGap && moved <= configuration.stopRadius)
        {
            finishAtGap(drive, emit: emit)
            park(at: Sample(point: point))
            return
        }
        var sample = Sample(point: point)
        accumulate(&sample, after: drive.last, drive: &drive, elapsed: gap, moved: moved, frame: here)
        drive.last = sample
        drive.trip.endTime = sample.time
        drive.trip.end = sample.coordinate
        drive.trip.distance = sample.distance
        drive.trip.movingTime = sample.movingTime
        drive.trip.maximumSpeed = sample.maximumSpeed
        drive.trip.pointCount = sample.pointCount
        recent.append(sample)

        // Metres covered up to the stop the vehicle may be in: what the trip keeps if it ends
        // there (back-dated to arrival), so creeping within the stop never announces a trip
        // whose stored distance falls short of the minimum.
        let covered = min(drive.trip.distance, drive.dwellStart.distance)
        if !drive.announced, covered >= configuration.minimumTripDistance,
            drive.trip.duration >= configuration.minimumTripDuration,
            drive.trip.pointCount >= configuration.minimumTripPoints
        {
            drive.announced = true
            emit(.tripStarted(drive.trip))
            for earlier in recent.samples {
                emit(.routePoint(tripStart: drive.trip.startTime, earlier.point))
            }
        } else if drive.announced {
            emit(.routePoint(tripStart: drive.trip.startTime, point))
        }

        // Stop detection: has everything since dwellStart stayed within stopRadius?
        if here.distance(to: drive.dwellCenter) <= configuration.stopRadius {
            drive.dwellWeight += 1
            drive.dwellCenter = Self.blend(drive.dwellCenter, point.coordinate, weight: 1 / drive.dwellWeight)
        } else {
            drive.dwellCenter = point.coordinate
            drive.dwellWeight = 1
            drive.dwellStart = sample
        }
        let keep = max(configuration.minimumParkingDuration, configuration.parkedGap) + 120
        if drive.announced { recent.trim(keeping: keep, before: point.time) }

        if point.time.seconds(since: drive.dwellStart.time) >= configuration.minimumParkingDuration {
            let arrived = arrival(of: drive)
            finish(drive, at: arrived, reason: .parked, emit: emit)
            park(at: sample)
            if case .parked(var parking) = phase {
                parking.spot = drive.dwellCenter
                parking.weight = drive.dwellWeight
                parking.since = arrived.time
                phase = .parked(parking)
            }
            return
        }
        phase = .driving(drive)
    }

    /// Adds the step from `previous` to `sample` to the running totals.
    private func accumulate(
        _ sample: inout Sample,
        after previous: Sample,
        drive: inout Drive,
        elapsed: Double,
        moved: Double,
        frame: LocalFrame
    ) {
        sample.distance = previous.distance
        // Distance counts only real movement: a step beyond the noise made while moving, so a
        // receiver drifting at a red light adds nothing. Without a reported speed, the speed
        // since the last counted step tells drift (slow, back and forth) from driving.
        var step = frame.distance(to: drive.distanceAnchor)
        // Long steps (after a tunnel) are stored distance: measure them on the ellipsoid.
        if step > 1000 { step = Geodesy.fastDistance(drive.distanceAnchor, sample.coordinate) }
        let noise = max(configuration.distanceStep, 2 * (sample.point.horizontalError ?? 0))
        let sinceAnchor = sample.time.seconds(since: drive.distanceAnchorTime)
        let stepSpeed = sample.point.speed ?? (sinceAnchor > 0 ? step / sinceAnchor : 0)
        if step >= noise, stepSpeed >= configuration.movingSpeed || step >= 3 * noise {
            sample.distance += step
            drive.distanceAnchor = sample.coordinate
            drive.distanceAnchorTime = sample.time
        }
        let speed = sample.point.speed ?? (elapsed > 0 ? moved / elapsed : 0)
        sample.movingTime = previous.movingTime + (speed >= configuration.movingSpeed ? elapsed : 0)
        sample.maximumSpeed = max(previous.maximumSpeed, speed)
        sample.pointCount = previous.pointCount + 1
    }

    /// The first sample of the final stop: walking back from the newest, the earliest sample
    /// within `stationaryRadius` of the stop's centre with nothing after it beyond `stopRadius`.
    private func arrival(of drive: Drive) -> Sample {
        var arrival: Sample?
        let center = LocalFrame(at: drive.dwellCenter)
        for sample in recent.samples.reversed() {
            let distance = center.distance(to: sample.coordinate)
            if distance > configuration.stopRadius {
                // The approach: the stop began at the earliest sample near its centre.
                guard let arrival, arrival.time >= drive.trip.startTime else { return drive.dwellStart }
                return arrival
            }
            if distance <= configuration.stationaryRadius { arrival = sample }
        }
        // The window does not reach back to the approach (e.g. after a restart): the stop is
        // known to have begun at dwellStart.
        return drive.dwellStart
    }

    /// Power cut, receiver off or no fix: the trip ended before the gap, at arrival if it had
    /// already stopped, else at its last fix.
    private func finishAtGap(_ drive: Drive, emit: (TrackingEvent) -> Void) {
        let dwelling = drive.last.time > drive.dwellStart.time
        finish(drive, at: dwelling ? arrival(of: drive) : drive.last, reason: .dataGap, emit: emit)
    }

    /// Emits the end of `drive` at `end` (if it was announced).
    private func finish(_ drive: Drive, at end: Sample, reason: TripEndReason, emit: (TrackingEvent) -> Void) {
        guard drive.announced else { return }
        var trip = drive.trip
        trip.endTime = end.time
        trip.end = end.coordinate
        trip.distance = end.distance
        trip.movingTime = end.movingTime
        trip.maximumSpeed = end.maximumSpeed
        trip.pointCount = end.pointCount
        trip.endReason = reason
        emit(.tripEnded(trip))
    }

    /// Moves `a` towards `b` by `weight` (a running mean over nearby points).
    private static func blend(_ a: Coordinate, _ b: Coordinate, weight: Double) -> Coordinate {
        Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * weight,
            longitude: a.longitude + (b.longitude - a.longitude) * weight
        )
    }
}

/// The recent samples, oldest first, trimmed by age in amortised O(1).
struct SampleWindow: Sendable {
    private var storage: [TripDetector.Sample] = []
    private var head = 0

    var samples: ArraySlice<TripDetector.Sample> { storage[head...] }

    mutating func append(_ sample: TripDetector.Sample) { storage.append(sample) }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Drops samples older than `seconds` before `now`.
    mutating func trim(keeping seconds: Double, before now: UTCTime) {
        while head < storage.count, now.seconds(since: storage[head].time) > seconds { head += 1 }
        if head > 4096, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
