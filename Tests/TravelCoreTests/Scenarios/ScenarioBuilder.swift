import Foundation

@testable import TravelCore

/// One drive as it really happened: the instants the vehicle left and reached its parking places,
/// and the length of the road it took.
struct TrueTrip: Sendable {
    var start: UTCTime
    var end: UTCTime
    /// Along the recorded route (tunnels included), metres.
    var distance: Double
}

/// A long 1 Hz receiver timeline with its known truth.
struct Scenario: Sendable {
    var name: String
    var fixes: [Fix]
    var truth: [TrueTrip]
    /// Indexes of fixes before which the daemon starts again from its snapshot: after being
    /// killed, or when the power returns.
    var restarts: [Int]
    /// Whether the power was ever cut: a restart with fixes lost, unlike a kill.
    var hasPowerCuts: Bool

    /// Whether the fixes carry a speed, as a receiver's do (a GPX recording's do not).
    var reportsSpeed: Bool { fixes.contains { $0.speed != nil } }
}

/// Builds a scenario by chaining real drives and parked periods: each drive starts where the
/// previous one parked, at the next second. Fixes come at 1 Hz as from a live receiver: where a
/// recording skipped seconds while standing still (Strava and the eTrex both do), the receiver
/// would have kept reporting, so those seconds are filled with real parked drift.
struct ScenarioBuilder {
    private var fixes: [Fix] = []
    private var truth: [TrueTrip] = []
    private var restarts: [Int] = []
    private var hasPowerCuts = false
    /// The instant of the next fix.
    private var clock: UTCTime
    /// Where the vehicle stands.
    private var spot: Coordinate

    init(start: UTCTime, at spot: Coordinate) {
        clock = start
        self.spot = spot
    }

    func scenario(_ name: String) -> Scenario {
        Scenario(name: name, fixes: fixes, truth: truth, restarts: restarts, hasPowerCuts: hasPowerCuts)
    }

    /// Parked with the receiver on, for whole seconds.
    mutating func park(seconds: Int, drift: ParkedDrift) {
        for _ in 0..<seconds {
            emit(drift.sample(at: clock), around: spot, at: clock)
            clock = clock.adding(seconds: 1)
        }
    }

    /// The receiver's first fixes after power-on, played once as recorded.
    mutating func powerOn(_ transient: ParkedDrift) {
        for sample in transient.samples {
            emit(sample, around: spot, at: clock)
            clock = clock.adding(seconds: 1)
        }
    }

    /// The power is cut (ignition off): no fixes at all, and the daemon starts again when the
    /// power returns.
    mutating func powerOff(seconds: Double) {
        clock = clock.adding(seconds: seconds)
        hasPowerCuts = true
        restartDaemon()
    }

    /// The daemon is killed and restarted before the next fix.
    mutating func restartDaemon() { restarts.append(fixes.count) }

    /// A pause inside a drive, in seconds of the recording.
    struct Pause {
        var at: Double
        var seconds: Double
    }

    /// Replays `drive` from the current spot, turned by `rotation` degrees.
    ///
    /// - Parameters:
    ///   - leadIn, leadOut: seconds of the recording kept before departure and after arrival
    ///     (all of it when `nil`).
    ///   - standstill: a stop in traffic inserted at the first sample from `at` on, with drift.
    ///   - tunnel: fixes lost from `at` for `seconds` while the vehicle goes on.
    ///   - restartAt: the daemon restarts before the first fix from this second of the recording.
    ///   - drift: the receiver's noise while the vehicle stands; without it, the recording is
    ///     replayed as it was logged: its own points only, skipped seconds and all, no speed.
    mutating func drive(
        _ drive: RecordedDrive,
        rotation: Double = 0,
        leadIn: Double? = nil,
        leadOut: Double? = nil,
        standstill: Pause? = nil,
        tunnel: Pause? = nil,
        restartAt: Double? = nil,
        drift: ParkedDrift?
    ) {
        let samples = drive.samples
        let first = samples.firstIndex { $0.seconds >= samples[drive.departure].seconds - (leadIn ?? .infinity) }!
        let last = samples.lastIndex { $0.seconds <= samples[drive.arrival].seconds + (leadOut ?? .infinity) }!
        let stopIndex = standstill.flatMap { pause in samples.firstIndex { $0.seconds >= pause.at } }
        let (sinTurn, cosTurn) = (sin(rotation * .pi / 180), cos(rotation * .pi / 180))
        let start = clock
        let anchor = spot

        func place(_ index: Int) -> Coordinate {
            let east = samples[index].east - samples[first].east
            let north = samples[index].north - samples[first].north
            let turnedEast = east * cosTurn + north * sinTurn
            let turnedNorth = north * cosTurn - east * sinTurn
            return Geodesy.direct(
                from: anchor,
                azimuth: atan2(turnedEast, turnedNorth) * 180 / .pi,
                distance: (east * east + north * north).squareRoot()
            )
        }
        func time(of index: Int) -> UTCTime {
            let delay = stopIndex.map { index > $0 ? standstill!.seconds : 0 } ?? 0
            return start.adding(seconds: samples[index].seconds - samples[first].seconds + delay)
        }
        func isInTunnel(_ seconds: Double) -> Bool {
            tunnel.map { seconds >= $0.at && seconds < $0.at + $0.seconds } ?? false
        }

        let placed = (first...last).map(place)
        var pendingRestart = restartAt
        for index in first...last {
            let sample = samples[index]
            let position = placed[index - first]
            if let restartAt = pendingRestart, sample.seconds >= restartAt {
                restartDaemon()
                pendingRestart = nil
            }
            if !isInTunnel(sample.seconds) {
                fixes.append(
                    Fix(
                        time: time(of: index),
                        mode: .threeD,
                        quality: .gps,
                        latitude: position.latitude,
                        longitude: position.longitude,
                        altitudeMSL: sample.altitude,
                        speed: drift == nil ? nil : sample.speed,
                        source: .nmea
                    )
                )
            }
            // Seconds the receiver reports while the vehicle stands here: an inserted stop, and
            // the seconds the recorder skipped if it crept along at under 0.5 m/s meanwhile.
            var standing = index == stopIndex ? standstill!.seconds : 0
            let skipped = index < last ? samples[index + 1].seconds - sample.seconds - 1 : 0
            if skipped > 0.5, Geodesy.distance(position, placed[index + 1 - first]) < 0.5 * (skipped + 1) {
                standing += skipped
            }
            for offset in stride(from: 1.0, through: standing, by: 1) where !isInTunnel(sample.seconds + offset) {
                guard let drift else { break }
                let instant = time(of: index).adding(seconds: offset)
                emit(drift.sample(at: instant), around: position, at: instant)
            }
        }
        truth.append(
            TrueTrip(
                start: time(of: drive.departure),
                end: time(of: drive.arrival),
                distance: (drive.departure - first..<drive.arrival - first).reduce(0) { sum, offset in
                    sum + Geodesy.distance(placed[offset], placed[offset + 1])
                }
            )
        )
        spot = placed.last!
        clock = time(of: last).adding(seconds: 1)
    }

    /// A fix of the parked receiver: its reported quality, its offset applied around `base`.
    private mutating func emit(_ sample: ParkedDrift.Sample, around base: Coordinate, at instant: UTCTime) {
        let position = Geodesy.direct(
            from: base,
            azimuth: atan2(sample.east, sample.north) * 180 / .pi,
            distance: (sample.east * sample.east + sample.north * sample.north).squareRoot()
        )
        var fix = sample.fix
        // The log's altitude belongs to another place.
        (fix.altitudeMSL, fix.altitudeHAE, fix.geoidSeparation) = (nil, nil, nil)
        fix.time = instant
        fix.timeOfDay = Int32(instant.dayAndTimeOfDay.millisecondOfDay)
        fix.latitude = position.latitude
        fix.longitude = position.longitude
        fixes.append(fix)
    }
}
